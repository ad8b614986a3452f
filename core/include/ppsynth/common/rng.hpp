// Every random stream is derived from (seed, stream, purpose), so a result never depends
// on which thread ran which chain or on the thread count.
#pragma once

#include <boost/random/mersenne_twister.hpp>
#include <cstdint>
#include <string_view>

namespace ppsynth {

using Rng = boost::random::mt19937_64;

// What a stream is for; new purposes go at the end so old seeds keep their meaning.
enum class Purpose : std::uint64_t {
    Example = 1,
    Init,
    Sampler,
    Synthesis,
    DrawSelection,
    Bootstrap,
    Simulation,
    Test,
    PosteriorSummary,  // predictive draws behind label-invariant summaries (mixture)
};

// SplitMix64 finaliser: a bijective mixer with good avalanche, used to decorrelate seeds.
constexpr std::uint64_t mix64(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

constexpr std::uint64_t streamSeed(std::uint64_t seed, std::uint64_t stream, Purpose purpose) {
    return mix64(mix64(mix64(seed) ^ stream) ^ static_cast<std::uint64_t>(purpose));
}

inline Rng makeRng(std::uint64_t seed, std::uint64_t stream, Purpose purpose) {
    return Rng(streamSeed(seed, stream, purpose));
}

// Seeds derived from the user's seed, one function per use, so every place that needs one
// derives it alike and the same seed keeps giving the same bytes. Changing any of them
// changes the results of every run, sweep and simulation made with that seed.

// A seed for one named thing (a synthesizer, the confidential data): FNV-1a of the name
// mixed into the seed, so renaming or reordering other synthesizers changes nothing.
constexpr std::uint64_t namedSeed(std::uint64_t seed, std::string_view name) {
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
    return mix64(seed ^ h);
}

// A synthesizer's choice of posterior draws for its datasets, and the datasets themselves.
constexpr std::uint64_t drawChoiceSeed(std::uint64_t seed, std::string_view name) {
    return namedSeed(seed, name);
}
constexpr std::uint64_t synthesisSeed(std::uint64_t seed, std::string_view name) {
    return namedSeed(seed, name) ^ 0x5eed;
}

// The utility measures' bootstrap of a synthesizer's datasets (named by the synthesizer), or
// of the confidential data (named "confidential data").
constexpr std::uint64_t utilitySeed(std::uint64_t seed, std::string_view name) {
    return namedSeed(seed, name) ^ 0x0717;
}

// Replicate database r of size n in the simulation: its own seed per purpose, independent of
// blocks and threads.
constexpr std::uint64_t replicateSeed(std::uint64_t seed, std::uint64_t n, std::uint64_t r,
                                      Purpose purpose) {
    return streamSeed(streamSeed(seed, n, purpose), r, purpose);
}

// The refit number `refit` (1, 2, ...) on the data of a fit seeded with `fitSeed`.
constexpr std::uint64_t refitSeed(std::uint64_t fitSeed, std::uint64_t refit) {
    return mix64(fitSeed ^ refit);
}

}  // namespace ppsynth
