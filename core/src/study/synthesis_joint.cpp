// synthesizeAny: sequential synthesis of several sensitive variables from one joint draw.
#include <atomic>
#include <cmath>
#include <string>

#include "ppsynth/common/parallel.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/study/joint_model.hpp"

namespace ppsynth::study {

Expected<std::vector<std::vector<double>>> synthesizeAny(const models::Model& model,
                                                         const Eigen::MatrixXd& draws,
                                                         const std::vector<std::size_t>& chosen,
                                                         const SynthesisOptions& options) {
    const auto* joint = dynamic_cast<const JointModel*>(&model);
    if (!joint) return synthesize(model, draws, chosen, options);
    const auto& parts = joint->parts();
    const auto n = static_cast<Eigen::Index>(joint->recordCount());
    const std::size_t q = parts.size();
    for (auto s : chosen)
        if (s >= static_cast<std::size_t>(draws.rows()))
            return Error{"draw " + std::to_string(s) + " does not exist (there are " +
                         std::to_string(draws.rows()) + ")"};
    std::vector<std::vector<double>> out(chosen.size(),
                                         std::vector<double>(q * static_cast<std::size_t>(n)));
    std::vector<std::string> errors(chosen.size());
    std::atomic<std::size_t> finished{0};
    std::atomic<bool> cancelled{false};
    parallelFor(chosen.size(), options.threads, [&](std::size_t l) {
        // One stream per dataset, drawn from variable after variable (for q = 1 this is
        // synthesize's stream and order).
        auto rng = makeRng(options.seed, l, Purpose::Synthesis);
        const Eigen::VectorXd q_ = draws.row(static_cast<Eigen::Index>(chosen[l])).transpose();
        std::vector<Eigen::VectorXd> earlier;  // synthetic values on the transformed scale
        for (std::size_t k = 0; k < q; ++k) {
            Eigen::VectorXd z(n);
            if (k == 0) {
                parts[k].model->predict(joint->segment(q_, k), rng, z);
            } else {
                // The conditional with the earlier synthetic values as its predictors.
                auto m = models::makeModel(parts[k].spec, joint->designFor(k, earlier), parts[k].y,
                                           joint->designNames(k));
                if (!m) {
                    errors[l] = m.message();
                    return false;
                }
                (*m)->predict(joint->segment(q_, k), rng, z);
            }
            auto* dest = out[l].data() + k * static_cast<std::size_t>(n);
            for (Eigen::Index i = 0; i < n; ++i) {
                double v = parts[k].transform.inverse(z[i]);
                if (parts[k].counts) v = std::round(v);
                dest[i] = v;
            }
            // Counts: the whole numbers released are the values later variables see.
            if (parts[k].counts)
                for (Eigen::Index i = 0; i < n; ++i) z[i] = dest[i];
            earlier.push_back(std::move(z));
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
    for (const auto& e : errors)
        if (!e.empty()) return Error{"synthesis: " + e};
    for (std::size_t l = 0; l < out.size(); ++l)
        for (std::size_t j = 0; j < out[l].size(); ++j)
            if (!std::isfinite(out[l][j])) {
                const std::size_t k = j / static_cast<std::size_t>(n),
                                  i = j % static_cast<std::size_t>(n);
                return Error{"synthetic dataset " + std::to_string(l + 1) + ", variable '" +
                             parts[k].target + "', modelled record " + std::to_string(i + 1) +
                             ": the synthetic value is not finite after the back-transform, so "
                             "nothing can be released; rescale the column (divide it by a power "
                             "of ten) or choose the asinh transform"};
            }
    return out;
}

}  // namespace ppsynth::study
