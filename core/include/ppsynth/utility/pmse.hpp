// Propensity-score mean squared error (Woo et al. 2009; Snoke et al. 2018), METHOD.md
// section 6. The original and a synthetic sample are stacked with indicator t = 1 for
// synthetic records; a logistic regression of t on the main effects (an intercept, which this
// code adds, plus the given columns) gives propensities p_hat, and
//   pMSE = mean_i (p_hat_i - c)^2,  c = n_syn / N,
//   S_pMSE = pMSE / ((k - 1)(1 - c)^2 c / N),  k = number of model parameters (columns + 1),
// the denominator being the null expectation of pMSE when both samples come from one
// distribution. Columns are centred and scaled on the stacked data before the fit (the
// fitted probabilities do not change, the numerics improve).
//
// A separated or non-converged propensity model is reported in `warning` (a sentence) next
// to the number, which is then the limit of a model that cannot be trusted.
//
// What S_pMSE = 1 means: the denominator is the mean of pMSE when the synthetic records are
// drawn from the original data's own distribution with the original held fixed (e.g. a
// resample of its rows). Two samples drawn independently from one population give
// E[S_pMSE] = 1 / (1 - c) instead. In partial synthesis (c = 1/2, released predictors
// identical in both halves) the predictors' scores vanish and only y's remains, so a correct
// synthesizer gives about 1 / (k - 1) (y* from the original's own fit) to 2 / (k - 1) (y*
// from the true model, or a posterior predictive draw with fresh parameters): compare
// S_pMSE between synthesizers rather than against 1. tst_utility_pmse checks all of these.
#pragma once

#include <Eigen/Core>
#include <span>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/utility/logistic.hpp"

namespace ppsynth::utility {

struct PmseOptions {
    LogisticOptions logistic;
    int threads = 1;  // synthetic datasets in parallel
    // Stage "pmse", done/total in datasets; asked between datasets and within every Newton
    // iteration of each fit, so a Stop is honoured promptly (the result: a "cancelled" error).
    ProgressCallback progress;
    // A propensity model with at least this many columns (intercept and y included) is built
    // and fitted in sparse form: memory and time follow the non-zeros (a categorical of 5000
    // levels adds one per record, not 5000), the result agrees with the dense form to
    // rounding. Narrower models stay dense.
    std::size_t sparseColumns = 128;
};

struct PmseResult {
    double pmse = 0;
    double standardized = 0;  // S_pMSE
    double c = 0;             // n_syn / N
    int k = 0;                // model parameters, intercept included
    std::size_t N = 0;
    int iterations = 0;
    bool converged = false;
    bool separation = false;
    std::string warning;  // empty when the propensity model is trustworthy
};

// Rows are records, columns the variables of the propensity model (predictor design columns
// and y), WITHOUT an intercept column: it is added here, and a constant column is rejected as
// collinear with it. names: one per column, or empty.
Expected<PmseResult> pmse(const Eigen::MatrixXd& original, const Eigen::MatrixXd& synthetic,
                          const std::vector<std::string>& names = {},
                          const LogisticOptions& options = {});

// One dataset from its parts, without stacked copies: the original's predictors (n_o x q,
// no intercept) and y against the synthetic's (n_s x q) and y*; names: q + 1 (y last) or
// empty. Dense or sparse form by options.sparseColumns; options.logistic.progress is asked
// inside the fit (options.threads and options.progress are pmseUtility's).
Expected<PmseResult> pmse(const Eigen::MatrixXd& originalPredictors, std::span<const double> y,
                          const Eigen::MatrixXd& syntheticPredictors,
                          std::span<const double> ySynthetic, const std::vector<std::string>& names,
                          const PmseOptions& options);

struct PmseUtility {
    double pmse = 0;          // averaged over the m datasets
    double standardized = 0;  // S_pMSE averaged over the m datasets
    std::vector<PmseResult> perDataset;
    std::string warning;  // "2 of 20 synthetic datasets: ..." when any dataset was flagged
};

// Partial synthesis: predictors (n x q design columns without intercept, may have 0 columns)
// are shared; dataset l is [predictors, synthetic[l]] against [predictors, y].
// predictorNames: one per predictor column or empty; y is named yName.
Expected<PmseUtility> pmseUtility(const Eigen::MatrixXd& predictors, std::span<const double> y,
                                  const std::vector<std::vector<double>>& synthetic,
                                  const std::vector<std::string>& predictorNames = {},
                                  const std::string& yName = "y", const PmseOptions& options = {});

}  // namespace ppsynth::utility
