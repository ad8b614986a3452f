// Poisson regression with ppsynth's default priors (METHOD.md section 1), centred.
data {
  int<lower=0> n;
  int<lower=1> p;
  matrix[n, p] X;
  int<lower=0> y[n];
}
parameters {
  vector[p] beta;
  vector<lower=0>[p] tau;
}
model {
  tau ~ student_t(3, 0, 1);
  beta ~ normal(0, tau);
  y ~ poisson_log(X * beta);
}
