/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cluster-model.c — memory, halo traffic and step time of a run over N
 * GPUs (rw-cluster-model.h; docs/CLUSTER.md). */
#include "rw-cluster-model.h"

#include <math.h>
#include <string.h>

#include "rw-admittance.h"
#include "rw-i18n.h"
#include "rw-physics.h"
#include "rw-scheme-fcc.h"
#include "rw-shapes.h"
#include "rw-slab.h"
#include "../kernels/rw-cuda-fcc-tables.h"
#include "../kernels/rw-cuda-items.h"

/* One H100 80GB HBM3, docs/PERFORMANCE.md: the FCC scheme's last
 * figures measured on it, "Flat rows padded to 4 entries; fp16 rows as
 * halves … (H100, 2026-11-28, third)", the 1000 m³ box at 4 kHz (fp32
 * 172.4 G updates/s: 19.6 s per second of audio; fp16 239.7; fp64 96.0;
 * the kernel has run faster since on the H200, where the H100 was not
 * measured again); the 7-point scheme in fp32 and fp16, "With the FCC
 * wall links (H100, 2026-11-27)", in fp64 the hall's 108.4 (H100,
 * 2026-11-24, 220 M cells). */
double
rw_cluster_default_rate (RwLattice lattice, RwPrecision precision)
{
  if (lattice == RW_LATTICE_FCC)
    return precision == RW_PRECISION_F16 ? 239.7 : precision == RW_PRECISION_F64 ? 96.0 : 172.4;
  return precision == RW_PRECISION_F16 ? 399.1 : precision == RW_PRECISION_F64 ? 108.4 : 236.1;
}

void
rw_cluster_params_defaults (const RwClusterParams *p, RwClusterParams *out)
{
  RwClusterParams q = *p;
  if (q.aspect[0] == 0 && q.aspect[1] == 0 && q.aspect[2] == 0)
    {
      q.aspect[0] = RW_CLUSTER_ASPECT_X;
      q.aspect[1] = RW_CLUSTER_ASPECT_Y;
      q.aspect[2] = RW_CLUSTER_ASPECT_Z;
    }
  if (q.ppw == 0)
    q.ppw = rw_scheme_default_ppw (q.lattice);
  if (q.rate_gups == 0)
    q.rate_gups = rw_cluster_default_rate (q.lattice, q.precision);
  if (q.gpus_per_host == 0)
    q.gpus_per_host = RW_CLUSTER_GPUS_PER_HOST;
  if (q.host_memory_gib == 0)
    q.host_memory_gib = RW_CLUSTER_HOST_MEMORY_GIB;
  *out = q;
}

static size_t
elem_bytes (RwPrecision p)
{
  return p == RW_PRECISION_F64 ? 8 : p == RW_PRECISION_F16 ? 2 : 4;
}

static bool
check_params (const RwClusterParams *p, RwError *err)
{
  if (!(p->volume_m3 > 0 && p->volume_m3 <= 1e9))
    return rw_fail (err, RW_ERROR_INPUT, _("volume: %g m³; it must be above 0 and at most 10⁹ m³"),
                    p->volume_m3);
  for (int k = 0; k < 3; k++)
    if (!(p->aspect[k] > 0 && isfinite (p->aspect[k])))
      return rw_fail (err, RW_ERROR_INPUT, _("aspect: every proportion must be above 0"));
  if (!(p->fmax_hz > 0 && p->fmax_hz <= 1e5))
    return rw_fail (err, RW_ERROR_INPUT, _("fmax: %g Hz; it must be above 0 and at most 100 kHz"),
                    p->fmax_hz);
  if (p->lattice != RW_LATTICE_CUBIC && p->lattice != RW_LATTICE_FCC)
    return rw_fail (err, RW_ERROR_INPUT, _("scheme: not cartesian or fcc"));
  if (p->precision != RW_PRECISION_F32 && p->precision != RW_PRECISION_F64
      && p->precision != RW_PRECISION_F16)
    return rw_fail (err, RW_ERROR_INPUT, _("precision: not f16, f32 or f64"));
  if (!(p->ppw >= 2 && p->ppw <= 100))
    return rw_fail (err, RW_ERROR_INPUT, _("points per wavelength: %g; they must be 2 to 100"),
                    p->ppw);
  if (!(p->duration_s > 0 && p->duration_s <= 1e4))
    return rw_fail (err, RW_ERROR_INPUT, _("duration: %g s; it must be above 0 and at most 10 000 s"),
                    p->duration_s);
  if (p->n_gpus < 1 || p->n_gpus > RW_SLAB_MAX_RANKS)
    return rw_fail (err, RW_ERROR_INPUT, _("gpus: %d; they must be 1 to %d"), p->n_gpus,
                    RW_SLAB_MAX_RANKS);
  if (p->gpus_per_host < 1 || p->gpus_per_host > RW_SLAB_MAX_RANKS)
    return rw_fail (err, RW_ERROR_INPUT, _("gpus per host: %d; they must be 1 to %d"),
                    p->gpus_per_host, RW_SLAB_MAX_RANKS);
  if (!(p->gpu_memory_gib > 0 && isfinite (p->gpu_memory_gib)))
    return rw_fail (err, RW_ERROR_INPUT, _("gpu memory: %g GiB; it must be above 0"),
                    p->gpu_memory_gib);
  if (!(p->host_memory_gib > 0 && isfinite (p->host_memory_gib)))
    return rw_fail (err, RW_ERROR_INPUT, _("host memory: %g GiB; it must be above 0"),
                    p->host_memory_gib);
  if (!(p->rate_gups > 0 && isfinite (p->rate_gups)))
    return rw_fail (err, RW_ERROR_INPUT, _("rate: %g G updates/s; it must be above 0"),
                    p->rate_gups);
  if (!(p->bandwidth_gbs > 0))
    return rw_fail (err, RW_ERROR_INPUT, _("bandwidth: %g GB/s; it must be above 0"),
                    p->bandwidth_gbs);
  if (!(p->latency_us >= 0 && isfinite (p->latency_us)))
    return rw_fail (err, RW_ERROR_INPUT, _("latency: %g µs; it must be 0 or more"), p->latency_us);
  if (p->branches < 0 || p->branches > RW_ADM_MAX_BRANCHES)
    return rw_fail (err, RW_ERROR_INPUT, _("branches: %d; they must be 0 to %d"), p->branches,
                    RW_ADM_MAX_BRANCHES);
  return true;
}

/* Boundary nodes of a box of a × b inside cells and `planes` planes, every
 * face closed: the cells with an outside neighbour, a ring a plane and the
 * two end faces inside the ring. On the FCC lattice half of them (the
 * sites of the outermost layer: a flat wall's sites miss four of their 12
 * neighbours, the layer below misses none). */
static double
box_boundary (RwLattice l, double a, double b, double planes)
{
  const double ring = a * b - fmax (a - 2, 0) * fmax (b - 2, 0);
  const double faces = planes >= 2 ? 2 * fmax (a - 2, 0) * fmax (b - 2, 0) : a * b - ring;
  const double cells = ring * planes + faces;
  return l == RW_LATTICE_FCC ? cells / 2 : cells;
}

/* The CUDA backend's memory_bytes on an nx × ny × nz grid with nb boundary
 * nodes and six surfaces, no receivers (a receiver adds 64 KiB on the
 * 7-point scheme, 2 KiB on the FCC one): the backend's own
 * (rw_cuda_device_bytes, rw_cuda_fcc_device_bytes). */
static double
cuda_device_bytes (const RwClusterParams *p, size_t nx, size_t ny, size_t nz, double nb)
{
  const double e = (double) elem_bytes (p->precision);
  const double arith = p->precision == RW_PRECISION_F64 ? 8 : 4, M = p->branches;
  const double n_surfaces = 6;
  if (p->lattice == RW_LATTICE_FCC)
    return rw_cuda_fcc_device_bytes (nx, ny, nz, (size_t) e, (size_t) arith, nb, M,
                                     (size_t) n_surfaces, 0);
  return rw_cuda_device_bytes (nx, ny, nz, (size_t) e, 0, nb, M, (size_t) arith,
                               (size_t) n_surfaces);
}

/* Host memory of a rank: the voxeliser's for its window of planes (each
 * rank voxelises its slab and RW_VOXEL_REACH planes round it alone,
 * rw_slab_voxelise_ranks: the whole room's figure in proportion), its
 * slab grid (3 B a cell, 8 a column) and the CUDA backend's host_bytes
 * for the slab. */
static double
host_bytes (const RwClusterModel *m, size_t nzs)
{
  RwMesh *box = rw_shape_box (m->side_m[0], m->side_m[1], m->side_m[2]);
  double voxel = NAN;
  if (box != NULL)
    {
      const size_t b = m->in.lattice == RW_LATTICE_FCC ? rw_voxel_memory_bytes_fcc (box, m->h)
                                                        : rw_voxel_memory_bytes (box, m->h);
      voxel = b == SIZE_MAX ? INFINITY : (double) b;
      rw_mesh_free (box);
    }
  const size_t nx = m->grid[0], ny = m->grid[1];
  const double window = (double) (nzs + 2 * RW_VOXEL_REACH) / (double) m->grid[2];
  return voxel * (window < 1.0 ? window : 1.0) + 3.0 * nx * ny * nzs + 8.0 * nx * ny
         + (double) rw_cuda_host_bytes (nx, ny, nzs, elem_bytes (m->in.precision), 1);
}

/* The model; *few_planes set when it fails because the room has fewer
 * planes than the GPUs need (rw_cluster_largest looks further up). */
static bool
model (const RwClusterParams *p_in, RwClusterModel *m, bool *few_planes, RwError *err)
{
  memset (m, 0, sizeof *m);
  *few_planes = false;
  rw_cluster_params_defaults (p_in, &m->in);
  const RwClusterParams *p = &m->in;
  if (!check_params (p, err))
    return false;
  const bool fcc = p->lattice == RW_LATTICE_FCC;
  m->c = rw_speed_of_sound (RW_DEFAULT_TEMPERATURE_C);
  m->h = rw_spacing_for_fmax (m->c, p->fmax_hz, p->ppw);
  m->fs = rw_scheme_grid_rate (p->lattice, m->c, m->h);
  m->n_steps = (size_t) ceil (p->duration_s * m->fs);

  /* the shoebox and the voxeliser's grid of it (auto_lattice in
   * rw-voxel.c: round (L/h) cells inside, round (L/h) + 4 in all) */
  const double scale = cbrt (p->volume_m3 / (p->aspect[0] * p->aspect[1] * p->aspect[2]));
  double cells = 1;
  for (int k = 0; k < 3; k++)
    {
      m->side_m[k] = p->aspect[k] * scale;
      const double n = floor (m->side_m[k] / m->h + 0.5);
      if (n < 2)
        return rw_fail (err, RW_ERROR_INPUT,
                        _("volume: a side of %.3g m is under two cells of %.3g mm at this fmax"),
                        m->side_m[k], 1e3 * m->h);
      cells *= n + 4;
      m->inside[k] = (size_t) n;
      m->grid[k] = (size_t) n + 4;
    }
  if (cells > 1e16)
    return rw_fail (err, RW_ERROR_INPUT, _("volume: %.3g cells, beyond what the model handles"),
                    cells);
  const double a = (double) m->inside[0], b = (double) m->inside[1], zi = (double) m->inside[2];
  const double per_cell = fcc ? 0.5 : 1.0;   /* nodes a cell of the cubic array */
  m->nodes = a * b * zi * per_cell;
  m->boundary_nodes = box_boundary (p->lattice, a, b, zi);
  m->plane_nodes = a * b * per_cell;

  /* the slabs (rw_slab_plan): a shoebox has the same inside cells in
   * every plane, so the cuts fall every inside planes / N planes, and the
   * thickest slab owns the ceiling of that */
  const int N = p->n_gpus;
  m->halo = fcc ? 2 : 1;
  if (m->inside[2] / (size_t) N < (size_t) m->halo)
    {
      *few_planes = true;
      return rw_fail (err, RW_ERROR_INPUT,
                      _("gpus: %d slabs of at least %d planes need %d inside planes along z; "
                        "this room has %zu"), N, m->halo, N * m->halo, m->inside[2]);
    }
  m->planes = (m->inside[2] + (size_t) N - 1) / (size_t) N;
  m->neighbours = N >= 3 ? 2 : N - 1;
  /* its grid (rw_slab_extract): per neighbour `halo` ghost planes sent,
   * one more kept, one outside; on the FCC lattice one more where the slab
   * must start on an even plane; a grid end keeps the grid's two outer
   * planes */
  const int s = m->neighbours;
  m->slab_grid_planes = m->planes + (size_t) (s * (m->halo + 2) + (2 - s) * 2 + (fcc && s > 0));
  const double in_planes = (double) m->planes + s * (m->halo + 1);
  m->rank_boundary_nodes = box_boundary (p->lattice, a, b, in_planes);
  m->rank_nodes = (double) m->planes * m->plane_nodes;

  const size_t nx = m->grid[0], ny = m->grid[1];
  const size_t row = fcc ? rw_fcc_row_len (nx) : nx;
  m->plane_bytes = row * ny * elem_bytes (p->precision);
  m->halo_bytes = (double) s * m->halo * (double) m->plane_bytes;

  m->device_bytes = cuda_device_bytes (p, nx, ny, m->slab_grid_planes,
                                      m->rank_boundary_nodes);
  m->fits = m->device_bytes <= p->gpu_memory_gib * 1073741824.0;
  m->host_bytes = host_bytes (m, m->slab_grid_planes);
  const int per_host = N < p->gpus_per_host ? N : p->gpus_per_host;
  m->host_bytes_per_host = m->host_bytes * per_host;
  m->host_fits = m->host_bytes_per_host <= p->host_memory_gib * 1073741824.0;

  const double rate = p->rate_gups * 1e9;
  m->t_interior_s = m->rank_nodes / rate;
  m->t_edge_s = fmin ((double) s * m->halo, (double) m->planes) * m->plane_nodes / rate;
  m->t_exchange_s = s * p->latency_us * 1e-6 + m->halo_bytes / (p->bandwidth_gbs * 1e9);
  m->t_step_serial_s = m->t_interior_s + m->t_exchange_s;
  m->t_step_overlap_s = fmax (m->t_interior_s - m->t_edge_s, m->t_exchange_s) + m->t_edge_s;
  m->t_step_one_s = m->nodes / rate;
  m->efficiency_serial = m->t_step_one_s / (N * m->t_step_serial_s);
  m->efficiency_overlap = m->t_step_one_s / (N * m->t_step_overlap_s);
  m->run_serial_s = (double) m->n_steps * m->t_step_serial_s;
  m->run_overlap_s = (double) m->n_steps * m->t_step_overlap_s;
  m->seconds_per_audio_second = m->t_step_overlap_s * m->fs;
  return true;
}

bool
rw_cluster_model (const RwClusterParams *p, RwClusterModel *out, RwError *err)
{
  bool few;
  return model (p, out, &few, err);
}

bool
rw_cluster_largest (const RwClusterParams *p_in, bool host_too, double *volume_m3,
                    RwClusterModel *out, RwError *err)
{
  RwClusterParams p = *p_in;
  RwClusterModel m;
  bool few;
  double lo = 0, hi = 0;
  /* up by doubles from 1 m³ to the first volume that does not fit; rooms
   * too thin for the GPUs' slabs are passed over (a larger one has more
   * planes) */
  for (double v = 1; v <= 1e9; v *= 2)
    {
      p.volume_m3 = v;
      if (!model (&p, &m, &few, err))
        {
          if (few)
            continue;
          return false;
        }
      if (!m.fits || (host_too && !m.host_fits))
        {
          hi = v;
          break;
        }
      lo = v;
    }
  if (hi == 0 && lo == 0)
    return false;   /* err: no room up to 10⁹ m³ has the planes for the GPUs */
  if (hi == 0)
    return rw_fail (err, RW_ERROR_INPUT, _("gpu memory: every room up to 10⁹ m³ fits"));
  if (lo == 0)
    return rw_fail (err, RW_ERROR_INPUT,
                    _("gpu memory: %d GPU(s) of %g GiB (hosts of %g GiB) hold no room of "
                      "these settings"), p_in->n_gpus, p_in->gpu_memory_gib, m.in.host_memory_gib);
  /* fits is monotone in the volume (the cells and the planes a slab only
   * grow with it): halve [lo, hi) to 0.01 % */
  while (hi - lo > 1e-4 * lo)
    {
      p.volume_m3 = 0.5 * (lo + hi);
      if (!model (&p, &m, &few, err))
        return false;
      if (m.fits && (!host_too || m.host_fits))
        lo = p.volume_m3;
      else
        hi = p.volume_m3;
    }
  p.volume_m3 = lo;
  *volume_m3 = lo;
  return model (&p, out, &few, err);
}
