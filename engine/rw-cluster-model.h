/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cluster-model.h — what a run spread over N GPUs needs and how long it
 * takes (issue #15; docs/CLUSTER.md): a model, not a measurement.
 *
 * The room is a shoebox of the given volume and proportions x : y : z
 * (air at RW_DEFAULT_TEMPERATURE_C), z the axis the slabs cut (rw-slab.h:
 * whole z-planes, one slab a rank, a rank a GPU). The grid is the
 * voxeliser's (rw-voxel.c, auto lattice): round (L/h) inside cells along
 * a side of length L, two outside planes beyond each end; the FCC lattice
 * keeps half of the cells as sites. From
 * that grid the model takes, for the thickest slab (ceil (inside planes / N)
 * owned planes, plus the ghost planes rw_slab_extract adds):
 *  - the GPU memory of the CUDA backend on that slab grid: the formula of
 *    its memory_bytes (kernels/rw-cuda-backend.cu, rw-cuda-fcc.cu)
 *    repeated here for a box whose boundary nodes are counted, not
 *    estimated (the test cluster-model holds the two equal byte for byte
 *    where CUDA is built);
 *  - the host memory of a rank: each rank voxelises its slab and
 *    RW_VOXEL_REACH planes round it alone (rw_slab_voxelise_ranks: the
 *    box's rw_voxel_memory_bytes in proportion to those planes), then
 *    keeps its slab;
 *  - the halo bytes a step: `halo` planes (rw_slab_halo: 1, 2 on the FCC
 *    lattice) of the stored field sent to each neighbour, a plane being
 *    what the backends' get_planes copy (row entries × ny × word);
 *  - the step time from a node-update rate (G updates/s a GPU, measured on
 *    one GPU) and a link (bandwidth per direction, latency a message):
 *      interior  = owned nodes / rate
 *      edge      = the owned planes that read the ghosts (halo a cut) / rate
 *      exchange  = neighbours × latency + bytes sent / bandwidth
 *                  (the busiest rank sends `halo` planes to each neighbour
 *                  and receives as many over one full-duplex link: its
 *                  sends take bytes sent / bandwidth; a latency a
 *                  neighbour, as today's two sendrecvs one after the
 *                  other)
 *      serial    = interior + exchange                  (what rw-solver.c
 *                                                        does today)
 *      overlap   = max (interior − edge, exchange) + edge (the exchange
 *                  hidden behind the update of the planes away from the
 *                  cuts; the planes next to a cut wait for it)
 *    and the parallel efficiency against one GPU that held the whole room:
 *    (all nodes / rate) / (N × step time).
 * What the model leaves out: the copies between device and host that the
 * exchange through MPI takes today, load imbalance other than whole planes
 * (a shoebox has the same inside cells in every plane), the energy check's
 * reduction every 128 steps, the voxelisation and post-processing time. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "rw-error.h"
#include "rw-solver.h"
#include "rw-voxel.h"

typedef struct {
  double volume_m3;
  double aspect[3];          /* x : y : z, z the slab axis; all 0: RW_CLUSTER_ASPECT */
  double fmax_hz;
  RwLattice lattice;         /* CUBIC: the 7-point scheme; FCC: the 13-point one */
  double ppw;                /* points per wavelength; 0: rw_scheme_default_ppw */
  RwPrecision precision;
  double duration_s;         /* of the impulse response */
  int n_gpus;                /* ranks, one a GPU */
  int gpus_per_host;         /* ranks a host; 0: RW_CLUSTER_GPUS_PER_HOST */
  double host_memory_gib;    /* a host's memory for its ranks; 0: RW_CLUSTER_HOST_MEMORY_GIB */
  double gpu_memory_gib;     /* what a rank may allocate on its GPU */
  double rate_gups;          /* G node updates/s of one GPU; 0: rw_cluster_default_rate */
  double bandwidth_gbs;      /* GB/s (10⁹ B) per direction between neighbouring ranks; ∞ allowed */
  double latency_us;         /* a message's latency */
  int branches;              /* branches of the frequency-dependent walls (0: none) */
} RwClusterParams;

/* x : y : z when none is given: the bench-fcc box's proportions
 * (1 : 0.79 : 0.63, docs/PERFORMANCE.md) with the longest side along z,
 * the slabs as many planes thick as the room allows. */
#define RW_CLUSTER_ASPECT_X 0.63
#define RW_CLUSTER_ASPECT_Y 0.79
#define RW_CLUSTER_ASPECT_Z 1.0

/* The defaults of the CLI: one H100 80 GB (about 78 GiB free to a
 * process), 8 a host, InfiniBand NDR between hosts (one 400 Gb/s port a
 * GPU: 50 GB/s per direction, a few µs a message). */
#define RW_CLUSTER_GPU_MEMORY_GIB 78.0
#define RW_CLUSTER_BANDWIDTH_GBS 50.0
#define RW_CLUSTER_LATENCY_US 5.0
#define RW_CLUSTER_GPUS_PER_HOST 8
/* a DGX H100's 2 TiB of host memory */
#define RW_CLUSTER_HOST_MEMORY_GIB 2048.0

typedef struct {
  RwClusterParams in;        /* the parameters, defaults filled in */
  double c, h, fs;           /* m/s, m, Hz */
  size_t n_steps;
  double side_m[3];          /* the shoebox */
  size_t inside[3];          /* inside cells along x, y, z */
  size_t grid[3];            /* the whole grid (cubic array) */
  double nodes;              /* updated nodes of the room (FCC: sites) */
  double boundary_nodes;     /* of the room */
  int halo;                  /* planes sent a cut and step */
  size_t planes;             /* owned planes of the thickest slab */
  size_t slab_grid_planes;   /* its grid's planes, ghosts and outer layers included */
  double rank_nodes;         /* nodes the thickest slab updates */
  double rank_boundary_nodes;/* boundary nodes of its grid (ghost planes included) */
  double plane_nodes;        /* nodes of one inside plane */
  size_t plane_bytes;        /* one plane of the stored field (the exchange's unit) */
  int neighbours;            /* of the busiest rank: 0, 1 or 2 */
  double halo_bytes;         /* sent by the busiest rank a step: neighbours × halo × plane_bytes */
  double device_bytes;       /* GPU memory of the largest slab */
  double host_bytes;         /* host memory of a rank (its window's voxelisation + its slab) */
  double host_bytes_per_host;/* × the ranks on a host */
  bool fits;                 /* device_bytes ≤ gpu_memory_gib GiB */
  bool host_fits;            /* host_bytes_per_host ≤ host_memory_gib GiB */
  double t_interior_s, t_edge_s, t_exchange_s;
  double t_step_serial_s, t_step_overlap_s;
  double t_step_one_s;       /* all nodes on one GPU (memory not asked) */
  double efficiency_serial, efficiency_overlap;
  double run_serial_s, run_overlap_s;
  double seconds_per_audio_second;  /* overlap step time × fs */
} RwClusterModel;

/* The node-update rate of one H100 measured in docs/PERFORMANCE.md
 * (G updates/s) for a scheme and precision. */
double rw_cluster_default_rate (RwLattice lattice, RwPrecision precision);

/* Fills in the defaults of p (its 0 fields) into *out (may be p). */
void rw_cluster_params_defaults (const RwClusterParams *p, RwClusterParams *out);

/* The model of p. Fails (RW_ERROR_INPUT, naming the parameter) on a
 * parameter out of range, and when the room has fewer inside planes than
 * the GPUs need (each slab at least `halo` planes thick). A room that does
 * not fit is a result (fits = false), not an error. */
bool rw_cluster_model (const RwClusterParams *p, RwClusterModel *out, RwError *err);

/* The largest volume (p's proportions, fmax, scheme, precision, GPUs and
 * memory; p->volume_m3 ignored) whose thickest slab fits on its GPU (and
 * with host_too, whose ranks fit in their host's memory too), to
 * 0.01 %, and its model. Fails when not
 * even 1 m³ fits. */
bool rw_cluster_largest (const RwClusterParams *p, bool host_too, double *volume_m3,
                         RwClusterModel *out, RwError *err);
