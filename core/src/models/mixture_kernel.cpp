#include "models/mixture_kernel.hpp"

#include <cassert>
#include <cmath>
#include <cstdlib>

#include "models/design.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PPSYNTH_MIXTURE_AVX2 1
#include <immintrin.h>
#endif

namespace ppsynth::models::detail {

#ifdef PPSYNTH_MIXTURE_AVX2

namespace {

// Only the functions marked so are compiled for AVX2 (not the whole file: inline code shared
// with the rest of the build, such as Eigen's, could then be linked from here and run on
// CPUs without it). They call only intrinsics and std::log.
#define PPSYNTH_AVX2 __attribute__((target("avx2,fma")))

PPSYNTH_AVX2 inline __m256d pair(__m256d r, double hi, double lo) {
    return _mm256_fmadd_pd(r, _mm256_set1_pd(hi), _mm256_set1_pd(lo));
}

// 2^k for integral k in [-1022, 1023].
PPSYNTH_AVX2 inline __m256d pow2(__m256d k) {
    const __m256i e =
        _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_cvtpd_epi32(k)), _mm256_set1_epi64x(1023));
    return _mm256_castsi256_pd(_mm256_slli_epi64(e, 52));
}

// exp of 4 doubles: x = n log 2 + r with |r| <= log(2) / 2, the degree-13 Taylor polynomial
// of exp(r) (truncation error below 1e-17 relative) by Estrin's scheme, times 2^n as two
// normal factors so that results in the subnormal range round once. Within about 1 ulp of
// std::exp; exp(-inf) = 0 and NaN stays NaN.
PPSYNTH_AVX2 inline __m256d exp4(__m256d x) {
    // max/min return their second operand when either is NaN, so NaN passes through.
    x = _mm256_min_pd(_mm256_set1_pd(709.78), _mm256_max_pd(_mm256_set1_pd(-746.0), x));
    const __m256d n = _mm256_round_pd(_mm256_mul_pd(x, _mm256_set1_pd(1.4426950408889634)),
                                      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    // log 2 = C1 + C2, C1 with few significant bits (n C1 exact).
    __m256d r = _mm256_fnmadd_pd(n, _mm256_set1_pd(0.693145751953125), x);
    r = _mm256_fnmadd_pd(n, _mm256_set1_pd(1.42860682030941723212e-6), r);
    const __m256d r2 = _mm256_mul_pd(r, r);
    const __m256d r4 = _mm256_mul_pd(r2, r2);
    const __m256d r8 = _mm256_mul_pd(r4, r4);
    const __m256d p03 = _mm256_fmadd_pd(r2, pair(r, 1.0 / 6, 1.0 / 2), pair(r, 1.0, 1.0));
    const __m256d p47 =
        _mm256_fmadd_pd(r2, pair(r, 1.0 / 5040, 1.0 / 720), pair(r, 1.0 / 120, 1.0 / 24));
    const __m256d p811 = _mm256_fmadd_pd(r2, pair(r, 1.0 / 39916800, 1.0 / 3628800),
                                         pair(r, 1.0 / 362880, 1.0 / 40320));
    const __m256d p813 = _mm256_fmadd_pd(r4, pair(r, 1.0 / 6227020800, 1.0 / 479001600), p811);
    const __m256d p = _mm256_fmadd_pd(r8, p813, _mm256_fmadd_pd(r4, p47, p03));
    const __m256d n1 = _mm256_round_pd(_mm256_mul_pd(n, _mm256_set1_pd(0.5)),
                                       _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    return _mm256_mul_pd(_mm256_mul_pd(p, pow2(n1)), pow2(_mm256_sub_pd(n, n1)));
}

PPSYNTH_AVX2 inline double horizontalMax(__m256d v) {
    __m128d m = _mm_max_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_max_pd(m, _mm_unpackhi_pd(m, m)));
}

PPSYNTH_AVX2 inline double horizontalSum(__m256d v) {
    __m128d s = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_pd(s, _mm_unpackhi_pd(s, s)));
}

// NC groups of 4 components, held in registers through a record.
template <int NC>
PPSYNTH_AVX2 double kernel(const MixtureKernelInput& in, double* rs, double* zs, double* G) {
    constexpr int KP = 4 * NC;
    const int* start = in.X->rowStart();
    const int* column = in.X->columnIndex();
    const double* value = in.X->value();
    __m256d is[NC], c[NC], sumR[NC], sumRZZ[NC];
    for (int k = 0; k < NC; ++k) {
        is[k] = _mm256_loadu_pd(in.invS + 4 * k);
        c[k] = _mm256_loadu_pd(in.c + 4 * k);
        sumR[k] = _mm256_setzero_pd();
        sumRZZ[k] = _mm256_setzero_pd();
    }
    double ll = 0.0;
    const Eigen::Index n = in.X->rows();
    for (Eigen::Index i = 0; i < n; ++i) {
        // Means x_i' beta_k.
        __m256d mu[NC];
        for (int k = 0; k < NC; ++k) mu[k] = _mm256_setzero_pd();
        for (int e = start[i]; e < start[i + 1]; ++e) {
            const __m256d v = _mm256_set1_pd(value[e]);
            const double* b = in.B + static_cast<Eigen::Index>(column[e]) * KP;
            for (int k = 0; k < NC; ++k)
                mu[k] = _mm256_fmadd_pd(v, _mm256_loadu_pd(b + 4 * k), mu[k]);
        }
        // Z = (y - mean) / sigma, lp = c - Z^2 / 2, l_i = m + log sum_k exp(lp_k - m).
        const __m256d yi = _mm256_set1_pd(in.y[i]);
        __m256d z[NC], lp[NC];
        __m256d mx = _mm256_set1_pd(-HUGE_VAL);
        for (int k = 0; k < NC; ++k) {
            z[k] = _mm256_mul_pd(_mm256_sub_pd(yi, mu[k]), is[k]);
            lp[k] = _mm256_fnmadd_pd(_mm256_mul_pd(_mm256_set1_pd(0.5), z[k]), z[k], c[k]);
            mx = _mm256_max_pd(lp[k], mx);
        }
        const __m256d m = _mm256_set1_pd(horizontalMax(mx));
        __m256d sum = _mm256_setzero_pd();
        for (int k = 0; k < NC; ++k) {
            lp[k] = exp4(_mm256_sub_pd(lp[k], m));
            sum = _mm256_add_pd(sum, lp[k]);
        }
        const double s = horizontalSum(sum);
        // alpha_i = 0 drops the record even where its density is 0 (see detail::weighted).
        const double a = in.alpha[i];
        if (a != 0.0) ll += a * (_mm256_cvtsd_f64(m) + std::log(s));
        const __m256d w = _mm256_set1_pd(a == 0.0 ? 0.0 : a * (1.0 / s));
        // Weighted responsibilities R = alpha_i exp(lp - l_i); d/dmean = R Z / sigma.
        __m256d g[NC];
        for (int k = 0; k < NC; ++k) {
            const __m256d r = _mm256_mul_pd(lp[k], w);
            sumR[k] = _mm256_add_pd(sumR[k], r);
            const __m256d rz = _mm256_mul_pd(r, z[k]);
            sumRZZ[k] = _mm256_fmadd_pd(rz, z[k], sumRZZ[k]);
            g[k] = _mm256_mul_pd(rz, is[k]);
        }
        for (int e = start[i]; e < start[i + 1]; ++e) {
            const __m256d v = _mm256_set1_pd(value[e]);
            double* o = G + static_cast<Eigen::Index>(column[e]) * KP;
            for (int k = 0; k < NC; ++k)
                _mm256_storeu_pd(o + 4 * k, _mm256_fmadd_pd(v, g[k], _mm256_loadu_pd(o + 4 * k)));
        }
    }
    for (int k = 0; k < NC; ++k) {
        _mm256_storeu_pd(rs + 4 * k, _mm256_add_pd(_mm256_loadu_pd(rs + 4 * k), sumR[k]));
        _mm256_storeu_pd(zs + 4 * k, _mm256_add_pd(_mm256_loadu_pd(zs + 4 * k), sumRZZ[k]));
    }
    return ll;
}

}  // namespace

bool mixtureKernelAvailable() {
    static const bool available = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                                  !std::getenv("PPSYNTH_NO_AVX2");
    return available;
}

double mixtureKernel(const MixtureKernelInput& in, double* rs, double* zs, double* G) {
    assert(mixtureKernelAvailable() && in.X->isSparse() && in.Kp % 4 == 0);
    switch (in.Kp / 4) {
        case 1:
            return kernel<1>(in, rs, zs, G);
        case 2:
            return kernel<2>(in, rs, zs, G);
        case 3:
            return kernel<3>(in, rs, zs, G);
        case 4:
            return kernel<4>(in, rs, zs, G);
        case 5:
            return kernel<5>(in, rs, zs, G);
        case 6:
            return kernel<6>(in, rs, zs, G);
        case 7:
            return kernel<7>(in, rs, zs, G);
        default:
            return kernel<8>(in, rs, zs, G);
    }
}

#else

bool mixtureKernelAvailable() {
    return false;
}

double mixtureKernel(const MixtureKernelInput&, double*, double*, double*) {
    return 0.0;
}

#endif

}  // namespace ppsynth::models::detail
