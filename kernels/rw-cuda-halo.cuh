/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-halo.cuh — the CUDA backend's device halos (issue #15;
 * rw-backend.h, "Device halos"): a slab's ghost planes exchanged with the
 * ranks across its cuts by NCCL send/recv on a stream of its own, device
 * to device, each step.
 *
 * The step of a slab with a halo attached, planes [own_z0, own_z1) owned
 * (rw_cuda_halo_windows: w[0] … w[3]):
 *  1. on the compute stream, the owned planes next to each cut that has a
 *     neighbour, [w0, w1) and [w2, w3): air, boundary sites and source
 *     cells there; then rw_cuda_halo_post records an event …
 *  2. … which the exchange stream waits for, then sends those planes of
 *     the new field down and up and receives the neighbours' into the
 *     ghost planes [w0 − halo, w0) and [w3, w3 + halo), one NCCL group;
 *  3. meanwhile on the compute stream the interior [w1, w2), then the
 *     receivers: nothing there reads the new field's ghost planes, and
 *     ghosts are never updated (the exchange overwrites them);
 *  4. rw_cuda_halo_wait: the compute stream waits for the exchange before
 *     anything else (the next step's windows read the ghosts; the energy,
 *     the plane copies and the chunk's end see them complete).
 * Only the order of the launches changes, not their arithmetic: fp64 stays
 * bit for bit what one device and the host exchange give.
 *
 * ROOMWAVE_HALO=none (benchmarks only: the ghosts are then never right)
 * keeps the windows and the split launches but exchanges nothing: the
 * step time of each slab alone.
 *
 * Built with NCCL only (RW_HAVE_NCCL in rw-config.h); without it the
 * backend's halo_id and halo_attach are NULL and the front end exchanges
 * through the host. */
#pragma once

#include "rw-config.h"
#include "rw-cuda-common.cuh"
#include "rw-backend.h"

typedef struct RwCudaHalo RwCudaHalo;

/* Joins the communicator of link (NCCL_NVLS_ENABLE=0 set first where the
 * environment has none: NVLink multicast stays off) on `device`, for a
 * slab of nz planes, owned [own_z0, own_z1), plane_bytes bytes a stored
 * plane of the field. */
RwCudaHalo *rw_cuda_halo_new (const RwHaloLink *link, int device, size_t plane_bytes,
                              size_t own_z0, size_t own_z1, size_t nz, RwError *err);
/* The owned planes cut in three: [w0, w1) next to the lower cut (empty
 * without a neighbour there), [w1, w2) the interior, [w2, w3) next to the
 * upper cut; w0 = own_z0, w3 = own_z1. */
void rw_cuda_halo_windows (const RwCudaHalo *h, size_t w[4]);
/* Step 2 after the windows' launches on `compute`: the exchange of the new
 * field's planes (`field`, plane 0 at its start). */
void rw_cuda_halo_post (RwCudaHalo *h, cudaStream_t compute, void *field);
/* Step 4: `compute` waits for the last exchange posted. */
void rw_cuda_halo_wait (RwCudaHalo *h, cudaStream_t compute);
/* The first failure of a post or wait since the last call (NCCL's and
 * CUDA's, and a communicator's asynchronous error), as err. */
bool rw_cuda_halo_check (RwCudaHalo *h, RwError *err);
void rw_cuda_halo_free (RwCudaHalo *h);

/* One step of a slab with a halo, steps 1–4 above, for either path:
 * window (w, z0, z1, receivers) launches the planes [z0, z1) of window w
 * (0 and 1 the cuts' planes, 2 the interior, which alone takes the
 * receivers) on `compute`; `field` is the new field the exchange sends. */
template <typename F>
static inline void
rw_cuda_halo_step_windows (RwCudaHalo *h, cudaStream_t compute, void *field, F &&window)
{
  size_t w[4];
  rw_cuda_halo_windows (h, w);
  window (0, w[0], w[1], false);
  window (1, w[2], w[3], false);
  rw_cuda_halo_post (h, compute, field);
  window (2, w[1], w[2], true);
  rw_cuda_halo_wait (h, compute);
}

/* The source's cells on the planes [z0, z1) (plane: entries a stored
 * plane): the part of a step's source that a window applies after its
 * own update (rw_kernel_io's arithmetic, cell by cell as one launch). */
static inline RwCudaSource
rw_cuda_source_planes (const RwCudaSource &all, long long plane, size_t z0, size_t z1)
{
  RwCudaSource src;
  src.n = 0;
  for (int c = 0; c < all.n; c++)
    if ((size_t) (all.cell[c] / plane) >= z0 && (size_t) (all.cell[c] / plane) < z1)
      {
        src.cell[src.n] = all.cell[c];
        src.weight[src.n++] = all.weight[c];
      }
  return src;
}

/* The backend's operations (RwBackendOps.halo_id, halo_attach): NCCL's
 * unique id; the halo of a state of either path (7-point, FCC). */
bool rw_cuda_halo_id_op (void *buf, size_t len, RwError *err);
bool rw_cuda_halo_attach_op (void *state, const RwHaloLink *link, RwError *err);

/* The FCC path's attach (rw-cuda-fcc.cu): the halo and its boundary
 * sites' ranges per plane. */
bool rw_cuda_fcc_halo_attach (void *state, const RwHaloLink *link, RwError *err);
