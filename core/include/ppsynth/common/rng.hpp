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

}  // namespace ppsynth
