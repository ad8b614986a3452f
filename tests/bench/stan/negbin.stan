// Negative binomial (NB2) regression with ppsynth's default priors, centred.
data {
  int<lower=0> n;
  int<lower=1> p;
  matrix[n, p] X;
  int<lower=0> y[n];
}
parameters {
  vector[p] beta;
  vector<lower=0>[p] tau;
  real<lower=0> inv_phi;
}
model {
  tau ~ student_t(3, 0, 1);
  beta ~ normal(0, tau);
  inv_phi ~ cauchy(0, 5);
  y ~ neg_binomial_2_log(X * beta, 1 / inv_phi);
}
