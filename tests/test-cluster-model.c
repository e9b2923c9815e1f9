/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cluster-model: the model of a run over N GPUs (rw-cluster-model.h)
 * against values worked out here by other routes:
 *  - the grid by hand (h = c/(fmax·ppw), round (L/h) cells a side), the
 *    steps against docs/PERFORMANCE.md's 53 694 (7-point, 4 kHz, 1 s) and
 *    the node counts against its measured boxes of 1000 m³ at 4 kHz (718 M
 *    cells, 148 M sites: another orientation of the same proportions, so
 *    within the rounding of the sides);
 *  - the voxeliser and the slab code themselves on a 4 × 3 × 2.5 m box
 *    (rw_voxelise, rw_slab_plan, rw_slab_extract): inside and boundary
 *    nodes, the grid, the planes of the thickest slab, its grid's planes
 *    and boundary nodes — the inputs of the memory formula; where the CUDA
 *    backend is built in, its own memory_bytes of that grid in the three
 *    precisions (pure arithmetic: no device needed);
 *  - halo bytes = neighbours × halo planes × (row entries × ny × word);
 *  - the GPU memory against a hand sum (two fields and a kind byte an
 *    entry, 48 B a boundary site), fit exactly at the edge and not a byte
 *    under it;
 *  - the step times from their definitions, the efficiency rising with
 *    the bandwidth to (planes / N) / ceil (planes / N) at infinite
 *    bandwidth and no latency (1 where N divides the planes);
 *  - the largest room: fits, and 0.1 % more does not (GPU, and host);
 *  - bad parameters refused, naming them. */
#include "rw-test.h"

#include <math.h>
#include <string.h>

#include "rw-backend.h"
#include "rw-cluster-model.h"
#include "rw-shapes.h"
#include "rw-slab.h"

static RwClusterParams
params (RwLattice l, RwPrecision prec, double volume, double fmax, int gpus)
{
  RwClusterParams p = {
    .volume_m3 = volume, .fmax_hz = fmax, .lattice = l, .precision = prec,
    .duration_s = 1.0, .n_gpus = gpus, .gpu_memory_gib = 78.0, .bandwidth_gbs = 50.0,
    .latency_us = 5.0,
  };
  return p;
}

static double
hand_h (double fmax, double ppw)
{
  return 331.3 * sqrt (1.0 + 20.0 / 273.15) / (fmax * ppw);
}

/* The grid of 1000 m³ at 4 kHz by hand, both lattices. */
static void
check_grid_by_hand (void)
{
  const RwLattice lat[2] = { RW_LATTICE_CUBIC, RW_LATTICE_FCC };
  const double ppw[2] = { 7.75, 5.75 }, measured[2] = { 718e6, 148e6 };
  const size_t steps[2] = { 53694, 23000 };
  for (int i = 0; i < 2; i++)
    {
      RwClusterParams p = params (lat[i], RW_PRECISION_F32, 1000, 4000, 1);
      RwClusterModel m;
      RwError err = { 0 };
      RW_CHECK (rw_cluster_model (&p, &m, &err), "model: %s", err.message);
      const double h = hand_h (4000, ppw[i]);
      RW_CHECK_CLOSE (m.h, h, 1e-12, "h");
      /* 0.63 : 0.79 : 1 of 1000 m³ */
      const double s = cbrt (1000 / (0.63 * 0.79));
      const double side[3] = { 0.63 * s, 0.79 * s, s };
      double cells = 1;
      for (int k = 0; k < 3; k++)
        {
          const double n = floor (side[k] / h + 0.5);
          cells *= n;
          RW_CHECK (m.inside[k] == (size_t) n && m.grid[k] == (size_t) n + 4,
                    "axis %d: %zu inside, %zu grid; by hand %.0f, %.0f", k, m.inside[k],
                    m.grid[k], n, n + 4);
        }
      const double nodes = lat[i] == RW_LATTICE_FCC ? cells / 2 : cells;
      RW_CHECK_CLOSE (m.nodes, nodes, 0.5, "nodes");
      RW_CHECK (fabs (m.nodes / measured[i] - 1) < 0.03, "nodes %.4g against %.4g measured",
                m.nodes, measured[i]);
      RW_CHECK (m.n_steps == steps[i], "steps %zu, not %zu", m.n_steps, steps[i]);
      /* one GPU: the whole room, nothing exchanged, efficiency 1 */
      RW_CHECK (m.planes == m.inside[2] && m.neighbours == 0 && m.halo_bytes == 0
                && m.slab_grid_planes == m.grid[2], "one GPU: the whole grid");
      RW_CHECK_CLOSE (m.efficiency_overlap, 1.0, 1e-12, "efficiency on one GPU");
      RW_CHECK_CLOSE (m.run_overlap_s, steps[i] * nodes / (p.rate_gups > 0 ? p.rate_gups : rw_cluster_default_rate (lat[i], RW_PRECISION_F32)) / 1e9,
                      1e-9 * m.run_overlap_s, "run time on one GPU = steps × nodes / rate");
      RW_NOTE ("%s 1000 m³ 4 kHz: h %.3f mm, %.4g nodes, %zu steps, %.2f s a second of audio",
               lat[i] == RW_LATTICE_FCC ? "FCC" : "7-point", 1e3 * m.h, m.nodes, m.n_steps,
               m.seconds_per_audio_second);
    }
}

/* The model's grid and slabs against the voxeliser's and the slab code's
 * on the box they describe. */
static void
check_against_voxeliser (RwLattice l)
{
  const bool fcc = l == RW_LATTICE_FCC;
  RwClusterParams p = params (l, RW_PRECISION_F32, 30, 1000, 3);
  p.aspect[0] = 4, p.aspect[1] = 3, p.aspect[2] = 2.5;
  RwClusterModel m;
  RwError err = { 0 };
  RW_CHECK (rw_cluster_model (&p, &m, &err), "model: %s", err.message);
  RwMesh *box = rw_shape_box (4, 3, 2.5);
  RwGrid *g = fcc ? rw_voxelise_fcc (box, m.h, 1, &err) : rw_voxelise (box, m.h, 1, &err);
  RW_CHECK (g != NULL, "voxelise: %s", err.message);
  if (g == NULL)
    {
      rw_mesh_free (box);
      return;
    }
  RW_CHECK (g->nx == m.grid[0] && g->ny == m.grid[1] && g->nz == m.grid[2],
            "grid %zu × %zu × %zu, model %zu × %zu × %zu", g->nx, g->ny, g->nz, m.grid[0],
            m.grid[1], m.grid[2]);
  RW_CHECK (fabs ((double) g->n_inside - m.nodes) <= (fcc ? 1 : 0),
            "inside nodes %zu, model %.1f", g->n_inside, m.nodes);
  RW_CHECK (fabs ((double) g->n_boundary - m.boundary_nodes) <= (fcc ? 0.02 * m.boundary_nodes : 0),
            "boundary nodes %zu, model %.1f", g->n_boundary, m.boundary_nodes);
  RW_NOTE ("%s box: %zu inside (model %.0f), %zu boundary (model %.0f)", fcc ? "FCC" : "cubic",
           g->n_inside, m.nodes, g->n_boundary, m.boundary_nodes);

  /* the CUDA backend's own count of the whole grid on one GPU */
  const RwBackendOps *cuda = rw_backend_find ("cuda");
  const RwPrecision precs[3] = { RW_PRECISION_F16, RW_PRECISION_F32, RW_PRECISION_F64 };
  for (int i = 0; cuda != NULL && cuda->memory_bytes != NULL && i < 3; i++)
    {
      RwClusterParams q = p;
      q.n_gpus = 1;
      q.precision = precs[i];
      RwClusterModel one;
      RW_CHECK (rw_cluster_model (&q, &one, &err), "model: %s", err.message);
      RwSolverSetup su = { .grid = g, .precision = precs[i], .boundary = RW_BOUNDARY_FV };
      const double backend = (double) cuda->memory_bytes (&su);
      RW_CHECK (fabs (one.device_bytes / backend - 1) < 1e-3,
                "%s %s: model %.0f B, the CUDA backend's memory_bytes %.0f B",
                fcc ? "FCC" : "cubic", rw_precision_name (precs[i]), one.device_bytes, backend);
      RW_NOTE ("%s %s: model %.0f B, CUDA memory_bytes %.0f B", fcc ? "FCC" : "cubic",
               rw_precision_name (precs[i]), one.device_bytes, backend);
    }
  if (cuda == NULL)
    RW_NOTE ("CUDA not built in: the backend's memory_bytes not compared");

  size_t cuts[4];
  RW_CHECK (rw_slab_plan (g, 3, cuts, &err), "plan: %s", err.message);
  size_t thickest = 0;
  for (int r = 0; r < 3; r++)
    {
      /* the inside planes a rank owns: the grid's outer two planes a side
       * hold none */
      size_t z0 = cuts[r] < 2 ? 2 : cuts[r], z1 = cuts[r + 1] > g->nz - 2 ? g->nz - 2 : cuts[r + 1];
      thickest = z1 - z0 > thickest ? z1 - z0 : thickest;
    }
  RW_CHECK (thickest == m.planes, "thickest slab %zu inside planes, model %zu", thickest,
            m.planes);
  RwSlab s;
  RW_CHECK (rw_slab_extract (g, cuts[1], cuts[2], &s, &err), "extract: %s", err.message);
  if (s.grid != NULL)
    {
      /* the middle rank, with the model's formulas at its own planes:
       * owned + (halo + 2) a side (+ 1 on FCC where the start is odd);
       * boundary nodes: a ring a plane of its inside planes (owned and
       * halo + 1 ghosts a side), the two end faces inside the ring, half
       * of them on the FCC lattice */
      const size_t own = cuts[2] - cuts[1];
      const size_t planes = own + 2 * (size_t) (m.halo + 2);
      RW_CHECK (s.grid->nz == planes || (fcc && s.grid->nz == planes + 1),
                "middle slab grid %zu planes (owns %zu)", s.grid->nz, own);
      RW_CHECK (m.slab_grid_planes == m.planes + 2 * (size_t) (m.halo + 2) + (fcc ? 1 : 0),
                "model's slab grid %zu planes", m.slab_grid_planes);
      RW_CHECK (s.halo == m.halo, "halo %d, model %d", s.halo, m.halo);
      const double a = (double) m.inside[0], b = (double) m.inside[1];
      const double ring = a * b - (a - 2) * (b - 2), P = (double) own + 2 * (m.halo + 1);
      const double expect = (ring * P + 2 * (a - 2) * (b - 2)) / (fcc ? 2 : 1);
      RW_CHECK (fabs ((double) s.grid->n_boundary - expect) <= (fcc ? 0.03 : 0.0) * expect,
                "middle slab boundary nodes %zu, by the model's count %.1f", s.grid->n_boundary,
                expect);
      if (own == m.planes)
        RW_CHECK_CLOSE (m.rank_boundary_nodes, expect, 0.5, "the model's slab boundary nodes");
      RW_NOTE ("%s middle slab: %zu planes, %zu boundary nodes (model's count %.0f)",
               fcc ? "FCC" : "cubic", s.grid->nz, s.grid->n_boundary, expect);
      rw_slab_clear (&s);
    }
  rw_grid_free (g);
  rw_mesh_free (box);
}

static void
check_halo_and_memory (void)
{
  RwError err = { 0 };
  RwClusterModel m;
  /* 7-point, fp16, 4 GPUs: one plane of nx·ny halves to each of two */
  RwClusterParams p = params (RW_LATTICE_CUBIC, RW_PRECISION_F16, 500, 2000, 4);
  RW_CHECK (rw_cluster_model (&p, &m, &err), "model: %s", err.message);
  RW_CHECK (m.halo == 1 && m.neighbours == 2, "halo %d, neighbours %d", m.halo, m.neighbours);
  RW_CHECK (m.plane_bytes == m.grid[0] * m.grid[1] * 2, "plane bytes %zu", m.plane_bytes);
  RW_CHECK_CLOSE (m.halo_bytes, 2.0 * 1 * m.grid[0] * m.grid[1] * 2, 0, "7-point halo bytes");
  RW_CHECK (m.planes == (m.inside[2] + 3) / 4, "planes %zu of %zu", m.planes, m.inside[2]);
  /* FCC, fp32, 8 GPUs: two folded planes to each of two */
  p = params (RW_LATTICE_FCC, RW_PRECISION_F32, 500, 2000, 8);
  RW_CHECK (rw_cluster_model (&p, &m, &err), "model: %s", err.message);
  const double fold = (double) ((m.grid[0] + 1) / 2) * m.grid[1] * 4;
  RW_CHECK (m.halo == 2 && m.neighbours == 2, "halo %d, neighbours %d", m.halo, m.neighbours);
  RW_CHECK_CLOSE (m.halo_bytes, 2 * 2 * fold, 0, "FCC halo bytes");
  /* two GPUs: one neighbour */
  p.n_gpus = 2;
  RW_CHECK (rw_cluster_model (&p, &m, &err), "model: %s", err.message);
  RW_CHECK_CLOSE (m.halo_bytes, 1 * 2 * fold, 0, "FCC halo bytes on two GPUs");

  /* GPU memory of one GPU, FCC fp32, by hand: two fields of 4 B, a kind
   * byte and (at most) an eighth of a byte of air words an entry of the
   * folded rows, 48 B a boundary site (node 24, wall entries 24). The
   * rows (269 sites: x is the box's shortest side) take three warps of
   * 128 entries by rows, a third of their lanes idle, so they are laid
   * flat and padded to 4 entries (rw_cuda_fcc_pitch), not to 32 */
  p = params (RW_LATTICE_FCC, RW_PRECISION_F32, 1000, 4000, 1);
  RW_CHECK (rw_cluster_model (&p, &m, &err), "model: %s", err.message);
  const size_t row = (m.grid[0] + 1) / 2;
  RW_CHECK (row == 269, "rows of %zu sites", row);
  const double entries = (double) ((row + 3) / 4 * 4) * m.grid[1] * m.grid[2];
  const double hand = entries * 9.125 + m.boundary_nodes * 48;
  RW_CHECK (fabs (m.device_bytes / hand - 1) < 0.01, "device bytes %.6g, by hand %.6g",
            m.device_bytes, hand);
  /* the edge: exactly the bytes fits, a byte less does not */
  p.gpu_memory_gib = m.device_bytes / 1073741824.0;
  RwClusterModel e;
  RW_CHECK (rw_cluster_model (&p, &e, &err) && e.fits, "fits at exactly its bytes");
  p.gpu_memory_gib = (m.device_bytes - 1) / 1073741824.0;
  RW_CHECK (rw_cluster_model (&p, &e, &err) && !e.fits, "does not fit a byte under");
  /* fp16 needs less than fp32, fp64 more */
  RwClusterModel m16, m64;
  p.gpu_memory_gib = 78;
  p.precision = RW_PRECISION_F16;
  rw_cluster_model (&p, &m16, &err);
  p.precision = RW_PRECISION_F64;
  rw_cluster_model (&p, &m64, &err);
  RW_CHECK_CLOSE ((m.device_bytes - m16.device_bytes), 2 * 2 * (entries + 3.0 * entries / m.grid[2] + 256),
                  1, "fp32 − fp16: two fields of 2 B an entry (with their guard planes)");
  RW_CHECK (m64.device_bytes > m.device_bytes, "fp64 above fp32");
}

static void
check_times (void)
{
  RwError err = { 0 };
  RwClusterModel m;
  RwClusterParams p = params (RW_LATTICE_FCC, RW_PRECISION_F32, 2000, 4000, 16);
  p.rate_gups = 150;
  RW_CHECK (rw_cluster_model (&p, &m, &err), "model: %s", err.message);
  const double rate = 150e9;
  RW_CHECK_CLOSE (m.t_interior_s, m.planes * m.plane_nodes / rate, 1e-15, "interior");
  RW_CHECK_CLOSE (m.t_edge_s, 2 * 2 * m.plane_nodes / rate, 1e-15, "edge: two planes a cut");
  RW_CHECK_CLOSE (m.t_exchange_s, 2 * 5e-6 + m.halo_bytes / 50e9, 1e-15, "exchange");
  RW_CHECK_CLOSE (m.t_step_serial_s, m.t_interior_s + m.t_exchange_s, 1e-15, "serial");
  RW_CHECK_CLOSE (m.t_step_overlap_s,
                  fmax (m.t_interior_s - m.t_edge_s, m.t_exchange_s) + m.t_edge_s, 1e-15,
                  "overlap");
  RW_CHECK_CLOSE (m.efficiency_overlap, m.nodes / rate / (16 * m.t_step_overlap_s), 1e-12,
                  "efficiency");
  /* a slow link: the exchange outlasts the planes away from the cuts, and
   * the planes next to them wait for it */
  p.bandwidth_gbs = 1;
  RW_CHECK (rw_cluster_model (&p, &m, &err), "model: %s", err.message);
  RW_CHECK (m.t_exchange_s > m.t_interior_s, "exchange %.4g s over interior %.4g s",
            m.t_exchange_s, m.t_interior_s);
  RW_CHECK_CLOSE (m.t_step_overlap_s, m.t_exchange_s + 2 * 2 * m.plane_nodes / rate, 1e-15,
                  "overlap on a slow link: exchange + edge");
  p.bandwidth_gbs = 50;
  rw_cluster_model (&p, &m, &err);
  RW_CHECK_CLOSE (m.run_overlap_s, m.n_steps * m.t_step_overlap_s, 1e-9, "run");

  /* efficiency rises with the bandwidth to the planes' balance (no
   * latency: it alone would keep the serial form below) */
  p.latency_us = 0;
  double last = 0;
  for (double bw = 1; bw <= 1e5; bw *= 10)
    {
      p.bandwidth_gbs = bw;
      rw_cluster_model (&p, &m, &err);
      RW_CHECK (m.efficiency_serial > last, "serial efficiency at %g GB/s: %.4f after %.4f", bw,
                m.efficiency_serial, last);
      last = m.efficiency_serial;
    }
  p.bandwidth_gbs = INFINITY;
  p.latency_us = 0;
  RW_CHECK (rw_cluster_model (&p, &m, &err), "model at ∞: %s", err.message);
  const double balance = ((double) m.inside[2] / 16) / (double) ((m.inside[2] + 15) / 16);
  RW_CHECK_CLOSE (m.efficiency_serial, balance, 1e-12, "serial efficiency at ∞ GB/s");
  RW_CHECK_CLOSE (m.efficiency_overlap, balance, 1e-12, "overlapped efficiency at ∞ GB/s");
  RW_CHECK (last > 0.99 * balance, "efficiency at 10⁵ GB/s %.5f near %.5f", last, balance);
  /* a GPU count that divides the planes: exactly 1 */
  p.n_gpus = (int) (m.inside[2] / 20);
  while (m.inside[2] % (size_t) p.n_gpus != 0)
    p.n_gpus--;
  RW_CHECK (rw_cluster_model (&p, &m, &err), "model: %s", err.message);
  RW_CHECK_CLOSE (m.efficiency_overlap, 1.0, 1e-12, "efficiency, planes divided evenly");
  RW_NOTE ("%d GPUs dividing %zu planes: efficiency %.15f", p.n_gpus, m.inside[2],
           m.efficiency_overlap);
}

static void
check_largest (void)
{
  RwError err = { 0 };
  RwClusterParams p = params (RW_LATTICE_FCC, RW_PRECISION_F16, 0, 4000, 64);
  for (int host = 0; host < 2; host++)
    {
      double v = 0;
      RwClusterModel m, up;
      RW_CHECK (rw_cluster_largest (&p, host, &v, &m, &err), "largest: %s", err.message);
      RW_CHECK (m.fits && (!host || m.host_fits) && m.in.volume_m3 == v, "the largest fits");
      p.volume_m3 = v * 1.001;
      RW_CHECK (rw_cluster_model (&p, &up, &err), "model: %s", err.message);
      RW_CHECK (host ? !up.host_fits : !up.fits, "0.1 %% more does not fit (host %d)", host);
      /* the inverse: its bytes at the limit */
      RW_CHECK (host ? up.host_bytes_per_host > 2048.0 * 1073741824.0
                     : up.device_bytes > 78.0 * 1073741824.0 && m.device_bytes > 0.99 * 78.0 * 1073741824.0,
                "bytes at the limit");
      RW_NOTE ("largest FCC fp16 room at 4 kHz on 64 GPUs%s: %.6g m³", host ? " (host memory too)" : "", v);
    }
  /* one GPU holds the 1000 m³ at 8 kHz in fp16 (docs/PERFORMANCE.md: ~6 GB) */
  p = params (RW_LATTICE_FCC, RW_PRECISION_F16, 1000, 8000, 1);
  RwClusterModel m;
  RW_CHECK (rw_cluster_model (&p, &m, &err) && m.fits, "1000 m³ at 8 kHz fits one GPU");
  RW_CHECK (m.device_bytes > 5e9 && m.device_bytes < 7.5e9, "its bytes %.4g, about 6 GB",
            m.device_bytes);
}

static void
check_refused (void)
{
  RwError err = { 0 };
  RwClusterModel m;
  RwClusterParams p = params (RW_LATTICE_FCC, RW_PRECISION_F32, -1, 4000, 4);
  RW_CHECK (!rw_cluster_model (&p, &m, &err) && strstr (err.message, "volume"),
            "negative volume: %s", err.message);
  p = params (RW_LATTICE_FCC, RW_PRECISION_F32, 100, 4000, 0);
  RW_CHECK (!rw_cluster_model (&p, &m, &err) && strstr (err.message, "gpus"), "0 GPUs: %s",
            err.message);
  p = params (RW_LATTICE_FCC, RW_PRECISION_F32, 100, 4000, 1);
  p.bandwidth_gbs = 0;
  RW_CHECK (!rw_cluster_model (&p, &m, &err) && strstr (err.message, "bandwidth"),
            "0 bandwidth: %s", err.message);
  /* 30 m³ at 500 Hz: too few planes for 64 slabs of 2 */
  p = params (RW_LATTICE_FCC, RW_PRECISION_F32, 30, 500, 64);
  RW_CHECK (!rw_cluster_model (&p, &m, &err) && strstr (err.message, "gpus"),
            "too many GPUs: %s", err.message);
  p.lattice = (RwLattice) 7;
  RW_CHECK (!rw_cluster_model (&p, &m, &err) && strstr (err.message, "scheme"),
            "unknown scheme: %s", err.message);
}

int
main (void)
{
  check_grid_by_hand ();
  check_against_voxeliser (RW_LATTICE_CUBIC);
  check_against_voxeliser (RW_LATTICE_FCC);
  check_halo_and_memory ();
  check_times ();
  check_largest ();
  check_refused ();
  return rw_test_finish ();
}
