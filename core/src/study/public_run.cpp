#include "ppsynth/study/public_run.hpp"

namespace ppsynth::study {

PublicRun::PublicRun(const RunResult& run)
    : config_(&run.config),
      keptRows_(&run.inputs.keptRows),
      leakGuardTarget_(&run.inputs.yOriginal) {
    for (const PublicResult& r : run.synthesizers) synthesizers_.push_back(&r);
}

const PublicResult* PublicRun::find(const std::string& name) const {
    for (const auto* r : synthesizers_)
        if (r->name == name) return r;
    return nullptr;
}

}  // namespace ppsynth::study
