/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-scheme.h — the update of one node, shared by every backend.
 *
 * Compiled as C by the CPU backend and as CUDA by the GPU backend
 * (RW_HD marks the functions host+device), so that CPU fp64 and GPU fp64
 * run the same arithmetic in the same order and agree to rounding.
 *
 * Scheme (DESIGN §2): standard rectilinear 7-point scheme with λ² = 1/3.
 *   air node (K = 6):  p⁺ = (2 − 6λ²) p + λ² Σ₆ p_nbr − p⁻  =  λ² Σ₆ p_nbr − p⁻
 * Outside cells hold p = 0 for ever (backends never write them), so a sum
 * over all six neighbours is the sum over the inside ones.
 *
 * Boundary node (1 ≤ K ≤ 5), three forms:
 *
 * FV (default; Bilbao's finite-volume form for any voxelised shape):
 *   p⁺ = [(2 − Kλ²) p + λ² Σ_in p_nbr − (1 − g) p⁻] / (1 + g),
 *   g = λ β (6 − K) / 2.
 *   With β = 0 it conserves E = Σ_i (p_i⁺ − p_i)² + λ² Σ_edges (Δp⁺)(Δp),
 *   the sum over edges between inside cells i–j of (p_i − p_j) at the two
 *   time levels. (Multiply the update by (p⁺ − p⁻) and sum: the edge terms
 *   telescope.) Every β ≥ 0 is stable.
 *
 * LRS (Kowalczyk & van Walstijn 2008; seeds/sheaffer-fazenda eqs. 9–11),
 * generalised to voxelised shapes: every missing neighbour is replaced by
 * a ghost equal to the neighbour opposite it (mirror) when that one is
 * inside, else by p itself; with N_b = 6 − K missing neighbours
 *   p⁺ = [(2 − 6λ²) p + λ² Σ₆ (neighbour or ghost) + (N_b λβ − 1) p⁻] / (1 + N_b λβ).
 *   For a flat face, edge or corner this is exactly eqs. 9, 10 and 11.
 *
 * Savioja (seeds/sheaffer-fazenda eq. 8, the 1-D termination):
 *   p⁺ = (1 + R) p_in − R p⁻,
 *   p_in = mean of the inside neighbours opposite each missing one (the
 *   neighbours along the boundary normal); where no missing neighbour has an
 *   inside opposite, the mean of all inside neighbours.
 *
 * β = (1 − R)/(1 + R) is the specific admittance of the surface, R its
 * (normal-incidence) reflection factor.
 */
#pragma once

#ifdef __CUDACC__
#define RW_HD __host__ __device__ __forceinline__
#else
#define RW_HD static inline
#endif

#define RW_LAMBDA2 (1.0 / 3.0)

/* λ² as each precision's arithmetic holds it, rounded *down*. The 7-point
 * scheme's stability limit is λ² ≤ 1/3 exactly: at λ² = 1/3 the modes at
 * zero frequency and at the Nyquist corner of the grid (the checkerboard)
 * sit on the unit circle with no margin (the air update's amplification
 * polynomial z² − 6λ² cos… z + 1 has |6λ²| = 2 there). 1/3 rounded to
 * nearest is *above* 1/3 in fp32 (0.33333334f = 1/3 + 9.9e-9), which
 * puts both modes outside the unit circle by |z| − 1 ≈ √(6 · 9.9e-9)
 * ≈ 2.4e-4 per step: every fp32 run of a reverberant room grew without
 * bound after a second or so (issue #10; test solver-long-run-bounded).
 * In fp64, 1/3 rounds to 1/3 − 1.9e-17, below the limit already. So each
 * precision takes the largest representable value not above 1/3: the
 * scheme is then strictly inside its limit (margin 6 · 2.0e-8 in fp32 —
 * a Courant number lower by 3e-8, a phase-velocity change of the same
 * order, far below anything measurable in an impulse response), and the
 * centre coefficient of the air update, 2 − 6λ², is ≥ 0 as in exact
 * arithmetic (the update omits it: +1.2e-7 · p in fp32 is below half an
 * ulp of the result). */
#define RW_LAMBDA2_F64 (1.0 / 3.0)
#define RW_LAMBDA2_F32 0.333333313465118408203125f   /* nextafterf (1/3, 0) */

typedef enum {
  RW_BOUNDARY_FV = 0,
  RW_BOUNDARY_LRS = 1,
  RW_BOUNDARY_SAVIOJA = 2,
} RwBoundary;

/* Neighbour order used by every function below: −x, +x, −y, +y, −z, +z.
 * in_mask bit d is set when neighbour d is inside. */
enum { RW_NBR_XM = 0, RW_NBR_XP, RW_NBR_YM, RW_NBR_YP, RW_NBR_ZM, RW_NBR_ZP };

/* Per-surface coefficients, precomputed on the host once. */
typedef struct {
  double R;       /* reflection factor */
  double beta;    /* admittance (1 − R)/(1 + R) */
} RwSurfaceCoef;

#define RW_DEFINE_SCHEME(T, SUFFIX, L2)                                                   \
RW_HD T                                                                                 \
rw_update_air_##SUFFIX (T sum6, T p_prev)                                               \
{                                                                                       \
  return (L2) * sum6 - p_prev;                                                          \
}                                                                                       \
                                                                                        \
RW_HD T                                                                                 \
rw_update_fv_##SUFFIX (int K, T p, T sum_in, T p_prev, T beta)                          \
{                                                                                       \
  const T l2 = (L2);                                                                    \
  const T g = (T) 0.57735026918962576451 * beta * (T) (6 - K) * (T) 0.5;                \
  return ((2 - (T) K * l2) * p + l2 * sum_in - (1 - g) * p_prev) / (1 + g);            \
}                                                                                       \
                                                                                        \
RW_HD T                                                                                 \
rw_update_lrs_##SUFFIX (int in_mask, T p, const T nbr[6], T p_prev, T beta)             \
{                                                                                       \
  const T l2 = (L2);                                                                    \
  T sum = 0;                                                                            \
  int nb = 0;                                                                           \
  for (int d = 0; d < 6; d++)                                                           \
    {                                                                                   \
      if (in_mask & (1 << d))                                                           \
        sum += nbr[d];                                                                  \
      else                                                                              \
        {                                                                               \
          const int o = d ^ 1;                                                          \
          sum += (in_mask & (1 << o)) ? nbr[o] : p;                                     \
          nb++;                                                                         \
        }                                                                               \
    }                                                                                   \
  const T lb = (T) 0.57735026918962576451 * beta * (T) nb;                              \
  return ((2 - 6 * l2) * p + l2 * sum + (lb - 1) * p_prev) / (1 + lb);                  \
}                                                                                       \
                                                                                        \
RW_HD T                                                                                 \
rw_update_savioja_##SUFFIX (int in_mask, const T nbr[6], T p_prev, T R)                 \
{                                                                                       \
  T sum = 0, all = 0;                                                                   \
  int n = 0, n_all = 0;                                                                 \
  for (int d = 0; d < 6; d++)                                                           \
    {                                                                                   \
      if (in_mask & (1 << d))                                                           \
        { all += nbr[d]; n_all++; }                                                     \
      else if (in_mask & (1 << (d ^ 1)))                                                \
        { sum += nbr[d ^ 1]; n++; }                                                     \
    }                                                                                   \
  const T p_in = n > 0 ? sum / (T) n : (n_all > 0 ? all / (T) n_all : (T) 0);           \
  return (1 + R) * p_in - R * p_prev;                                                   \
}

RW_DEFINE_SCHEME (double, f64, RW_LAMBDA2_F64)
RW_DEFINE_SCHEME (float, f32, RW_LAMBDA2_F32)
