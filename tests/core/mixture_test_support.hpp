// Shared by the mixture sampler tests (tst_mixture_moves, tst_mixture_gibbs): building a
// normal mixture through the factory, and the Monte Carlo mean of a chain's series with its
// batch-means standard error.
#pragma once

#include <QtGlobal>
#include <cmath>
#include <memory>
#include <vector>

#include "ppsynth/models/factory.hpp"

namespace ppsynth::testing {

inline std::unique_ptr<models::Model> mixture(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                              int K, const models::Priors& priors) {
    models::ModelSpec spec;
    spec.family = "normal-mixture";
    spec.components = K;
    spec.priors = priors;
    auto m = models::makeModel(spec, X, y);
    if (!m) qFatal("makeModel failed: %s", m.message().c_str());
    return std::move(m.value());
}

// Mean and Monte Carlo standard error (batch means over 50 batches) of a series.
struct McEstimate {
    double mean = 0.0;
    double se = 0.0;
};
inline McEstimate batchMeans(const std::vector<double>& x) {
    const std::size_t batches = 50, size = x.size() / batches;
    std::vector<double> means(batches, 0.0);
    for (std::size_t b = 0; b < batches; ++b) {
        for (std::size_t i = 0; i < size; ++i) means[b] += x[b * size + i];
        means[b] /= static_cast<double>(size);
    }
    McEstimate e;
    for (const double m : means) e.mean += m / batches;
    double ss = 0.0;
    for (const double m : means) ss += (m - e.mean) * (m - e.mean);
    e.se = std::sqrt(ss / (batches - 1.0) / batches);
    return e;
}

}  // namespace ppsynth::testing
