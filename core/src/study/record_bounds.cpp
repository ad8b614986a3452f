#include "ppsynth/study/record_bounds.hpp"

#include <algorithm>

#include "ppsynth/common/parallel.hpp"
#include "ppsynth/privacy/lipschitz.hpp"

namespace ppsynth::study {

ChainRecordBounds chainRecordBounds(
    const models::Model& model, const std::vector<Eigen::Ref<const Eigen::MatrixXd>>& chainDraws,
    const std::vector<std::size_t>& kept, const Eigen::VectorXd& alpha, int threads) {
    const auto n = static_cast<Eigen::Index>(model.recordCount());
    const std::size_t chains = chainDraws.size();
    const auto S = chains ? static_cast<std::size_t>(chainDraws.front().rows()) : 0;
    ChainRecordBounds out;
    out.overall = Eigen::VectorXd::Zero(n);
    if (chains == 0 || S == 0) return out;
    // Each part keeps its own maxima (chain x half), merged afterwards: the result does not
    // depend on the number of threads.
    const std::size_t parts = static_cast<std::size_t>(std::max(1, threads));
    std::vector<std::vector<Eigen::VectorXd>> partMax(
        parts, std::vector<Eigen::VectorXd>(2 * chains, Eigen::VectorXd::Zero(n)));
    parallelFor(parts, threads, [&](std::size_t part) {
        Eigen::VectorXd l(n);
        auto& mx = partMax[part];
        for (std::size_t k = part; k < kept.size(); k += parts) {
            const std::size_t c = std::min(kept[k] / S, chains - 1);
            const std::size_t s = kept[k] - c * S;
            model.recordLogLik(chainDraws[c].row(static_cast<Eigen::Index>(s)).transpose(), l);
            auto& m = mx[2 * c + (s < S / 2 ? 0 : 1)];
            for (Eigen::Index i = 0; i < n; ++i)
                m[i] = std::max(m[i], privacy::weightedAbsLogLik(alpha[i], l[i]));
        }
        return true;
    });
    out.halves.resize(chains);
    for (std::size_t c = 0; c < chains; ++c) {
        auto& h = out.halves[c];
        h.first = partMax.front()[2 * c];
        h.second = partMax.front()[2 * c + 1];
        for (std::size_t p = 1; p < parts; ++p) {
            h.first = h.first.cwiseMax(partMax[p][2 * c]);
            h.second = h.second.cwiseMax(partMax[p][2 * c + 1]);
        }
    }
    for (auto d : kept) {
        const std::size_t c = std::min(d / S, chains - 1);
        ++(d - c * S < S / 2 ? out.halves[c].firstDraws : out.halves[c].secondDraws);
    }
    for (const auto& h : out.halves) {
        out.perChain.push_back(h.first.cwiseMax(h.second));
        out.overall = out.overall.cwiseMax(out.perChain.back());
    }
    return out;
}

ChainRecordBounds chainRecordBounds(const models::Model& model, const Eigen::MatrixXd& draws,
                                    std::size_t chains, const std::vector<std::size_t>& kept,
                                    const Eigen::VectorXd& alpha, int threads) {
    chains = std::max<std::size_t>(1, chains);
    const Eigen::Index S = draws.rows() / static_cast<Eigen::Index>(chains);
    std::vector<Eigen::Ref<const Eigen::MatrixXd>> each;
    each.reserve(chains);
    for (std::size_t c = 0; c < chains; ++c)
        each.emplace_back(draws.middleRows(static_cast<Eigen::Index>(c) * S, S));
    return chainRecordBounds(model, each, kept, alpha, threads);
}

}  // namespace ppsynth::study
