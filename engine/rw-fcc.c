/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-fcc.c — the dense reference solver of rw-fcc.h. */
#include "rw-fcc.h"
#include "rw-scheme-fcc.h"
#include "rw-scheme-cpt.h"

#include <math.h>
#include <stdlib.h>

/* The FCC offsets in the order every backend sums them
 * (RW_FCC_NBR_OFFSETS: the CPU backend on rw_grid_new_box_fcc agrees with
 * this solver bit for bit, test solver-fcc-matches-reference) and the
 * Cartesian ones. */
static const int fcc_off[12][3] = RW_FCC_NBR_OFFSETS;
static const int cart_off[6][3] = {
  { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 }, { 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 },
};
static const int cpt_off[RW_CPT_N_NBR][3] = RW_CPT_NBR_OFFSETS;
static const int cpt_end[3] = RW_CPT_CLASS_END;

struct RwRefSim {
  RwRefScheme scheme;
  int n[3];
  int parity;              /* FCC: the sites are i + j + k ≡ parity (mod 2) */
  double l2;
  double *p, *pp;          /* current, previous (overwritten by the next) */
  const int (*off)[3];
  int n_off;
  long d[RW_CPT_N_NBR];    /* index offset of each neighbour */
  int cpt;                 /* a 27-point scheme: */
  double w[3], c0;         /* its weights and centre coefficient */
};

static size_t
idx (const RwRefSim *s, int i, int j, int k)
{
  return (size_t) i + (size_t) s->n[0] * ((size_t) j + (size_t) s->n[1] * (size_t) k);
}

static int
in_box (const RwRefSim *s, int i, int j, int k)
{
  return i >= 0 && j >= 0 && k >= 0 && i < s->n[0] && j < s->n[1] && k < s->n[2];
}

int
rw_ref_sim_is_site (const RwRefSim *sim, int i, int j, int k)
{
  return in_box (sim, i, j, k)
         && (sim->scheme != RW_REF_FCC13 || ((i + j + k) & 1) == sim->parity);
}

static RwRefSim *
sim_new (RwRefScheme scheme, const int n[3], int parity, double l2, double a, double b)
{
  for (int e = 0; e < 3; e++)
    if (n[e] < 3 || n[e] > 4096)
      return NULL;
  if (!(l2 > 0.0) || scheme < RW_REF_CART7 || scheme > RW_REF_CPT27 || (parity != 0 && parity != 1))
    return NULL;
  /* the 27-point walls mirror about a cube's faces (rw_cpt_mirror) */
  if (scheme >= RW_REF_CPT27_IWB && (n[1] != n[0] || n[2] != n[0]))
    return NULL;
  if (scheme == RW_REF_CART7 && l2 != RW_LAMBDA2_F64)
    return NULL;
  RwRefSim *s = calloc (1, sizeof *s);
  if (s == NULL)
    return NULL;
  size_t n3 = (size_t) n[0] * (size_t) n[1] * (size_t) n[2];
  s->p = calloc (n3, sizeof (double));
  s->pp = calloc (n3, sizeof (double));
  if (s->p == NULL || s->pp == NULL)
    {
      rw_ref_sim_free (s);
      return NULL;
    }
  s->scheme = scheme;
  for (int e = 0; e < 3; e++)
    s->n[e] = n[e];
  s->parity = parity;
  s->l2 = l2;
  s->cpt = scheme >= RW_REF_CPT27_IWB;
  s->off = s->cpt ? cpt_off : (scheme == RW_REF_FCC13 ? fcc_off : cart_off);
  s->n_off = s->cpt ? RW_CPT_N_NBR : (scheme == RW_REF_FCC13 ? 12 : 6);
  if (s->cpt)
    rw_cpt_coefficients (a, b, l2, s->w, &s->c0);
  for (int m = 0; m < s->n_off; m++)
    s->d[m] = s->off[m][0] + (long) n[0] * (s->off[m][1] + (long) n[1] * s->off[m][2]);
  return s;
}

RwRefSim *
rw_ref_sim_new (RwRefScheme scheme, int n1, double l2)
{
  const int n[3] = { n1, n1, n1 };
  switch (scheme)
    {
    case RW_REF_CPT27_IWB:
      return sim_new (scheme, n, 0, l2, RW_CPT_IWB_A, RW_CPT_IWB_B);
    case RW_REF_CPT27_IISO:
      return sim_new (scheme, n, 0, l2, RW_CPT_IISO_A, RW_CPT_IISO_B);
    case RW_REF_CPT27_IDWM:
      return sim_new (scheme, n, 0, l2, RW_CPT_IDWM_A, RW_CPT_IDWM_B);
    case RW_REF_CPT27:
      return NULL;
    default:
      return sim_new (scheme, n, 0, l2, 0.0, 0.0);
    }
}

RwRefSim *
rw_ref_sim_new_box (RwRefScheme scheme, int nx, int ny, int nz, double l2, int parity)
{
  const int n[3] = { nx, ny, nz };
  if (scheme != RW_REF_CART7 && scheme != RW_REF_FCC13)
    return NULL;
  return sim_new (scheme, n, parity, l2, 0.0, 0.0);
}

RwRefSim *
rw_ref_sim_new_cpt (double a, double b, int n1, double l2)
{
  const int n[3] = { n1, n1, n1 };
  if (!isfinite (a) || !isfinite (b))
    return NULL;
  return sim_new (RW_REF_CPT27, n, 0, l2, a, b);
}

void
rw_ref_sim_free (RwRefSim *sim)
{
  if (sim == NULL)
    return;
  free (sim->p);
  free (sim->pp);
  free (sim);
}

void
rw_ref_sim_add (RwRefSim *sim, int i, int j, int k, double s)
{
  if (rw_ref_sim_is_site (sim, i, j, k))
    sim->p[idx (sim, i, j, k)] += s;
}

void
rw_ref_sim_set (RwRefSim *sim, int i, int j, int k, double p, double p_prev)
{
  if (!rw_ref_sim_is_site (sim, i, j, k))
    return;
  sim->p[idx (sim, i, j, k)] = p;
  sim->pp[idx (sim, i, j, k)] = p_prev;
}

double
rw_ref_sim_get (const RwRefSim *sim, int i, int j, int k)
{
  return rw_ref_sim_is_site (sim, i, j, k) ? sim->p[idx (sim, i, j, k)] : 0.0;
}

/* A site next to a wall: the sum over its inside neighbours and their
 * number. */
static double
sum_inside (const RwRefSim *s, int i, int j, int k, int *K)
{
  double sum = 0.0;
  int c = 0;
  for (int m = 0; m < s->n_off; m++)
    {
      int a = i + s->off[m][0], b = j + s->off[m][1], e = k + s->off[m][2];
      if (in_box (s, a, b, e))
        {
          sum += s->p[idx (s, a, b, e)];
          c++;
        }
    }
  *K = c;
  return sum;
}

/* An FCC site's wall entries (rw-scheme-fcc.h, "Wall links"), found
 * here by coordinates: for each missing link, in offset order, the
 * outside site o and the sites in the box next to it; with two or more,
 * the mean of their p (summed in offset order around o) and of their p⁻.
 * Returns the number of entries, their means summed in *mp and, per
 * entry, (p_c − x̄)(p⁻_c − x̄⁻) summed in *cross (the entries' energy). */
static int
wall_entries (const RwRefSim *s, int i, int j, int k, double *mp, double *cross)
{
  int n = 0;
  *mp = 0.0;
  *cross = 0.0;
  for (int m = 0; m < s->n_off; m++)
    {
      const int a = i + s->off[m][0], b = j + s->off[m][1], e = k + s->off[m][2];
      if (in_box (s, a, b, e))
        continue;
      double t = 0.0, tq = 0.0;
      int c = 0;
      for (int u = 0; u < s->n_off; u++)
        {
          const int x = a + s->off[u][0], y = b + s->off[u][1], z = e + s->off[u][2];
          if (in_box (s, x, y, z))
            {
              t += s->p[idx (s, x, y, z)];
              tq += s->pp[idx (s, x, y, z)];
              c++;
            }
        }
      if (c < 2)
        continue;
      n++;
      *mp += t / (double) c;
      const size_t o = idx (s, i, j, k);
      *cross += (s->p[o] - t / (double) c) * (s->pp[o] - tq / (double) c);
    }
  return n;
}

/* The index of the neighbour at offset m of (i, j, k) for a 27-point
 * scheme: the site itself inside, its image outside (rw_cpt_mirror). */
static size_t
cpt_nbr (const RwRefSim *s, int i, int j, int k, int m)
{
  return idx (s, rw_cpt_mirror (i + s->off[m][0], s->n[0]), rw_cpt_mirror (j + s->off[m][1], s->n[1]),
              rw_cpt_mirror (k + s->off[m][2], s->n[2]));
}

/* The sums of p over the three classes of neighbours of a site at a wall,
 * through the images. */
static void
cpt_sums (const RwRefSim *s, int i, int j, int k, double sum[3])
{
  for (int cl = 0, m = 0; cl < 3; cl++)
    {
      double t = 0.0;
      for (; m < cpt_end[cl]; m++)
        t += s->p[cpt_nbr (s, i, j, k, m)];
      sum[cl] = t;
    }
}

/* One step of a 27-point scheme: the interior update everywhere, over the
 * images at the walls (rw-scheme-cpt.h). */
static void
cpt_step (RwRefSim *s)
{
  const int n = s->n[0];   /* a cube (sim_new) */
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      {
        const int edge_jk = j == 0 || k == 0 || j == n - 1 || k == n - 1;
        for (int i = 0; i < n; i++)
          {
            const size_t c = idx (s, i, j, k);
            double sum[3];
            if (edge_jk || i == 0 || i == n - 1)
              cpt_sums (s, i, j, k, sum);
            else
              {
                /* Interior: fixed class bounds, no branch (the hot loop). */
                const double *q = s->p + c;
                double t0 = 0.0, t1 = 0.0, t2 = 0.0;
                for (int m = 0; m < 6; m++)
                  t0 += q[s->d[m]];
                for (int m = 6; m < 18; m++)
                  t1 += q[s->d[m]];
                for (int m = 18; m < 26; m++)
                  t2 += q[s->d[m]];
                sum[0] = t0, sum[1] = t1, sum[2] = t2;
              }
            s->pp[c] = rw_cpt_update_f64 (s->c0, s->w[0], s->w[1], s->w[2], s->p[c], sum[0],
                                          sum[1], sum[2], s->pp[c]);
          }
      }
}

void
rw_ref_sim_step (RwRefSim *s)
{
  if (s->cpt)
    {
      cpt_step (s);
      double *t = s->p;
      s->p = s->pp;
      s->pp = t;
      return;
    }
  const int nx = s->n[0], ny = s->n[1], nz = s->n[2];
  const int fcc = s->scheme == RW_REF_FCC13;
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      {
        const int edge_jk = j == 0 || k == 0 || j == ny - 1 || k == nz - 1;
        /* FCC: only i with i + j + k ≡ parity. */
        const int step = fcc ? 2 : 1;
        for (int i = fcc ? (j + k + s->parity) & 1 : 0; i < nx; i += step)
          {
            const size_t c = idx (s, i, j, k);
            const double p = s->p[c];
            if (edge_jk || i == 0 || i == nx - 1)
              {
                int K;
                double sum = sum_inside (s, i, j, k, &K);
                if (fcc)
                  {
                    double means, cross;
                    const int n = wall_entries (s, i, j, k, &means, &cross);
                    s->pp[c] = rw_fcc_update_rigid_f64 (s->l2, rw_fcc_wall_K (K, n), p,
                                                        rw_fcc_wall_sum (sum, means), s->pp[c]);
                  }
                else
                  s->pp[c] = rw_update_fv_f64 (K, p, sum, s->pp[c], 0.0);
                continue;
              }
            const double *q = s->p + c;
            double sum = 0.0;
            for (int m = 0; m < s->n_off; m++)
              sum += q[s->d[m]];
            s->pp[c] = fcc ? rw_fcc_update_air_f64 (s->l2, p, sum, s->pp[c])
                           : rw_update_air_f64 (sum, s->pp[c]);
          }
      }
  double *t = s->p;
  s->p = s->pp;
  s->pp = t;
}

/* The 27-point energy (rw-scheme-cpt.h): ½ Σ_x Σ₂₆ w_d counts each edge,
 * image edges included, twice. */
static double
cpt_energy (const RwRefSim *s)
{
  const int n = s->n[0];   /* a cube (sim_new) */
  double kin = 0.0, pot = 0.0;
  for (int k = 0; k < n; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++)
        {
          const size_t c = idx (s, i, j, k);
          const double dt = s->p[c] - s->pp[c];
          kin += dt * dt;
          for (int m = 0, cl = 0; m < RW_CPT_N_NBR; m++)
            {
              if (m == cpt_end[cl])
                cl++;
              const size_t o = cpt_nbr (s, i, j, k, m);
              pot += s->w[cl] * (s->p[c] - s->p[o]) * (s->pp[c] - s->pp[o]);
            }
        }
  return kin + 0.5 * pot;
}

double
rw_ref_sim_energy (const RwRefSim *s)
{
  if (s->cpt)
    return cpt_energy (s);
  const double w = s->scheme == RW_REF_FCC13 ? 0.25 * s->l2 : s->l2;
  double kin = 0.0, pot = 0.0;
  for (int k = 0; k < s->n[2]; k++)
    for (int j = 0; j < s->n[1]; j++)
      for (int i = 0; i < s->n[0]; i++)
        {
          if (!rw_ref_sim_is_site (s, i, j, k))
            continue;
          const size_t c = idx (s, i, j, k);
          const double dt = s->p[c] - s->pp[c];
          kin += dt * dt;
          /* Each edge once: along the offsets whose first non-zero
           * component is positive, one of each ± pair. */
          for (int m = 0; m < s->n_off; m++)
            {
              const int *o = s->off[m];
              if (!(o[0] > 0 || (o[0] == 0 && (o[1] > 0 || (o[1] == 0 && o[2] > 0)))))
                continue;
              int a = i + o[0], b = j + o[1], e = k + o[2];
              if (!in_box (s, a, b, e))
                continue;
              const size_t t = idx (s, a, b, e);
              pot += (s->p[c] - s->p[t]) * (s->pp[c] - s->pp[t]);
            }
          if (s->scheme == RW_REF_FCC13)
            {
              double means, cross;
              wall_entries (s, i, j, k, &means, &cross);
              pot += RW_FCC_WALL_W * cross;
            }
        }
  return kin + w * pot;
}
