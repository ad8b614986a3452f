#!/usr/bin/env Rscript
# Side-by-side speed comparison with Stan (issue 3): fits the same model, priors and data
# as tests/bench/bench_engine through rstan (4 chains on 2 cores, 1000 warm-up + 1000
# draws), then runs bench_engine on the same case and prints both ESS/s and their ratio.
# Not part of CI. Needs R and rstan (Debian: apt-get install r-base-core r-cran-rstan).
#
#   build/ci/tests/bench/bench_engine dump /tmp/ppsynth-bench
#   Rscript scripts/bench_rstan.R /tmp/ppsynth-bench build/ci/tests/bench/bench_engine poisson negbin
#
# BENCH_ENGINE_ARGS (e.g. "--tau-sampled") is passed on to bench_engine.
# ESS/s = minimum bulk ESS over the parameters (the mixture: over lp__) / wall seconds of
# sampling (warm-up included, compilation excluded), as bench_engine measures its own.
suppressMessages(library(rstan))
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 3) stop("usage: bench_rstan.R DATA_DIR BENCH_ENGINE CASE...")
dataDir <- args[1]
engine <- args[2]
cases <- args[-(1:2)]
stanDir <- file.path(dirname(sub("--file=", "", grep("--file=", commandArgs(), value = TRUE))),
                     "..", "tests", "bench", "stan")
modelOf <- c(poisson = "poisson", negbin = "negbin", "visits-poisson" = "poisson",
             "visits-negbin" = "negbin", "income-normal" = "normal",
             "income-mixture" = "mixture")
rstan_options(auto_write = FALSE)  # no compiled .rds next to the .stan sources
# Debian's r-cran-bh is an empty shell (the headers are the system Boost's), so rstan's
# default boost_lib, BH's include folder, does not exist there.
if (!dir.exists(system.file("include", package = "BH")) && dir.exists("/usr/include/boost"))
  rstan_options(boost_lib = "/usr/include")

for (cs in cases) {
  d <- read.csv(file.path(dataDir, paste0(cs, ".csv")))
  X <- as.matrix(d[, -1, drop = FALSE])
  y <- d$y
  kind <- modelOf[[cs]]
  data <- list(n = nrow(X), p = ncol(X), X = X, y = if (kind %in% c("poisson", "negbin")) as.integer(y) else y)
  if (kind == "mixture") data$K <- 20L
  sm <- stan_model(file.path(stanDir, paste0(kind, ".stan")))
  t <- system.time(fit <- sampling(sm, data = data, chains = 4, cores = 2, iter = 2000,
                                   warmup = 1000, seed = 20261123, refresh = 0))[["elapsed"]]
  arr <- as.array(fit)
  pars <- if (kind == "mixture") "lp__" else setdiff(dimnames(arr)[[3]], "lp__")
  ess <- min(sapply(pars, function(v) ess_bulk(arr[, , v])))
  div <- sum(get_divergent_iterations(fit))
  stanRate <- ess / t
  cat(sprintf("stan    %-15s %.1f s  min bulk ESS %.0f  ESS/s %.1f  divergences %d\n",
              cs, t, ess, stanRate, div))
  out <- system2(engine, c(cs, strsplit(Sys.getenv("BENCH_ENGINE_ARGS"), " ")[[1]]), stdout = TRUE)
  cat(out, sep = "\n")
  ours <- as.numeric(sub(".*ESS/s ([0-9.]+).*", "\\1", out[length(out)]))
  cat(sprintf("ratio   %-15s ppsynth / Stan ESS/s = %.1f\n", cs, ours / stanRate))
}
