// Configurations UI tests run with several sensitive variables (METHOD.md section 9), with short
// chains: tests/data/configs/two_targets.json with a prior and a radius of its own for
// doctor_visits, or any configuration file (shortRunOf).
#pragma once

#include <QtGlobal>

#include "ppsynth/study/run_config.hpp"

namespace ppsynth::testing {

// The configuration at `path` with chains, datasets and bootstrap short enough for a test.
inline study::RunConfig shortRunOf(const char* path) {
    auto c = study::loadRunConfig(path);
    if (!c) qFatal("%s", c.message().c_str());
    c->mcmc.warmup = 60;
    c->mcmc.draws = 60;
    c->synthesis.m = 2;
    c->risk.L = 2;
    c->utility.bootstrap = 20;
    return *c;
}

inline study::RunConfig twoTargets() {
    auto c = shortRunOf(PPSYNTH_TEST_DATA_DIR "/configs/two_targets.json");
    c.models["doctor_visits"].priors["tau_scale"] = 2.5;
    c.risk.radii["doctor_visits"] = 0.5;
    return c;
}

}  // namespace ppsynth::testing
