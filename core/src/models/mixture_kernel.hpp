// The record loop of the normal mixture's log posterior (NormalMixture::logPosterior) for a
// sparse design, written for AVX2 + FMA and chosen at run time: the build targets baseline
// x86-64 (SSE2), where the K exps per record were half the gradient's time. Private to
// core/src/models.
#pragma once

#include <Eigen/Core>

namespace ppsynth::models::detail {

class Design;

// Components are padded to a multiple of 4 (the AVX2 width): padded components have mean 0
// (zero rows of B), 1/sigma 0 and log weight -inf, so they add exact zeros.
struct MixtureKernelInput {
    const Design* X = nullptr;  // sparse (the portable path also takes a dense one)
    const double* y = nullptr;
    const double* alpha = nullptr;
    const double* B = nullptr;     // Kp x p, column-major: beta' padded
    const double* invS = nullptr;  // Kp
    const double* c = nullptr;     // Kp: log pi_k - log sigma_k - log sqrt(2 pi)
    Eigen::Index Kp = 0;
};

// Largest padded K the kernel takes.
inline constexpr Eigen::Index kMixtureKernelMaxK = 32;

// True when the CPU has AVX2 and FMA, the build can target them, and the environment
// variable PPSYNTH_NO_AVX2 is unset (it selects the portable path, e.g. to test it).
bool mixtureKernelAvailable();

// Returns sum_i alpha_i l_i (l_i = log sum_k exp(lp_ki)) and adds resp_k = sum_i R_ki to rs,
// zz_k = sum_i R_ki Z_ki^2 to zs (Kp each) and sum_i (R_ki Z_ki / sigma_k) x_i' to G
// (Kp x p, column-major), where R_ki = alpha_i exp(lp_ki - l_i). Call only when
// mixtureKernelAvailable() and in.Kp is a multiple of 4 up to kMixtureKernelMaxK.
double mixtureKernel(const MixtureKernelInput& in, double* rs, double* zs, double* G);

}  // namespace ppsynth::models::detail
