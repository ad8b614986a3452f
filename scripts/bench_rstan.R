#!/usr/bin/env Rscript
# Side-by-side speed comparison with Stan (issue 3): fits the same model, priors and data
# as tests/bench/bench_engine through rstan (4 chains on 2 cores, 1000 warm-up + 1000
# draws), then runs bench_engine on the same case and prints both ESS/s and their ratio.
# Not part of CI. Needs R and rstan (Debian: apt-get install r-base-core r-cran-rstan).
#
#   build/ci/tests/bench/bench_engine dump /tmp/ppsynth-bench
#   Rscript scripts/bench_rstan.R /tmp/ppsynth-bench build/ci/tests/bench/bench_engine poisson negbin
#
# BENCH_ENGINE_ARGS (e.g. "--tau-sampled") is passed on to bench_engine. STAN_CHAINS,
# STAN_WARMUP and STAN_DRAWS (default 4, 1000, 1000) set both sides' run length: the K = 20
# mixture needs hours in Stan at the defaults, so its side by side runs shorter.
# ESS/s = minimum bulk ESS over the parameters (the mixture: over lp__ and the label-invariant
# quantities bench_engine uses, the total log-likelihood and the mean prediction) / seconds of
# sampling, warm-up included, compilation excluded. ppsynth's seconds are bench_engine's wall
# clock, run first while the machine is otherwise idle; Stan's are its chains' own CPU seconds
# (get_elapsed_time, Stan's clock()) as 2 cores would spend them: the slower chain's for 2
# chains, the sum / 2 for more. So Stan's figure stays honest when its hours-long runs share
# the machine (e.g. started with nice); the wall seconds are printed beside it. Also printed:
# Stan's seconds per iteration and leapfrog steps (gradients) per iteration. STAN_SAVE=DIR
# also writes Stan's draws of those quantities to DIR/CASE-stan.csv (chain, iteration, ...).
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
             "income-mixture" = "mixture", "income-mixture-tenth" = "mixture")
rstan_options(auto_write = FALSE)  # no compiled .rds next to the .stan sources
# Debian's r-cran-bh is an empty shell (the headers are the system Boost's), so rstan's
# default boost_lib, BH's include folder, does not exist there.
if (!dir.exists(system.file("include", package = "BH")) && dir.exists("/usr/include/boost"))
  rstan_options(boost_lib = "/usr/include")

setting <- function(name, default) {
  v <- Sys.getenv(name)
  if (nzchar(v)) as.integer(v) else default
}
chains <- setting("STAN_CHAINS", 4L)
warmup <- setting("STAN_WARMUP", 1000L)
draws <- setting("STAN_DRAWS", 1000L)

for (cs in cases) {
  d <- read.csv(file.path(dataDir, paste0(cs, ".csv")))
  X <- as.matrix(d[, -1, drop = FALSE])
  y <- d$y
  kind <- modelOf[[cs]]
  data <- list(n = nrow(X), p = ncol(X), X = X, y = if (kind %in% c("poisson", "negbin")) as.integer(y) else y)
  if (kind == "mixture") data$K <- 20L
  runArgs <- c("--chains", chains, "--warmup", warmup, "--draws", draws)
  out <- system2(engine, c(cs, runArgs, strsplit(Sys.getenv("BENCH_ENGINE_ARGS"), " ")[[1]]),
                 stdout = TRUE)
  cat(out, sep = "\n")
  ours <- as.numeric(sub(".*ESS/s ([0-9.eE+-]+).*", "\\1", out[length(out)]))
  sm <- stan_model(file.path(stanDir, paste0(kind, ".stan")))
  t <- system.time(fit <- sampling(sm, data = data, chains = chains, cores = 2,
                                   iter = warmup + draws, warmup = warmup, seed = 20261123,
                                   refresh = 0))[["elapsed"]]
  chainSeconds <- rowSums(get_elapsed_time(fit))
  cpu <- if (chains <= 2) max(chainSeconds) else sum(chainSeconds) / 2
  arr <- as.array(fit)
  pars <- if (kind == "mixture") c("lp__", "loglik", "meanpred") else
    setdiff(dimnames(arr)[[3]], "lp__")
  saveDir <- Sys.getenv("STAN_SAVE")
  if (nzchar(saveDir)) {
    rows <- do.call(rbind, lapply(seq_len(dim(arr)[2]), function(ch)
      data.frame(chain = ch, iteration = seq_len(dim(arr)[1]), arr[, ch, pars, drop = FALSE][, 1, ])))
    write.csv(rows, file.path(saveDir, paste0(cs, "-stan.csv")), row.names = FALSE)
  }
  ess <- min(sapply(pars, function(v) ess_bulk(arr[, , v])))
  rhat <- max(sapply(pars, function(v) Rhat(arr[, , v])))
  div <- sum(get_divergent_iterations(fit))
  leapfrogs <- mean(sapply(get_sampler_params(fit, inc_warmup = TRUE),
                           function(m) mean(m[, "n_leapfrog__"])))
  stanRate <- ess / cpu
  cat(sprintf(paste("stan    %-15s %.1f s (chains' CPU; wall %.1f s)  min bulk ESS %.0f  ESS/s %.3g",
                    "max R-hat %.3f  divergences %d  %.2f s per iteration per chain",
                    "%.0f gradients per iteration\n"),
              cs, cpu, t, ess, stanRate, rhat, div, max(chainSeconds) / (warmup + draws),
              leapfrogs))
  cat(sprintf("ratio   %-15s ppsynth / Stan ESS/s = %.3g\n", cs, ours / stanRate))
}
