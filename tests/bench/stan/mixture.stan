// Mixture of K normal regressions (truncated Dirichlet process) with ppsynth's default
// priors; the labels are integrated out with log_sum_exp per record. The generated quantities
// are ppsynth's label-invariant diagnostics (total log-likelihood, mean prediction).
data {
  int<lower=0> n;
  int<lower=1> p;
  int<lower=1> K;
  matrix[n, p] X;
  vector[n] y;
}
parameters {
  matrix[p, K] B;
  vector<lower=0>[p] tau;
  vector<lower=0>[K] sigma;
  simplex[K] pi;
  real<lower=0> gamma;
}
model {
  matrix[n, K] mu = X * B;
  tau ~ student_t(3, 0, 1);
  for (k in 1:K) B[, k] ~ normal(0, tau);
  sigma ~ student_t(3, 0, 1);
  gamma ~ gamma(1, 1);
  pi ~ dirichlet(rep_vector(gamma / K, K));
  for (i in 1:n) {
    vector[K] lp = log(pi);
    for (k in 1:K) lp[k] += normal_lpdf(y[i] | mu[i, k], sigma[k]);
    target += log_sum_exp(lp);
  }
}
generated quantities {
  real loglik = 0;
  real meanpred = 0;
  {
    matrix[n, K] mu = X * B;
    for (i in 1:n) {
      vector[K] lp = log(pi);
      for (k in 1:K) lp[k] += normal_lpdf(y[i] | mu[i, k], sigma[k]);
      loglik += log_sum_exp(lp);
    }
    meanpred = mean(mu * pi);
  }
}
