#include "ppsynth/utility/correlation_difference.hpp"

#include <algorithm>
#include <cmath>

namespace ppsynth::utility {

Expected<Eigen::MatrixXd> pearsonCorrelation(const Eigen::MatrixXd& Y,
                                             const std::vector<std::string>& names) {
    const Eigen::Index n = Y.rows(), q = Y.cols();
    if (n < 2) return Error{"correlation: at least 2 records are needed"};
    if (!Y.allFinite()) return Error{"correlation: a value is not a finite number"};
    const Eigen::MatrixXd centred = Y.rowwise() - Y.colwise().mean();
    Eigen::VectorXd sd = centred.colwise().norm().transpose();
    for (Eigen::Index j = 0; j < q; ++j)
        if (!(sd(j) > 0)) {
            const auto k = static_cast<std::size_t>(j);
            return Error{"correlation: '" + (k < names.size() ? names[k] : std::to_string(k + 1)) +
                         "' is constant, so its correlations are undefined"};
        }
    const Eigen::MatrixXd scaled = centred * sd.cwiseInverse().asDiagonal();
    Eigen::MatrixXd R = scaled.transpose() * scaled;
    R.diagonal().setOnes();
    return R;
}

Expected<CorrelationDifference> correlationDifference(const Eigen::MatrixXd& original,
                                                      const std::vector<Eigen::MatrixXd>& synthetic,
                                                      const std::vector<std::string>& names) {
    const Eigen::Index q = original.cols();
    if (q < 2) return Error{"the correlation difference needs at least 2 sensitive variables"};
    if (static_cast<Eigen::Index>(names.size()) != q)
        return Error{"the correlation difference got " + std::to_string(names.size()) +
                     " names for " + std::to_string(q) + " variables"};
    if (synthetic.empty()) return Error{"the correlation difference needs a synthetic dataset"};
    auto Ro = pearsonCorrelation(original, names);
    if (!Ro) return Ro.error().prefixed("the confidential data: ");
    CorrelationDifference out;
    for (Eigen::Index a = 0; a < q; ++a)
        for (Eigen::Index b = a + 1; b < q; ++b) {
            CorrelationPair p;
            p.a = names[static_cast<std::size_t>(a)];
            p.b = names[static_cast<std::size_t>(b)];
            p.original = (*Ro)(a, b);
            out.pairs.push_back(std::move(p));
        }
    const double m = static_cast<double>(synthetic.size());
    for (std::size_t l = 0; l < synthetic.size(); ++l) {
        if (synthetic[l].cols() != q)
            return Error{"synthetic dataset " + std::to_string(l + 1) + " has " +
                         std::to_string(synthetic[l].cols()) + " sensitive variables, not " +
                         std::to_string(q)};
        auto Rl = pearsonCorrelation(synthetic[l], names);
        if (!Rl) return Rl.error().prefixed("synthetic dataset " + std::to_string(l + 1) + ": ");
        const Eigen::MatrixXd D = *Rl - *Ro;
        const double frob = D.norm();
        out.perDatasetFrobenius.push_back(frob);
        out.frobenius += frob / m;
        std::size_t k = 0;
        for (Eigen::Index a = 0; a < q; ++a)
            for (Eigen::Index b = a + 1; b < q; ++b, ++k) {
                auto& p = out.pairs[k];
                p.perDataset.push_back((*Rl)(a, b));
                p.synthetic += (*Rl)(a, b) / m;
                p.meanAbsDifference += std::abs(D(a, b)) / m;
                out.maxAbs = std::max(out.maxAbs, std::abs(D(a, b)));
            }
    }
    for (auto& p : out.pairs) p.difference = p.synthetic - p.original;
    return out;
}

}  // namespace ppsynth::utility
