// The revision of ppsynth's numerical engine: the models, samplers, weights, synthesis and
// utility measures that turn a configuration, a seed and the data into results.
#pragma once

namespace ppsynth {

// Bump when a change alters draws (or any other result) for the same configuration, seed
// and data: a different random stream, sampler step, default, or formula. Resumable study
// folders record it, so items computed by an older engine are never mixed with new ones;
// a refactoring that leaves results bit-identical keeps it.
inline constexpr int kEngineRevision = 2;  // 2: one confidential bootstrap per run

}  // namespace ppsynth
