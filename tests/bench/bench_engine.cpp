// The engine's speed figures (issue 3, "Speed"): for each model on the bundled examples,
// 4 chains of NUTS, 1000 warm-up + 1000 draws, 2 threads, through study::fitModel exactly
// as a run fits. Prints wall seconds, the minimum bulk ESS (over the reported parameters,
// or over the label-invariant quantities for the mixture), ESS per second, divergences and
// the peak resident memory of the case (each case runs in its own process so the peak is
// its own).
//
//   bench_engine                      every case, one child process each
//   bench_engine CASE [options]       one case: poisson, negbin, visits-poisson,
//                                     visits-negbin, income-normal, income-mixture,
//                                     income-mixture-tenth (every 10th record)
//     --tau-integrated                tau integrated out (the default for K = 1)
//     --tau-sampled                   tau in the sampler, non-centred rare columns (the
//                                     default for the mixture)
//     --centred                       tau sampled and every coefficient centred
//     --warmup N --draws N --chains N --threads N --seed N   override the settings
//     --draws-out FILE                unconstrained draws (each row ending with the draw's
//                                     total log-likelihood and mean prediction) and each
//                                     chain's adapted metric
//     --progress                      every 100 iterations of each chain on stderr
//     --replicate R                   the records repeated R times (cost against n)
//     --sampler auto|nuts|gibbs       study::FitOptions::kernel (default auto)
//     --thin N                        iterations per retained draw
//     --alpha A                       every record weighted A (default 1: unweighted)
//     --cancel-after S                cancel after S seconds; print the latency
//     --components K                  the mixture's K (default 20)
//   bench_engine gradient-scaling     ms per mixture (K = 20) gradient, exact-move sweep and
//                                     Gibbs sweep at n and 16 n
//   bench_engine sweep-scaling [R]    ms per Gibbs sweep (K = 20) at 1 to 32 (or R) times n
//   bench_engine mixture-dump         mixture values at fixed points (diff before/after a change)
//   bench_engine dump DIR             writes each case's X and y as CSV for bench_rstan.R
//   bench_engine curvature CASE FILE [CHAIN [DRAW]]   where NUTS's step size is limited: the
//                                     Hessian (finite differences of the gradient) at a draw
//                                     of FILE (--draws-out), in that chain's metric, its
//                                     largest eigenvalues and what their directions load on
#include <sys/resource.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <atomic>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/data/prepare.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/normal_mixture.hpp"
#include "ppsynth/study/fit.hpp"

using namespace ppsynth;

namespace {

struct Case {
    std::string name, example, target, family, transform;
    bool predictors;  // the 10 categorical predictors of income_survey
    int K = 20;
    int every = 1;  // keep every k-th record of the prepared design (same columns, scaling)
};

const std::vector<Case>& cases() {
    static const std::vector<Case> list{
        {"poisson", "poisson", "y", "poisson", "none", false},
        {"negbin", "nb_mixture", "y", "negbin", "none", false},
        {"visits-poisson", "income_survey", "doctor_visits", "poisson", "none", true},
        {"visits-negbin", "income_survey", "doctor_visits", "negbin", "none", true},
        {"income-normal", "income_survey", "income", "normal", "log-shift", true},
        {"income-mixture", "income_survey", "income", "normal-mixture", "log-shift", true},
        // A tenth of the records: small enough for rstan to finish the mixture's 2 x (1000 +
        // 1000) within an hour, so both sides' ESS can be measured on the same data.
        {"income-mixture-tenth", "income_survey", "income", "normal-mixture", "log-shift", true, 20,
         10},
    };
    return list;
}

const Case& caseNamed(const std::string& name) {
    for (const Case& c : cases())
        if (c.name == name) return c;
    std::fprintf(stderr, "no case %s\n", name.c_str());
    std::exit(1);
}

const std::vector<std::string> kIncomePredictors{"gender",      "age",     "education",  "region",
                                                 "urban",       "marital", "urban_type", "cbsa",
                                                 "family_size", "earners"};

struct Inputs {
    Eigen::MatrixXd X;
    Eigen::VectorXd y;
    std::vector<std::string> names;
};

Inputs prepare(const Case& c) {
    auto table = data::makeExample(c.example);
    if (!table) {
        std::fprintf(stderr, "%s\n", table.message().c_str());
        std::exit(1);
    }
    data::Roles roles;
    roles.target = c.target;
    if (c.predictors) roles.predictors = kIncomePredictors;
    data::PrepareOptions po;
    po.transform = *data::transformKindFromString(c.transform);
    po.countModel = c.family == "poisson" || c.family == "negbin";
    auto in = data::prepareModelInputs(*table, roles, po);
    if (!in) {
        std::fprintf(stderr, "%s\n", in.message().c_str());
        std::exit(1);
    }
    if (c.every == 1) return {in->X, in->y, in->columnNames()};
    const Eigen::Index n = (in->y.size() + c.every - 1) / c.every;
    Inputs out{Eigen::MatrixXd(n, in->X.cols()), Eigen::VectorXd(n), in->columnNames()};
    for (Eigen::Index i = 0; i < n; ++i) {
        out.X.row(i) = in->X.row(i * c.every);
        out.y(i) = in->y(i * c.every);
    }
    return out;
}

enum class Form { Auto, Integrated, Sampled, Centred };

const char* formName(Form f) {
    return f == Form::Auto         ? "tau-auto"
           : f == Form::Integrated ? "tau-int"
           : f == Form::Sampled    ? "tau-smp"
                                   : "centred";
}

std::unique_ptr<models::Model> build(const Case& c, const Inputs& in, Form form) {
    models::ModelSpec spec;
    spec.family = c.family;
    spec.components = c.K;
    spec.priors.tau = form == Form::Auto         ? models::TauForm::Automatic
                      : form == Form::Integrated ? models::TauForm::Integrated
                                                 : models::TauForm::Sampled;
    spec.priors.centeredCoefficients = form == Form::Centred;
    auto m = models::makeModel(spec, in.X, in.y, in.names);
    if (!m) {
        std::fprintf(stderr, "%s\n", m.message().c_str());
        std::exit(1);
    }
    return std::move(*m);
}

double peakMegabytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;  // kB on Linux
}

// Unconstrained draws, one row per draw followed by its total log-likelihood and mean
// prediction, after a line per chain with its adapted step size and inverse metric: for
// looking at where a sampler struggles.
void writeDraws(const std::string& path, const models::Model& model, const study::Fit& fit) {
    std::ofstream out(path);
    for (const auto& w : fit.warmStarts) {
        out << "#step " << w.stepSize << " metric";
        for (Eigen::Index j = 0; j < w.invMetric.size(); ++j) out << ' ' << w.invMetric(j);
        out << '\n';
    }
    for (Eigen::Index s = 0; s < fit.draws.rows(); ++s) {
        for (Eigen::Index j = 0; j < fit.draws.cols(); ++j)
            out << (j ? "," : "") << fit.draws(s, j);
        const Eigen::VectorXd q = fit.draws.row(s).transpose();
        out << ',' << model.totalLogLik(q) << ',' << model.meanPrediction(q) << '\n';
    }
}

int runCase(const Case& c, int argc, char** argv) {
    Form form = Form::Auto;
    std::string drawsOut;
    int replicate = 1;
    std::string kernel = "auto";
    double weight = 1.0;
    double cancelAfter = 0.0;
    Case sized = c;
    mcmc::SamplerOptions so;
    so.chains = 4;
    so.warmup = 1000;
    so.draws = 1000;
    so.threads = 2;
    so.seed = 20261123;
    for (int a = 2; a < argc; ++a) {
        const std::string k = argv[a];
        auto next = [&] { return a + 1 < argc ? std::atoi(argv[++a]) : 0; };
        if (k == "--centred")
            form = Form::Centred;
        else if (k == "--tau-integrated")
            form = Form::Integrated;
        else if (k == "--tau-sampled")
            form = Form::Sampled;
        else if (k == "--warmup")
            so.warmup = next();
        else if (k == "--draws")
            so.draws = next();
        else if (k == "--chains")
            so.chains = next();
        else if (k == "--threads")
            so.threads = next();
        else if (k == "--seed")
            so.seed = static_cast<std::uint64_t>(next());
        else if (k == "--draws-out" && a + 1 < argc)
            drawsOut = argv[++a];
        else if (k == "--replicate")
            replicate = std::max(1, next());
        else if (k == "--sampler" && a + 1 < argc)
            kernel = argv[++a];
        else if (k == "--thin")
            so.thin = std::max(1, next());
        else if (k == "--alpha" && a + 1 < argc)
            weight = std::atof(argv[++a]);
        else if (k == "--cancel-after" && a + 1 < argc)
            cancelAfter = std::atof(argv[++a]);
        else if (k == "--components")
            sized.K = std::max(1, next());
        else if (k == "--progress")
            so.progress = [start = std::chrono::steady_clock::now()](const Progress& p) {
                // Every 100 iterations per chain, on stderr (long mixture runs).
                if (static_cast<long>(p.done) % 100 == 0)
                    std::fprintf(stderr, "  chain %d %s %.0f/%.0f at %.0f s\n", p.worker + 1,
                                 p.stage.c_str(), p.done, p.total, secondsSince(start));
                return Continue::Yes;
            };
    }
    Inputs in = prepare(c);
    if (replicate > 1) {  // the records repeated, for cost against n
        in.X = in.X.replicate(replicate, 1).eval();
        in.y = in.y.replicate(replicate, 1).eval();
    }
    const auto model = build(sized, in, form);
    study::FitOptions fo;
    fo.sampler = so;
    fo.kernel = study::kernelNamed(kernel);
    const Eigen::VectorXd alpha = Eigen::VectorXd::Constant(in.y.size(), weight);
    // --cancel-after S: raise the cancel flag after S seconds and report how long the fit
    // took to return (issue 3: within 100 ms).
    std::atomic<bool> cancel{false};
    std::chrono::steady_clock::time_point cancelledAt;
    std::thread canceller;
    if (cancelAfter > 0) {
        fo.sampler.cancel = &cancel;
        canceller = std::thread([&] {
            std::this_thread::sleep_for(std::chrono::duration<double>(cancelAfter));
            cancelledAt = std::chrono::steady_clock::now();
            cancel.store(true);
        });
    }
    auto fit = study::fitModel(*model, alpha, fo);
    if (canceller.joinable()) {
        const auto returned = std::chrono::steady_clock::now();
        canceller.join();
        const double latency = std::chrono::duration<double>(returned - cancelledAt).count();
        std::printf("%s n=%zu: cancel flag -> return %.1f ms (%s)\n", c.name.c_str(),
                    model->recordCount(), 1e3 * latency,
                    fit ? "finished first" : fit.message().c_str());
        return 0;
    }
    if (!fit) {
        std::fprintf(stderr, "%s: %s\n", c.name.c_str(), fit.message().c_str());
        return 1;
    }
    if (!drawsOut.empty()) writeDraws(drawsOut, *model, *fit);
    const auto& d = fit->diagnostics;
    std::string worst;
    double minEss = 1e300;
    // As Stan's figure: over the parameters; the mixture over its label-invariant quantities.
    const bool mixture = c.family == "normal-mixture";
    for (const auto& q : d.quantities)
        if ((mixture || (q.name != "total log-likelihood" && q.name != "mean prediction")) &&
            q.summary.essBulk < minEss) {
            minEss = q.summary.essBulk;
            worst = q.name;
        }
    const double iterations = so.chains * (so.warmup + static_cast<double>(so.draws) * so.thin);
    std::string steps;
    for (const auto& w : fit->warmStarts) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s%.3g", steps.empty() ? "" : "/", w.stepSize);
        steps += buf;
    }
    std::printf(
        "%-15s %-8s n=%zu cols=%td dim=%zu  %.1f s  min bulk ESS %.0f (%s)  ESS/s %.3g  "
        "max R-hat %.3f  divergences %d (%.1f%%)  treedepth-saturated %d  gradients %lld "
        "(%.0f per iteration, %.2f ms each)  %.2f ms per iteration  step sizes %s  "
        "peak %.0f MB\n",
        c.name.c_str(), formName(form), model->recordCount(), in.X.cols(), model->dimension(),
        fit->seconds, minEss, worst.c_str(), minEss / fit->seconds, d.maxRhat, d.divergences,
        100.0 * d.divergences / std::max(d.draws, 1), d.treeDepthSaturated,
        static_cast<long long>(fit->gradientEvaluations),
        static_cast<double>(fit->gradientEvaluations) / iterations,
        1e3 * fit->seconds * std::min(so.threads, so.chains) /
            static_cast<double>(fit->gradientEvaluations),
        1e3 * fit->seconds * std::min(so.threads, so.chains) / iterations, steps.c_str(),
        peakMegabytes());
    return 0;
}

// Per-gradient cost of the K = 20 mixture at the example's n and with the records
// replicated 16 times (n ~ 100,000): linear cost means a ratio near 16. Wall and thread
// CPU time (the CPU figure is the steadier one on a shared machine); at the example's n
// also with the dense design (the sparse copy switched off) for comparison.
double threadCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// CPU seconds of one Gibbs sweep from `state` (the same state each time): the best of 5
// batches of `reps` sweeps.
double bestSweepSeconds(const models::NormalMixture& m, const Eigen::VectorXd& alpha,
                        const Eigen::VectorXd& state, int reps, Rng& rng) {
    double best = 1e300;
    for (int batch = 0; batch < 5; ++batch) {
        const double c0 = threadCpuSeconds();
        for (int r = 0; r < reps; ++r) {
            Eigen::VectorXd q = state;
            (void)m.gibbsSweep(alpha, q, rng, {});
        }
        best = std::min(best, (threadCpuSeconds() - c0) / reps);
    }
    return best;
}

int gradientScaling() {
    const Case& c = caseNamed("income-mixture");
    const Inputs in = prepare(c);
    Eigen::VectorXd swept;
    for (int variant = 0; variant < 3; ++variant) {
        const int rep = variant == 2 ? 16 : 1;
        const bool sparse = variant != 1;
        const Eigen::MatrixXd X = in.X.replicate(rep, 1);
        const Eigen::VectorXd y = in.y.replicate(rep, 1);
        const models::NormalMixture m(X, y, c.K, in.names, {}, sparse);
        Rng rng = makeRng(1, 0, Purpose::Test);
        const Eigen::VectorXd q = m.initialPoint(rng);
        const Eigen::VectorXd a = Eigen::VectorXd::Constant(y.size(), 0.8);
        Eigen::VectorXd g(q.size());
        volatile double sink = m.logPosterior(q, a, g);
        double best = 1e300, bestCpu = 1e300;
        for (int batch = 0; batch < 5; ++batch) {
            const auto t0 = std::chrono::steady_clock::now();
            const double c0 = threadCpuSeconds();
            const int reps = rep == 1 ? 40 : 4;
            for (int r = 0; r < reps; ++r) sink = sink + m.logPosterior(q, a, g);
            best = std::min(best, secondsSince(t0) / reps);
            bestCpu = std::min(bestCpu, (threadCpuSeconds() - c0) / reps);
        }
        std::printf(
            "mixture K=%d gradient: n=%td p=%td %s X  %.2f ms wall, %.2f ms CPU (best of "
            "5 batches)\n",
            c.K, y.size(), X.cols(), sparse ? "sparse" : "dense ", 1e3 * best, 1e3 * bestCpu);
        if (!sparse) continue;
        // One sweep of the exact moves (2 K Metropolis proposals) after each transition.
        Eigen::VectorXd qm = q;
        double bestMove = 1e300;
        for (int batch = 0; batch < 5; ++batch) {
            const double c0 = threadCpuSeconds();
            const int reps = rep == 1 ? 10 : 2;
            for (int r = 0; r < reps; ++r) (void)m.exactMove(a, qm, rng);
            bestMove = std::min(bestMove, (threadCpuSeconds() - c0) / reps);
        }
        std::printf("mixture K=%d exact-move sweep: n=%td  %.2f ms CPU (best of 5 batches)\n", c.K,
                    y.size(), 1e3 * bestMove);
        // One sweep of the mixture's own Gibbs sampler (Kernel::Gibbs). Its cost depends on
        // how many components hold records (the initial point has all of them), so both sizes
        // start from the state 200 sweeps reach at n: the replicated data have the same
        // responsibilities there.
        if (rep == 1) {
            swept = q;
            for (int r = 0; r < 200; ++r) (void)m.gibbsSweep(a, swept, rng, {});
        }
        std::printf("mixture K=%d Gibbs sweep: n=%td  %.2f ms CPU (best of 5 batches)\n", c.K,
                    y.size(), 1e3 * bestSweepSeconds(m, a, swept, rep == 1 ? 10 : 2, rng));
    }
    return 0;
}

// The Gibbs sweep's cost against n (issue 3: cost linear in n): CPU per sweep with the
// records replicated 1 to 32 times, unweighted and with every alpha 0.8 (the
// Metropolis-Hastings correction's extra passes), all from the state 200 unweighted sweeps
// reach at n (the replicated data have the same responsibilities there).
int sweepScaling(int maxRep) {
    const Case& c = caseNamed("income-mixture");
    const Inputs in = prepare(c);
    Eigen::VectorXd swept;
    for (const int rep : {1, 2, 4, 8, 16, 32}) {
        if (rep > maxRep) break;
        const Eigen::MatrixXd X = in.X.replicate(rep, 1);
        const Eigen::VectorXd y = in.y.replicate(rep, 1);
        const models::NormalMixture m(X, y, c.K, in.names, {});
        Rng rng = makeRng(1, 0, Purpose::Test);
        if (rep == 1) {
            swept = m.initialPoint(rng);
            const Eigen::VectorXd ones = Eigen::VectorXd::Ones(y.size());
            for (int r = 0; r < 200; ++r) (void)m.gibbsSweep(ones, swept, rng, {});
        }
        std::printf("mixture K=%d Gibbs sweep: n=%7td", c.K, y.size());
        for (const double weight : {1.0, 0.8}) {
            const Eigen::VectorXd a = Eigen::VectorXd::Constant(y.size(), weight);
            const double best = bestSweepSeconds(m, a, swept, std::max(1, 16 / rep), rng);
            std::printf("  alpha %.1f: %8.2f ms CPU, %5.0f ns per record", weight, 1e3 * best,
                        1e9 * best / static_cast<double>(y.size()));
        }
        std::printf("  (best of 5 batches)\n");
        std::fflush(stdout);
    }
    return 0;
}

// Values for before/after comparisons of the mixture likelihood code: logPosterior and its
// gradient, recordLogLik, predict (fixed seed) and meanPrediction at a few random points,
// for the sparse and the dense design, K = 20, 3, 25 and 40, free and fixed sigma.
int mixtureDump() {
    const Case& c = caseNamed("income-mixture");
    const Inputs in = prepare(c);
    std::printf("%.17g\n", 0.0);
    for (int variant = 0; variant < 10; ++variant) {
        models::Priors pr;
        if (variant == 4 || variant == 5) pr.fixedSigma = 0.7;
        const int K = variant < 2 ? 20 : variant < 6 ? 3 : variant < 8 ? 25 : 40;
        const bool sparse = variant % 2 == 0;
        const models::NormalMixture m(in.X, in.y, K, in.names, pr, sparse);
        for (int point = 0; point < 4; ++point) {
            Rng rng = makeRng(7, static_cast<std::uint64_t>(point), Purpose::Test);
            Eigen::VectorXd q = m.initialPoint(rng);
            boost::random::normal_distribution<double> nd(0.0, 0.3 * point);
            for (Eigen::Index j = 0; j < q.size(); ++j) q(j) += nd(rng);
            boost::random::uniform_01<double> u;
            Eigen::VectorXd a(in.y.size());
            for (Eigen::Index i = 0; i < a.size(); ++i) a(i) = point == 0 ? 1.0 : u(rng);
            Eigen::VectorXd g(q.size());
            std::printf("v%d p%d lp %.17g\n", variant, point, m.logPosterior(q, a, g));
            for (Eigen::Index j = 0; j < g.size(); ++j) std::printf("g %.17g\n", g(j));
            Eigen::VectorXd ll(in.y.size()), pred(in.y.size());
            m.recordLogLik(q, ll);
            for (Eigen::Index i = 0; i < ll.size(); i += 97) std::printf("ll %.17g\n", ll(i));
            std::printf("llsum %.17g\n", ll.sum());
            Rng prng = makeRng(9, static_cast<std::uint64_t>(point), Purpose::Test);
            m.predict(q, prng, pred);
            for (Eigen::Index i = 0; i < pred.size(); i += 97) std::printf("pr %.17g\n", pred(i));
            std::printf("mean %.17g\n", m.meanPrediction(q));
        }
    }
    return 0;
}

// Leapfrog is stable for step sizes below 2 / sqrt(lambda_max) of the Hessian in the metric's
// scale, and NUTS's adapted step sits near 1 / sqrt(lambda_max): the top eigenvectors name
// the directions that set it.
int curvature(const Case& c, const std::string& path, int chain, int draw) {
    std::ifstream file(path);
    std::vector<Eigen::VectorXd> metrics, draws;
    for (std::string line; std::getline(file, line);) {
        std::vector<double> v;
        const bool meta = line.rfind("#step", 0) == 0;
        std::string body = meta ? line.substr(line.find("metric") + 6) : line;
        for (char& ch : body)
            if (ch == ',') ch = ' ';
        std::istringstream is(body);
        for (double x; is >> x;) v.push_back(x);
        (meta ? metrics : draws).push_back(Eigen::Map<Eigen::VectorXd>(v.data(), std::ssize(v)));
    }
    if (metrics.empty() || draws.size() % metrics.size() != 0 || chain >= std::ssize(metrics)) {
        std::fprintf(stderr, "%s: not a --draws-out file of this case\n", path.c_str());
        return 1;
    }
    const int perChain = static_cast<int>(draws.size() / metrics.size());
    const Eigen::VectorXd sd = metrics[static_cast<std::size_t>(chain)].array().sqrt().matrix();
    const Eigen::Index d = sd.size();
    // A draw's row ends with its total log-likelihood and mean prediction (older files: not).
    const Eigen::VectorXd q0 =
        draws[static_cast<std::size_t>(chain * perChain + std::min(draw, perChain - 1))].head(
            std::min(d, std::ssize(draws.front())));
    const Inputs in = prepare(c);
    const auto m = build(c, in, Form::Auto);
    if (static_cast<Eigen::Index>(m->dimension()) != d || q0.size() != d) {
        std::fprintf(stderr, "dimension %td in the file, %zu in the model\n", d, m->dimension());
        return 1;
    }
    const Eigen::VectorXd alpha = Eigen::VectorXd::Ones(in.y.size());
    Eigen::MatrixXd H(d, d);
    Eigen::VectorXd gp(d), gm(d);
    for (Eigen::Index j = 0; j < d; ++j) {
        const double h = 1e-5 * sd(j);
        Eigen::VectorXd q = q0;
        q(j) += h;
        m->logPosterior(q, alpha, gp);
        q(j) -= 2 * h;
        m->logPosterior(q, alpha, gm);
        H.col(j) = -(gp - gm) / (2 * h) * sd(j);  // columns scaled by the metric's sd
    }
    H = sd.asDiagonal() * H;
    H = 0.5 * (H + H.transpose()).eval();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(H);
    // Reported names match the free coordinates except the mixture's: K - 1 sticks name
    // pi[1..K-1] and the last coordinate is log gamma.
    auto names = m->parameterNames();
    names.resize(static_cast<std::size_t>(d), "?");
    if (c.family == "normal-mixture") names.back() = "log gamma";
    std::printf("chain %d draw %d: %td coordinates\n", chain, draw, d);
    for (Eigen::Index e = d - 1; e >= d - 8; --e) {
        const Eigen::VectorXd v = es.eigenvectors().col(e);
        std::printf("lambda %.4g (1/sqrt %.4g):", es.eigenvalues()(e),
                    1.0 / std::sqrt(std::max(es.eigenvalues()(e), 1e-300)));
        std::vector<Eigen::Index> idx(static_cast<std::size_t>(d));
        for (Eigen::Index j = 0; j < d; ++j) idx[static_cast<std::size_t>(j)] = j;
        std::partial_sort(idx.begin(), idx.begin() + 6, idx.end(),
                          [&](auto a, auto b) { return std::abs(v(a)) > std::abs(v(b)); });
        for (int t = 0; t < 6; ++t)
            std::printf(" %s %.2f",
                        names[static_cast<std::size_t>(idx[static_cast<std::size_t>(t)])].c_str(),
                        v(idx[static_cast<std::size_t>(t)]));
        std::printf("\n");
    }
    std::printf("smallest lambda %.4g\n", es.eigenvalues()(0));
    return 0;
}

int dump(const std::string& dir) {
    for (const auto& c : cases()) {
        const Inputs in = prepare(c);
        std::ofstream out(dir + "/" + c.name + ".csv");
        out.precision(17);
        out << "y";
        for (Eigen::Index j = 0; j < in.X.cols(); ++j) out << ",x" << j;
        out << "\n";
        for (Eigen::Index i = 0; i < in.y.size(); ++i) {
            out << in.y(i);
            for (Eigen::Index j = 0; j < in.X.cols(); ++j) out << "," << in.X(i, j);
            out << "\n";
        }
        std::printf("%s/%s.csv: n=%td p=%td\n", dir.c_str(), c.name.c_str(), in.y.size(),
                    in.X.cols());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        int rc = 0;
        for (const auto& c : cases()) {
            const std::string cmd = std::string("\"") + argv[0] + "\" " + c.name;
            rc |= std::system(cmd.c_str());
        }
        return rc == 0 ? 0 : 1;
    }
    const std::string what = argv[1];
    if (what == "gradient-scaling") return gradientScaling();
    if (what == "sweep-scaling") return sweepScaling(argc > 2 ? std::atoi(argv[2]) : 32);
    if (what == "mixture-dump") return mixtureDump();
    if (what == "dump" && argc > 2) return dump(argv[2]);
    if (what == "curvature" && argc > 3)
        for (const auto& c : cases())
            if (c.name == argv[2])
                return curvature(c, argv[3], argc > 4 ? std::atoi(argv[4]) : 0,
                                 argc > 5 ? std::atoi(argv[5]) : 1 << 30);
    for (const auto& c : cases())
        if (c.name == what) return runCase(c, argc, argv);
    std::fprintf(stderr, "unknown case '%s'\n", what.c_str());
    return 2;
}
