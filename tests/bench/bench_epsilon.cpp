// Calibration of the "epsilon converged" verdict (METHOD.md section 2, "Convergence of
// epsilon"): its false-alarm rate over many seeds on well-mixed fits (the conjugate Poisson
// means and the regression models on the bundled examples, unweighted, as a run fits them:
// study::fitModel at the run's defaults, 4 chains x (1000 + 1000), 2 threads), and whether it
// fires on the K = 20 mixture's default fit on income_survey. For each case prints the share
// of seeds whose verdict was "not converged", by reason, and the worst and 95th-percentile
// figures behind each threshold (R-hat of D_s bulk/tail, ESS of D_s, f_i agreement).
//
//   bench_epsilon                         every well-mixed case, seeds as listed below
//   bench_epsilon CASE [SEEDS] [options]  one case: poisson-means, poisson, negbin,
//                                         visits-poisson, income-normal, income-mixture,
//                                         income-mixture-tenth
//     --draws N --warmup N --chains N --threads N   override the settings
//     --every K                             keep every k-th record (many seeds of the
//                                           regressions on income_survey at a tenth of the cost)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "ppsynth/common/quantile.hpp"
#include "ppsynth/common/stopwatch.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/data/prepare.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/privacy/epsilon_diagnostics.hpp"
#include "ppsynth/study/fit.hpp"
#include "ppsynth/study/record_bounds.hpp"

using namespace ppsynth;

namespace {

struct Case {
    std::string name, example, target, family, transform;
    bool predictors;  // the 10 categorical predictors of income_survey
    int seeds;        // default number of seeds
    int every = 1;    // keep every k-th record
};

const std::vector<Case>& cases() {
    static const std::vector<Case> list{
        {"poisson-means", "poisson", "y", "poisson-means", "none", false, 100},
        {"poisson", "poisson", "y", "poisson", "none", false, 50},
        {"negbin", "nb_mixture", "y", "negbin", "none", false, 50},
        {"visits-poisson", "income_survey", "doctor_visits", "poisson", "none", true, 20},
        {"income-normal", "income_survey", "income", "normal", "log-shift", true, 20},
        {"income-mixture", "income_survey", "income", "normal-mixture", "log-shift", true, 1},
        {"income-mixture-tenth", "income_survey", "income", "normal-mixture", "log-shift", true, 5,
         10},
    };
    return list;
}

const std::vector<std::string> kIncomePredictors{"gender",      "age",     "education",  "region",
                                                 "urban",       "marital", "urban_type", "cbsa",
                                                 "family_size", "earners"};

std::unique_ptr<models::Model> build(const Case& c) {
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
    po.countModel = c.family != "normal" && c.family != "normal-mixture";
    auto in = data::prepareModelInputs(*table, roles, po);
    if (!in) {
        std::fprintf(stderr, "%s\n", in.message().c_str());
        std::exit(1);
    }
    Eigen::MatrixXd X = in->X;
    Eigen::VectorXd y = in->y;
    if (c.every > 1) {
        const Eigen::Index n = (y.size() + c.every - 1) / c.every;
        X.resize(n, in->X.cols());
        y.resize(n);
        for (Eigen::Index i = 0; i < n; ++i) {
            X.row(i) = in->X.row(i * c.every);
            y(i) = in->y(i * c.every);
        }
    }
    models::ModelSpec spec;
    spec.family = c.family;
    auto m = models::makeModel(spec, X, y, in->columnNames());
    if (!m) {
        std::fprintf(stderr, "%s\n", m.message().c_str());
        std::exit(1);
    }
    return std::move(*m);
}

struct Settings {
    int draws = 1000, warmup = 1000, chains = 4, threads = 2;
    int every = 0;  // 0: the case's own
};

void runCase(const Case& c, int seeds, const Settings& st) {
    const auto model = build(c);
    std::map<std::string, int> byReason;
    std::vector<double> rb, rt, eb, et, fc, fr, fw, ratio, rankRatio, spread, llRhat, halfDelta;
    // epsilon per dataset = 2 Delta per seed, with the max over draws (q = 1) and the robust
    // quantiles: how reproducible the published number is from one run.
    const std::vector<double> qs{1.0, 0.99, 0.95};
    std::vector<std::vector<double>> epsilonByQ(qs.size());
    int alarms = 0, oldAlarms = 0;
    double seconds = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
        study::FitOptions fo;
        fo.sampler.chains = st.chains;
        fo.sampler.warmup = st.warmup;
        fo.sampler.draws = st.draws;
        fo.sampler.threads = st.threads;
        fo.sampler.seed = static_cast<std::uint64_t>(seed);
        const auto t0 = std::chrono::steady_clock::now();
        auto fit = study::fitModel(
            *model, Eigen::VectorXd::Ones(static_cast<Eigen::Index>(model->recordCount())), fo);
        seconds += secondsSince(t0);
        if (!fit) {
            std::fprintf(stderr, "%s seed %d: %s\n", c.name.c_str(), seed, fit.message().c_str());
            std::exit(1);
        }
        const auto bound = privacy::lipschitzBound(fit->lipschitz);
        for (std::size_t k = 0; k < qs.size(); ++k)
            epsilonByQ[k].push_back(2 * privacy::lipschitzBound(fit->lipschitz, qs[k]).delta);
        // f_i per half chain as the runner computes them (its one helper).
        const auto halves =
            study::chainRecordBounds(
                *model, fit->draws, static_cast<std::size_t>(st.chains), bound.keptDraws,
                Eigen::VectorXd::Ones(static_cast<Eigen::Index>(model->recordCount())), st.threads)
                .halves;
        const auto d = privacy::diagnoseEpsilon(study::epsilonChains(*fit, bound, halves));
        // The rule before this one, on the same fit: whole chains' f_i against fixed limits
        // (rank correlation >= 0.90, median relative difference <= 5%).
        {
            const bool dsOk = privacy::diagnoseEpsilon(study::epsilonChains(*fit, bound)).converged;
            double rank = 1, diff = 0;
            for (std::size_t a = 0; a < fit->chainRecordMax.size(); ++a)
                for (std::size_t b = a + 1; b < fit->chainRecordMax.size(); ++b) {
                    const double r =
                        privacy::rankCorrelation(fit->chainRecordMax[a], fit->chainRecordMax[b]);
                    const double m = privacy::medianRelativeDifference(fit->chainRecordMax[a],
                                                                       fit->chainRecordMax[b]);
                    if (!std::isnan(r)) rank = std::min(rank, r);
                    if (!std::isnan(m)) diff = std::max(diff, m);
                }
            if (!dsOk || rank < 0.90 || diff > 0.05) ++oldAlarms;
        }
        rb.push_back(d.rhatBulk);
        rt.push_back(d.rhatTail);
        eb.push_back(d.essBulk);
        et.push_back(d.essTail);
        if (d.fAgreement) {
            const auto& f = *d.fAgreement;
            fc.push_back(f.rankCorrelation);
            fr.push_back(f.medianRelativeDifference);
            fw.push_back(f.withinMedianRelativeDifference);
            ratio.push_back(f.medianRelativeDifference /
                            std::max(f.withinMedianRelativeDifference, 1e-12));
            rankRatio.push_back((1 - f.rankCorrelation) /
                                std::max(1 - f.withinRankCorrelation, 1e-12));
        }
        const auto [lo, hi] = std::minmax_element(d.deltaPerChain.begin(), d.deltaPerChain.end());
        spread.push_back((*hi - *lo) / *hi);
        llRhat.push_back(std::max(d.loglikRhatBulk, d.loglikRhatTail));
        halfDelta.push_back(std::abs(d.deltaFirstHalf - d.deltaSecondHalf) /
                            std::max(d.deltaFirstHalf, d.deltaSecondHalf));
        if (!d.converged) {
            ++alarms;
            for (const auto& r : d.reasons) ++byReason[r.substr(0, r.find(" ("))];
            if (seeds <= 5) std::printf("  seed %d: %s\n", seed, privacy::verdictLine(d).c_str());
        }
    }
    auto worst = [](std::vector<double> v, bool high) {
        std::sort(v.begin(), v.end());
        if (v.empty()) return std::string("-");
        const double w = high ? v.back() : v.front();
        const double p = quantile(v, high ? 0.95 : 0.05);
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.3f (%s 5%%: %.3f)", w, high ? "top" : "bottom", p);
        return std::string(buf);
    };
    std::printf(
        "%-22s n=%-5zu seeds %3d  %4.1f s/fit  verdict no: %d/%d = %.1f%% (the fixed-limit rule "
        "before: %d/%d)\n",
        c.name.c_str(), model->recordCount(), seeds, seconds / seeds, alarms, seeds,
        100.0 * alarms / seeds, oldAlarms, seeds);
    std::printf("  R-hat bulk worst %s; tail worst %s\n", worst(rb, true).c_str(),
                worst(rt, true).c_str());
    std::printf("  ESS bulk lowest %s; tail lowest %s\n", worst(eb, false).c_str(),
                worst(et, false).c_str());
    std::printf("  f_i rank correlation lowest %s; median rel. diff. highest %s\n",
                worst(fc, false).c_str(), worst(fr, true).c_str());
    std::printf("  f_i median rel. diff. within a chain highest %s\n", worst(fw, true).c_str());
    std::printf("  between / within: median rel. diff. highest %s; 1 - rank corr. highest %s\n",
                worst(ratio, true).c_str(), worst(rankRatio, true).c_str());
    std::printf("  Delta per chain spread (max-min)/max highest %s\n", worst(spread, true).c_str());
    std::printf("  R-hat of the total log-likelihood worst %s\n", worst(llRhat, true).c_str());
    std::printf("  Delta first vs second half of the draws |a-b|/max highest %s\n",
                worst(halfDelta, true).c_str());
    for (std::size_t k = 0; k < qs.size(); ++k) {
        auto v = epsilonByQ[k];
        std::sort(v.begin(), v.end());
        const double median = quantile(v, 0.5);
        double deviation = 0;
        for (double e : v) deviation = std::max(deviation, std::abs(e - median) / median);
        std::printf(
            "  epsilon per dataset, q = %.2f: median %.3f over the seeds, range %.3f-%.3f, "
            "largest deviation from the median %.1f%%\n",
            qs[k], median, v.front(), v.back(), 100 * deviation);
    }
    for (const auto& [r, k] : byReason) std::printf("  %3d x %s\n", k, r.c_str());
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    Settings st;
    std::string only;
    int seeds = 0;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        auto next = [&] { return a + 1 < argc ? std::atoi(argv[++a]) : 0; };
        if (arg == "--draws")
            st.draws = next();
        else if (arg == "--warmup")
            st.warmup = next();
        else if (arg == "--chains")
            st.chains = next();
        else if (arg == "--threads")
            st.threads = next();
        else if (arg == "--every")
            st.every = next();
        else if (only.empty())
            only = arg;
        else
            seeds = std::atoi(arg.c_str());
    }
    const privacy::EpsilonThresholds t;
    std::printf(
        "thresholds: R-hat <= %.2f, ESS >= %.0f per chain, f_i between chains at most %.1f "
        "times within a chain (median relative difference above %.0f%%, rank correlation below "
        "%.2f); %d chains x (%d + %d)\n",
        t.rhat, t.essPerChain, t.fDisagreementRatio, 100 * t.fRelativeDifferenceFloor,
        t.fRankCorrelationFloor, st.chains, st.warmup, st.draws);
    for (const Case& c : cases()) {
        if (only.empty() ? c.family == "normal-mixture" : c.name != only) continue;
        Case chosen = c;
        if (st.every > 0) chosen.every = st.every;
        runCase(chosen, seeds > 0 ? seeds : c.seeds, st);
    }
    return 0;
}
