// The correlation-matrix difference of several sensitive variables (METHOD.md section 9):
// the q variables' Pearson correlation matrix on the confidential data, R_o, against the one
// of each synthetic dataset, R_l. Reported per pair (a, b) and as the Frobenius norm
// || R_l - R_o ||_F over the whole q x q matrix (every pair counted twice, the diagonal is 0),
// averaged over the m datasets like the ECDF distances.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::utility {

// One pair (a, b), a before b in the given order.
struct CorrelationPair {
    std::string a, b;
    double original = 0;             // Pearson r on the confidential data
    double synthetic = 0;            // mean over the m datasets of r_l
    double difference = 0;           // synthetic - original
    double meanAbsDifference = 0;    // mean over datasets of |r_l - r_o|
    std::vector<double> perDataset;  // r_l
};

struct CorrelationDifference {
    std::vector<CorrelationPair> pairs;  // (1,2), (1,3), ..., (2,3), ...: q (q - 1) / 2
    double frobenius = 0;                // mean over datasets of || R_l - R_o ||_F
    std::vector<double> perDatasetFrobenius;
    double maxAbs = 0;  // largest |r_l - r_o| over pairs and datasets
};

// Pearson correlation matrix of the columns of Y (rows: records). A constant column is an
// error naming it (its correlations are undefined).
Expected<Eigen::MatrixXd> pearsonCorrelation(const Eigen::MatrixXd& Y,
                                             const std::vector<std::string>& names);

// original: n x q; synthetic: m matrices with q columns (any row count); names: q.
// Needs q >= 2 and m >= 1.
Expected<CorrelationDifference> correlationDifference(const Eigen::MatrixXd& original,
                                                      const std::vector<Eigen::MatrixXd>& synthetic,
                                                      const std::vector<std::string>& names);

}  // namespace ppsynth::utility
