// The configuration UI tests use for a run with two sensitive variables (METHOD.md section 9):
// tests/data/configs/two_targets.json with short chains, a prior and a radius of its own for
// doctor_visits.
#pragma once

#include <QtGlobal>

#include "ppsynth/study/run_config.hpp"

namespace ppsynth::testing {

inline study::RunConfig twoTargets() {
    auto c = study::loadRunConfig(PPSYNTH_TEST_DATA_DIR "/configs/two_targets.json");
    if (!c) qFatal("%s", c.message().c_str());
    c->mcmc.warmup = 60;
    c->mcmc.draws = 60;
    c->synthesis.m = 2;
    c->risk.L = 2;
    c->utility.bootstrap = 20;
    c->models["doctor_visits"].priors["tau_scale"] = 2.5;
    c->risk.radii["doctor_visits"] = 0.5;
    return *c;
}

}  // namespace ppsynth::testing
