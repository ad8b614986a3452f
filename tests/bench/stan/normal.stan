// Normal regression with ppsynth's default priors, centred.
data {
  int<lower=0> n;
  int<lower=1> p;
  matrix[n, p] X;
  vector[n] y;
}
parameters {
  vector[p] beta;
  vector<lower=0>[p] tau;
  real<lower=0> sigma;
}
model {
  tau ~ student_t(3, 0, 1);
  beta ~ normal(0, tau);
  sigma ~ student_t(3, 0, 1);
  y ~ normal(X * beta, sigma);
}
