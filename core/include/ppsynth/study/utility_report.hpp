// The utility report of one synthesizer (METHOD.md section 6): how well the m released
// synthetic datasets reproduce what the confidential data say. Summary statistics with
// bootstrap intervals and their CI overlap, the regression of y with the combining rules for
// partially synthetic data, ECDF distances, pMSE / S_pMSE, and the model's posterior weighted
// against unweighted. Nothing in the report is record-level: it is safe to show and to write
// to run.json.
//
// A measure that cannot be trusted on the data at hand (a separated propensity model, an
// interval of zero width, fewer than two datasets for the combining rules) leaves its number
// undefined (NaN, null in JSON) or flagged, and says why in `warnings`; it is never silently
// a wrong number.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/study/fit.hpp"
#include "ppsynth/study/utility_options.hpp"
#include "ppsynth/utility/correlation_difference.hpp"
#include "ppsynth/utility/ecdf.hpp"
#include "ppsynth/utility/statistics.hpp"

namespace ppsynth::data {
class Table;
}

namespace ppsynth::study {

struct RunResult;
struct SynthesizerResult;

inline constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

struct EstimateInterval {
    double estimate = kUndefined;
    double lower = kUndefined;
    double upper = kUndefined;
};

// One summary statistic of y, confidential against synthetic.
struct StatisticUtility {
    utility::Statistic statistic;
    std::string name;           // "mean", "median", "quantile 0.15"
    EstimateInterval original;  // sample value, percentile bootstrap interval
    double originalSe = kUndefined;
    EstimateInterval synthetic;  // mean over datasets, interval of the pooled replicates
    double syntheticSe = kUndefined;
    double ciOverlap = kUndefined;   // Karr et al.; NaN when an interval has zero width
    std::vector<double> perDataset;  // the statistic in each synthetic dataset
    // Quantile functions on UtilityReport::grid: of the confidential bootstrap distribution,
    // and the average over datasets of each dataset's (the violin's outline).
    std::vector<double> originalQuantiles;
    std::vector<double> syntheticQuantiles;
};

// One coefficient of the regression of y on the chosen predictors.
struct RegressionTerm {
    std::string term;            // design column name, "(Intercept)", "age_z", "gender[F]"
    EstimateInterval original;   // OLS on the confidential data, t interval
    EstimateInterval synthetic;  // combining rules over the m datasets, t interval
    double ciOverlap = kUndefined;
    double df = kUndefined;    // (m - 1)(1 + ubar / (b / m))^2, infinite when b = 0
    double b = kUndefined;     // between-dataset variance of the estimates
    double ubar = kUndefined;  // mean within-dataset variance
};

struct EcdfReport {
    double Um = kUndefined;  // max |F_o - F_s| averaged over datasets
    double Ua = kUndefined;  // mean (F_o - F_s)^2 averaged over datasets
    std::vector<utility::EcdfDistance> perDataset;
};

// pMSE with a logistic propensity model on main effects of the predictors and y.
struct PmseReport {
    bool computed = false;
    double pmse = kUndefined;   // averaged over datasets
    double sPmse = kUndefined;  // S_pMSE averaged over datasets
    // What S_pMSE is expected to be for a synthesizer that is right, in this setting
    // (see sPmseReference() below): 1 for fully synthetic data, 2 / (k - 1) for partial
    // synthesis from posterior predictive draws. Compare sPmse with this, not with 1.
    double sPmseReference = kUndefined;
    std::string referenceNote;  // the setting the reference assumes, in words
    int k = 0;                  // propensity model parameters, intercept included
    double c = kUndefined;      // n_syn / N
    std::size_t N = 0;          // stacked records per dataset
    std::vector<double> perDatasetPmse;
    std::vector<double> perDatasetSPmse;
    std::vector<std::string> warnings;  // separation / non-convergence
};

// A model parameter's posterior under the synthesizer's weights against the unweighted one;
// widthRatio = weighted 90% interval width / unweighted (> 1: information lost by weighting).
struct ParameterComparison {
    std::string name;
    ParameterSummary weighted;
    ParameterSummary unweighted;
    double widthRatio = kUndefined;
};

// Several sensitive variables (METHOD.md section 9): one sensitive variable regressed on the
// chosen predictors and the other sensitive variables.
struct JointRegression {
    std::string target;                 // the response
    std::vector<RegressionTerm> terms;  // predictors' columns, then the other variables
    double meanOverlap = kUndefined;
    std::string warning;  // why there are no terms (m = 1, a rank-deficient design)
};

// The joint measures of q >= 2 sensitive variables (study/joint_utility.hpp).
struct JointUtility {
    std::vector<std::string> targets;
    PmseReport pmse;  // propensity model on the predictors and every sensitive variable
    std::vector<JointRegression> regressions;  // one per sensitive variable, in order
    bool correlationComputed = false;
    utility::CorrelationDifference correlation;
    std::vector<std::string> warnings;
    double seconds = 0;
};

struct UtilitySeconds {
    double bootstrap = 0, regression = 0, ecdf = 0, pmse = 0, total = 0;
};

struct UtilityReport {
    std::string target;
    std::size_t records = 0;
    std::size_t datasets = 0;     // m
    bool fullySynthetic = false;  // predictors synthesized too (no regression)
    double level = 0.95;
    int bootstrap = 0;                         // B
    std::vector<double> grid;                  // probabilities of the quantile functions
    std::vector<StatisticUtility> statistics;  // mean, median, quantiles
    std::vector<RegressionTerm> regression;    // empty when no regression was asked for
    double regressionMeanOverlap = kUndefined;
    EcdfReport ecdf;
    PmseReport pmse;
    std::vector<ParameterComparison> parameters;  // empty outside runs
    std::vector<std::string> warnings;            // every measure's warnings, in words
    UtilitySeconds seconds;
    // Several sensitive variables: the measures above are the first variable's, `variables`
    // holds every variable's own report (the first included; each with empty `variables`),
    // `joint` the joint measures. Both empty with one sensitive variable.
    std::vector<UtilityReport> variables;
    std::optional<JointUtility> joint;
};

// Everything the report is computed from; y on the released (original) scale, one entry per
// record in the same order everywhere.
struct UtilityInputs {
    std::string target = "y";
    std::vector<double> original;
    std::vector<std::vector<double>> synthetic;  // m datasets
    // Regression design with its intercept column (0 columns: no regression). Partial
    // synthesis releases the predictors unchanged, so one design serves every dataset.
    Eigen::MatrixXd regressionDesign;
    std::vector<std::string> regressionNames;
    // Propensity-model predictors WITHOUT an intercept (y is appended as the last column).
    Eigen::MatrixXd propensityPredictors;
    std::vector<std::string> propensityNames;
    // Fully synthetic data (the predictors synthesized too): dataset l's own propensity
    // predictors, coded like propensityPredictors. Empty for partial synthesis. The
    // regression is then skipped with a warning (METHOD.md's combining rules are the
    // partially synthetic ones) and S_pMSE's reference is Snoke et al.'s 1.
    std::vector<Eigen::MatrixXd> syntheticPropensityPredictors;
    bool fullySynthetic() const { return !syntheticPropensityPredictors.empty(); }
    // How y* was drawn, for pmse.sPmseReference: from posterior predictive draws (a run), or
    // unknown (files from another tool).
    bool posteriorPredictive = true;
    std::vector<ParameterSummary> weightedParameters;
    std::vector<ParameterSummary> unweightedParameters;
    // The confidential data's bootstrap seed, when not the report's own: a run gives every
    // synthesizer the same one, so their confidential intervals (and CI overlaps) differ by
    // the synthetic side only, not by bootstrap noise on the confidential side.
    std::optional<std::uint64_t> originalSeed;
};

// The inputs for one synthesizer of a run: its released datasets, the run's design (the
// regression keeps the columns of options.regress, default all), and its posterior against
// `unweighted` (the run's unweighted fit summaries; empty skips the comparison).
Expected<UtilityInputs> utilityInputs(const RunResult& run, const SynthesizerResult& synthesizer,
                                      const UtilityOptions& options,
                                      const std::vector<ParameterSummary>& unweighted = {});

// From files (the CLI): the original table and m synthetic tables. The regression and the
// propensity model use `predictors` (table columns, coded as in METHOD.md section 1).
// Partial synthesis (the default): the same rows in the same order, the predictors equal in
// every table, otherwise an error says where they differ. fullySynthetic: the predictors are
// synthetic too (any row count; levels must be ones the original has), coded with the
// original's coding.
Expected<UtilityInputs> utilityInputsFromTables(const data::Table& original,
                                                const std::vector<data::Table>& synthetic,
                                                const std::string& target,
                                                const std::vector<std::string>& predictors,
                                                bool fullySynthetic = false);

// E[S_pMSE] for a synthesizer that is right: partial synthesis with c = 1/2 leaves only y's
// score, giving 2 / (k - 1) when y* comes from posterior predictive draws and 1 / (k - 1)
// when it comes from the confidential data's own fitted parameters; see utility/pmse.hpp.
double sPmseReference(int k, bool posteriorPredictive);

// Progress stages "bootstrap", "regression", "ecdf", "pmse"; a Stop answer cancels (error
// "cancelled"). Results depend on the seed only, never on the thread count.
Expected<UtilityReport> computeUtility(const UtilityInputs& inputs, const UtilityOptions& options,
                                       std::uint64_t seed, int threads = 1,
                                       const ProgressCallback& progress = {});

std::vector<ParameterComparison> compareParameters(const std::vector<ParameterSummary>& weighted,
                                                   const std::vector<ParameterSummary>& unweighted);

}  // namespace ppsynth::study
