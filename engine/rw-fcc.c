/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-fcc.c — the dense reference solver of rw-fcc.h. */
#include "rw-fcc.h"
#include "rw-scheme-fcc.h"

#include <stdlib.h>

/* The FCC offsets in the order every backend sums them
 * (RW_FCC_NBR_OFFSETS: the CPU backend on rw_grid_new_box_fcc agrees with
 * this solver bit for bit, test solver-fcc-matches-reference) and the
 * Cartesian ones. */
static const int fcc_off[12][3] = RW_FCC_NBR_OFFSETS;
static const int cart_off[6][3] = {
  { -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 }, { 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 },
};

struct RwRefSim {
  RwRefScheme scheme;
  int n[3];
  int parity;              /* FCC: the sites are i + j + k ≡ parity (mod 2) */
  double l2;
  double *p, *pp;          /* current, previous (overwritten by the next) */
  const int (*off)[3];
  int n_off;
  long d[12];              /* index offset of each neighbour */
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
         && (sim->scheme == RW_REF_CART7 || ((i + j + k) & 1) == sim->parity);
}

RwRefSim *
rw_ref_sim_new (RwRefScheme scheme, int n, double l2)
{
  return rw_ref_sim_new_box (scheme, n, n, n, l2, 0);
}

RwRefSim *
rw_ref_sim_new_box (RwRefScheme scheme, int nx, int ny, int nz, double l2, int parity)
{
  const int n[3] = { nx, ny, nz };
  for (int a = 0; a < 3; a++)
    if (n[a] < 3 || n[a] > 4096)
      return NULL;
  if (!(l2 > 0.0) || (scheme != RW_REF_CART7 && scheme != RW_REF_FCC13)
      || (parity != 0 && parity != 1))
    return NULL;
  if (scheme == RW_REF_CART7 && l2 != RW_LAMBDA2_F64)
    return NULL;
  RwRefSim *s = calloc (1, sizeof *s);
  if (s == NULL)
    return NULL;
  size_t n3 = (size_t) nx * (size_t) ny * (size_t) nz;
  s->p = calloc (n3, sizeof (double));
  s->pp = calloc (n3, sizeof (double));
  if (s->p == NULL || s->pp == NULL)
    {
      rw_ref_sim_free (s);
      return NULL;
    }
  s->scheme = scheme;
  for (int a = 0; a < 3; a++)
    s->n[a] = n[a];
  s->parity = parity;
  s->l2 = l2;
  s->off = scheme == RW_REF_FCC13 ? fcc_off : cart_off;
  s->n_off = scheme == RW_REF_FCC13 ? 12 : 6;
  for (int m = 0; m < s->n_off; m++)
    s->d[m] = s->off[m][0] + (long) nx * (s->off[m][1] + (long) ny * s->off[m][2]);
  return s;
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

void
rw_ref_sim_step (RwRefSim *s)
{
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
                s->pp[c] = fcc ? rw_fcc_update_rigid_f64 (s->l2, K, p, sum, s->pp[c])
                               : rw_update_fv_f64 (K, p, sum, s->pp[c], 0.0);
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

double
rw_ref_sim_energy (const RwRefSim *s)
{
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
        }
  return kin + w * pot;
}
