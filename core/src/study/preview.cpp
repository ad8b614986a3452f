#include "ppsynth/study/preview.hpp"

#include <span>

namespace ppsynth::study {

WeightPreview previewLipschitzWeights(const Eigen::VectorXd& f, double c, double g,
                                      std::optional<double> M, std::size_t bins) {
    WeightPreview p;
    p.alpha = privacy::lipschitzWeights(f, c, g);
    if (M) p.alpha = privacy::truncateAtM(std::move(p.alpha), f, *M);
    const std::span<const double> a(p.alpha.data(), static_cast<std::size_t>(p.alpha.size()));
    p.weights = utility::histogram(a, bins, 0.0, 1.0);
    p.summary = privacy::summarizeWeights(p.alpha);
    if (f.size() > 0) {
        p.predictedBound = p.alpha.cwiseProduct(f).maxCoeff();
        p.unweightedBound = f.maxCoeff();
    }
    return p;
}

}  // namespace ppsynth::study
