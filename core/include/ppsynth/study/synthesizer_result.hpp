// One synthesizer's results in three parts:
//   PublicResult   what may be shown and released: summaries, the scheme's own details (a
//                  variant), the m synthetic datasets and the parameter draws;
//   RecordLevel    the confidential record-level vectors (weights, bounds, risks, record
//                  indices), which never leave the run folder's confidential/ files;
//   SynthesizerResult = both, what a run computes and a run folder reloads.
// The release path (release/, the CLI's release command, the GUI's export) takes a
// PublicResult (through PublicRun), so it cannot reach a record-level vector by type: a change
// that tried to put alpha into a bundle would not compile (see the static_assert in
// release/from_run.hpp).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ppsynth/mcmc/diagnostics.hpp"
#include "ppsynth/privacy/calibration.hpp"
#include "ppsynth/privacy/epsilon_diagnostics.hpp"
#include "ppsynth/privacy/identification_risk.hpp"
#include "ppsynth/privacy/weights.hpp"
#include "ppsynth/study/fit.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ppsynth/study/utility_report.hpp"

namespace ppsynth::study {

// Wall time of each stage of one synthesizer, in seconds. `fits` covers this synthesizer's
// own model fits only (for Unweighted the shared unweighted fit); `weights` the rest of the
// weight computation (IR for the IR-based schemes, the search of scalar and reweight between
// their refits); `synthesis` and `risk` the m (or L) datasets and their identification risk.
struct StageSeconds {
    double fits = 0, weights = 0, synthesis = 0, risk = 0, utility = 0;
};

// What only some schemes have. Unweighted, Lipschitz (LW, LW-M), Marginal (CW) and Sigmoid
// have nothing beyond the common part.
struct NoSchemeDetails {};
struct PairwiseDetails {
    std::size_t singletons = 0;  // records alone in their pattern
};
struct ScalarDetails {  // EM: a searched to match an epsilon
    double a = 0;
    bool noiseLimited = false;  // the search stopped at the refits' noise
    double noise = 0;           // that noise: the refits' mean chain spread (relative)
    bool converged = false;     // a refit came within the tolerance of the target
    std::vector<privacy::ScalarTry> tries;
};
struct ReweightDetails {  // LW_final: the base's weights raised towards 1 by k
    double k = 0;
    std::vector<privacy::ReweightTry> tries;
};
struct ScaledDetails {  // a vector scheme's weights times a (METHOD.md 3.10)
    Scheme of = Scheme::Lipschitz;
    double a = 0;
    std::optional<double> target;  // the target epsilon a was solved for; none when given
    bool converged = false;        // a refit came within the tolerance of the target
    bool noiseLimited = false;     // the search stopped at the refits' noise
    double noise = 0;              // that noise: the refits' mean chain spread (relative)
    // False when the vector scheme's own epsilon (a = 1) is already below the target: no
    // a in (0, 1] reaches it, and a = 1 is reported with the epsilon it has.
    bool reachable = true;
    std::vector<privacy::ScalarTry> tries;  // every refit, a = 1 (the vector scheme) first
};
struct TopCodeVariable {  // one sensitive variable of a top-coded release
    std::string name;
    double threshold = 0;  // its own q-quantile (original scale)
    std::size_t capped = 0;
};
struct TopCodeDetails {  // the top-coding comparator (METHOD.md 3.9): no formal guarantee
    double q = 0.975;
    double threshold = 0;    // t, the q-quantile of y (original scale)
    std::size_t capped = 0;  // records whose y was above t
    // Several sensitive variables: each capped at its own q-quantile (the same q), in order;
    // threshold and capped above are the first one's. Empty with one sensitive variable.
    std::vector<TopCodeVariable> variables;
};
using SchemeDetails = std::variant<NoSchemeDetails, PairwiseDetails, ScalarDetails, ReweightDetails,
                                   ScaledDetails, TopCodeDetails>;

// The details a scheme's result holds (default values).
SchemeDetails detailsFor(Scheme scheme);

// Safe to show and to release: nothing in it is indexed by record.
struct PublicResult {
    std::string name;
    Scheme scheme = Scheme::Unweighted;
    double deltaX = 0;       // unweighted bound Delta_x
    double deltaAlphaX = 0;  // Delta_{alpha,x}
    std::string deltaMethod;
    privacy::EpsilonAccount epsilon;
    privacy::GlobalEpsilon global;
    privacy::WeightSummary weights;
    privacy::RiskSummary irSummary;  // its `top` is empty: the records are RecordLevel::irTop
    std::size_t excludedDraws = 0;
    mcmc::RunDiagnostics diagnostics;
    privacy::EpsilonDiagnostics epsilonDiagnostics;  // "epsilon converged: yes / no (why)"
    std::vector<ParameterSummary> parameters;
    double seconds = 0;  // this synthesizer's own fits (= stageSeconds.fits)
    StageSeconds stageSeconds;
    int fits = 0;
    SchemeDetails details;  // detailsFor(scheme)
    // Released: m synthetic datasets of y on the original scale, record order.
    std::vector<std::vector<double>> synthetic;
    Eigen::MatrixXd draws;  // constrained parameter draws (columns: RunResult::parameterNames)
    // METHOD.md section 6, when the configuration's utility block is enabled; a failure of
    // the utility measures does not lose the run: utilityError says what went wrong.
    std::optional<UtilityReport> utility;
    std::string utilityError;

    // The scheme's details, or null for another scheme's: scalar()->a, reweight()->k.
    const PairwiseDetails* pairwise() const { return std::get_if<PairwiseDetails>(&details); }
    const ScalarDetails* scalar() const { return std::get_if<ScalarDetails>(&details); }
    const ReweightDetails* reweight() const { return std::get_if<ReweightDetails>(&details); }
    const ScaledDetails* scaled() const { return std::get_if<ScaledDetails>(&details); }
    const TopCodeDetails* topCode() const { return std::get_if<TopCodeDetails>(&details); }
    // False for the top-coding comparator: it has no epsilon (NaN in `epsilon`, null in
    // run.json), and every place that shows epsilon says "no formal guarantee" instead.
    bool formalGuarantee() const { return scheme != Scheme::TopCode; }
};

// Record-level and confidential: never part of a release. Vectors in record order (the
// input's kept rows).
struct RecordLevel {
    Eigen::VectorXd alpha;                // weights
    Eigen::VectorXd recordDelta;          // Delta_{alpha,x_i}
    std::vector<double> ir;               // marginal identification risk over L datasets
    std::vector<double> pairwiseWeight;   // at_i, pairwise scheme only
    std::vector<std::size_t> irTop;       // the highest risks' records, highest first
    std::vector<std::size_t> whackAMole;  // records whose risk rose vs the unweighted fit
};

struct SynthesizerResult : PublicResult {
    RecordLevel records;
};

}  // namespace ppsynth::study
