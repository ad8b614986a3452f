#include "ppsynth/study/synthesizer_result.hpp"

namespace ppsynth::study {

SchemeDetails detailsFor(Scheme scheme) {
    switch (scheme) {
        case Scheme::Pairwise:
            return PairwiseDetails{};
        case Scheme::Scalar:
            return ScalarDetails{};
        case Scheme::Reweight:
            return ReweightDetails{};
        case Scheme::Scaled:
            return ScaledDetails{};
        case Scheme::TopCode:
            return TopCodeDetails{};
        case Scheme::Unweighted:
        case Scheme::Lipschitz:
        case Scheme::Marginal:
        case Scheme::Sigmoid:
            break;
    }
    return NoSchemeDetails{};
}

}  // namespace ppsynth::study
