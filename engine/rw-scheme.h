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
 *
 * FV with a frequency-dependent admittance (rw-admittance.h: Y = Y0 +
 * Σ_m 1/(D_m s + E_m + F_m/s); Bilbao, Hamilton, Botts & Savioja, IEEE/ACM
 * TASLP 24(1), 2016; PFFDTD's boundary). The node's absorbing area S (in
 * cell faces; 6 − K on a staircase) carries a scaled normal velocity per
 * branch, v_m at half steps, and its time integral q_m:
 *   p⁺ − 2p + p⁻ = λ² (Σ_in − K p) − (λ S Y0 / 2)(p⁺ − p⁻) − (λ S / 2) Σ_m (v_m⁺ + v_m),
 *   2D̂_m (v_m⁺ − v_m) + E_m (v_m⁺ + v_m) + F̂_m (q_m⁺ + q_m) = p⁺ − p⁻,
 *   q_m⁺ = q_m + (v_m⁺ + v_m)/2,            D̂ = D/k, F̂ = F·k (k the time step).
 * Eliminating v_m⁺ (b = 1/(2D̂ + E + F̂/2), b_d = b (2D̂ − E − F̂/2)):
 *   p⁺ = [(2 − Kλ²) p + λ² Σ_in − (1 − g) p⁻ − λ S Σ_m (2bD̂ v_m − bF̂ q_m)] / (1 + g),
 *   g = λ S (Y0 + Σ_m b_m) / 2,
 *   v_m⁺ = b (p⁺ − p⁻) + b_d v_m − 2 bF̂ q_m.
 * With no branch this is the FV update above (S = 6 − K, β = Y0).
 * Energy: multiply the node's equation by (p⁺ − p⁻), substitute the branch
 * equation and use v⁺ + v = 2 (q⁺ − q):
 *   Δ [E_field + λ S Σ_m (D̂_m v_m² + F̂_m q_m²)]
 *     = − g₀ (p⁺ − p⁻)² − (λ S / 2) Σ_m E_m (v_m⁺ + v_m)²  ≤ 0,
 * (g₀ = λ S Y0 / 2) so with every element ≥ 0 the total energy — the
 * field's E of the FV form above plus what the branches store — never
 * grows, whatever the frequency content: the scheme is stable for every
 * passive material (rw_update_fv_branches; the test solver-energy-branches
 * checks it over 10⁶ steps).
 */
#pragma once

#include <math.h>

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

/* One branch's update coefficients (above), from its elements and the
 * time step k in seconds; computed in fp64 on the host once, then cast to
 * the precision of the arithmetic. dh = D̂ and fh = F̂ also give the energy
 * it stores (λ S (D̂ v² + F̂ q²)). */
typedef struct {
  double b, bd, bdh, bfh;
  double dh, fh;
} RwBranchCoef;

static inline RwBranchCoef
rw_branch_coef (double D, double E, double F, double k)
{
  RwBranchCoef c;
  c.dh = D / k;
  c.fh = F * k;
  c.b = 1.0 / (2.0 * c.dh + E + 0.5 * c.fh);
  c.bd = c.b * (2.0 * c.dh - E - 0.5 * c.fh);
  c.bdh = c.b * c.dh;
  c.bfh = c.b * c.fh;
  return c;
}

/* The coefficients as double holds them (out: b, b_d, bD̂, bF̂), made
 * consistent so that the rounded scheme is itself passive. The energy
 * balance above needs b_d = 4 bD̂ − 1 (the node's and the branch's D̂ are
 * the same) and 1 − b_d − bF̂ = 2bE ≥ 0; independently rounded values
 * break both by an ulp, which for a heavy mass (D̂ ~ 10⁴, where 2bE ~ 1e-5)
 * is a relative error of 1e-12 in its resistance, and an ulp's wrong sign
 * makes it active. So b_d is computed from bD̂ (exact: 4bD̂ ∈ [0, 2]) and
 * bF̂ is lowered by ulps until 1 − b_d − bF̂ ≥ 0; the node's Y0 + Σ b is
 * rounded up (rw_branch_beta_f64), so the conductance left over is ≥ 0
 * too. dh_fh: the D̂, F̂ of the rounded scheme, for its energy. Every
 * precision of the field uses these (the node's update is in double). */
static inline void
rw_branch_coef_f64 (const RwBranchCoef *c, double out[4], double dh_fh[2])
{
  const double b = c->b, bdh = c->bdh;
  double bfh = c->bfh;
  const double bd = 4.0 * bdh - 1.0;
  while (bfh > 0.0 && (1.0 - bd) - bfh < 0.0)
    bfh = nextafter (bfh, 0.0);
  out[0] = b, out[1] = bd, out[2] = bdh, out[3] = bfh;
  dh_fh[0] = bdh / b, dh_fh[1] = bfh / b;
}

/* Y0 + Σ b of the rounded b's, rounded up (see above). */
static inline double
rw_branch_beta_f64 (double Y0, const double *coef, int M)
{
  long double s = Y0;
  for (int m = 0; m < M; m++)
    s += coef[4 * m];
  double r = (double) s;
  return (long double) r < s ? nextafter (r, INFINITY) : r;
}

/* The β of a frequency-independent surface of reflection factor R, as
 * every backend computes it (R = −1: 0, Savioja only). */
static inline double
rw_beta_of_R (double R)
{
  return R > -1.0 ? (1.0 - R) / (1.0 + R) : 0.0;
}

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

/* The frequency-dependent FV node (above): coef holds b, b_d, bD̂, bF̂ per
 * branch (4·M values), v and q the node's M branch states, branch m at
 * [m · stride] (updated here); S: absorbing area in cell faces; beta_sum =
 * Y0 + Σ b_m. Arithmetic in double for every precision of the field, the
 * states in the field's precision or wider (ST): in fp32 arithmetic a
 * heavy mass branch (D̂ ~ 10⁴, as the fit gives low-frequency resonators)
 * made the rounded scheme gain energy, 1.4e-8 E₀ a step, steadily
 * (solver-energy-branches); with the node's update in double and the
 * states still stored in fp32 it falls as in fp64. It costs nothing that
 * counts: these nodes are a percent of a room. L2 is the field's λ² (the
 * air nodes' — the coupling between a node and its neighbours must use
 * one λ², or the scheme's energy is not conserved). */
#define RW_DEFINE_BRANCHES(ST, SUFFIX, L2)                                                 \
/* The FV node of a scheme whose neighbour coupling is l2 (λ² for the     \
 * 7-point scheme, λ²/4 for FCC) and whose boundary loss is l·S (λ·S for   \
 * the 7-point scheme, (λ/2)·S for FCC, S the area in h²;                 \
 * rw-scheme-fcc.h derives it): the one body of both schemes' update. */   \
RW_HD double                                                                            \
rw_fv_branches_core_##SUFFIX (double l, double l2, double K, double S, double p, double sum_in, \
                              double p_prev, double beta_sum, int M, const double *coef,  \
                              ST *v, ST *q, size_t stride)                              \
{                                                                                       \
  const double g = l * beta_sum * S * 0.5;                                              \
  double corr = 0;                                                                      \
  for (int m = 0; m < M; m++)                                                           \
    corr += 2 * coef[4 * m + 2] * (double) v[m * stride]                                \
            - coef[4 * m + 3] * (double) q[m * stride];                                 \
  const double pn = ((2 - K * l2) * p + l2 * sum_in - (1 - g) * p_prev                   \
                     - l * S * corr) / (1 + g);                                         \
  const double du = pn - p_prev;                                                        \
  for (int m = 0; m < M; m++)                                                           \
    {                                                                                   \
      ST *vm = v + m * stride, *qm = q + m * stride;                                    \
      const double vo = (double) *vm;                                                   \
      const double vn = coef[4 * m] * du + coef[4 * m + 1] * vo - 2 * coef[4 * m + 3] * (double) *qm; \
      *qm = (ST) ((double) *qm + (vn + vo) * 0.5);                                      \
      *vm = (ST) vn;                                                                    \
    }                                                                                   \
  return pn;                                                                            \
}                                                                                       \
                                                                                        \
RW_HD double                                                                            \
rw_update_fv_branches_##SUFFIX (int K, double S, double p, double sum_in, double p_prev,  \
                                double beta_sum, int M, const double *coef, ST *v, ST *q, \
                                size_t stride)                                          \
{                                                                                       \
  return rw_fv_branches_core_##SUFFIX (0.57735026918962576451, (double) (L2), (double) K, S, p, \
                                       sum_in, p_prev, beta_sum, M, coef, v, q, stride); \
}

RW_DEFINE_BRANCHES (double, f64, RW_LAMBDA2_F64)
RW_DEFINE_BRANCHES (float, f32, RW_LAMBDA2_F32)
