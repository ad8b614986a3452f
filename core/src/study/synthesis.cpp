#include "ppsynth/study/synthesis.hpp"

#include <atomic>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>
#include <string>

#include "ppsynth/common/parallel.hpp"
#include "ppsynth/common/rng.hpp"

namespace ppsynth::study {

Expected<std::vector<std::size_t>> chooseDraws(const std::vector<std::size_t>& retained, int count,
                                               std::uint64_t seed) {
    if (count < 1) return Error{"the number of synthetic datasets must be at least 1"};
    if (static_cast<std::size_t>(count) > retained.size())
        return Error{
            "cannot make " + std::to_string(count) + " synthetic datasets from " +
            std::to_string(retained.size()) +
            " retained draws: each dataset needs its own draw; sample more draws or lower m/L"};
    // Partial Fisher-Yates: the first `count` entries are a uniform sample without replacement.
    std::vector<std::size_t> pool = retained;
    auto rng = makeRng(seed, 0, Purpose::DrawSelection);
    for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i) {
        boost::random::uniform_int_distribution<std::size_t> pick(i, pool.size() - 1);
        std::swap(pool[i], pool[pick(rng)]);
    }
    pool.resize(static_cast<std::size_t>(count));
    return pool;
}

Expected<std::vector<std::vector<double>>> synthesize(const models::Model& model,
                                                      const Eigen::MatrixXd& draws,
                                                      const std::vector<std::size_t>& chosen,
                                                      const SynthesisOptions& options) {
    const auto n = static_cast<Eigen::Index>(model.recordCount());
    for (auto s : chosen)
        if (s >= static_cast<std::size_t>(draws.rows()))
            return Error{"draw " + std::to_string(s) + " does not exist (there are " +
                         std::to_string(draws.rows()) + ")"};
    std::vector<std::vector<double>> out(chosen.size(),
                                         std::vector<double>(static_cast<std::size_t>(n)));
    std::atomic<std::size_t> finished{0};
    std::atomic<bool> cancelled{false};
    parallelFor(chosen.size(), options.threads, [&](std::size_t l) {
        auto rng = makeRng(options.seed, l, Purpose::Synthesis);
        Eigen::VectorXd q = draws.row(static_cast<Eigen::Index>(chosen[l])).transpose();
        Eigen::VectorXd y(n);
        model.predict(q, rng, y);
        auto& dest = out[l];
        for (Eigen::Index i = 0; i < n; ++i) {
            double v = options.backTransform ? options.backTransform(y[i]) : y[i];
            if (options.integer) v = std::round(v);
            dest[static_cast<std::size_t>(i)] = v;
        }
        const double done = static_cast<double>(++finished);
        if (report(options.progress, {"synthesis", 0, done, static_cast<double>(chosen.size())}) ==
            Continue::Stop) {
            cancelled = true;
            return false;
        }
        return true;
    });
    if (cancelled) return Error::cancelled("synthesis cancelled");
    // An infinite or undefined value must never reach a released file (a back-transform such as
    // exp overflows for draws far out on the model's scale).
    for (std::size_t l = 0; l < out.size(); ++l)
        for (std::size_t i = 0; i < out[l].size(); ++i)
            if (!std::isfinite(out[l][i]))
                return Error{"synthetic dataset " + std::to_string(l + 1) + ", modelled record " +
                             std::to_string(i + 1) + ": the synthetic value is " +
                             (std::isnan(out[l][i]) ? "not a number" : "infinite") +
                             " after the back-transform, so nothing can be released; the values "
                             "are too large for the model's scale: rescale the column (divide it "
                             "by a power of ten) or choose the asinh transform"};
    return out;
}

}  // namespace ppsynth::study
