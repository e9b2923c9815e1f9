/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-backend.h — the contract between the solver front end (rw-solver.c)
 * and its backends, and the registry the solver chooses from.
 *
 * A backend steps the field of rw-scheme.h on one kind of device (CPU:
 * rw-cpu-backend.c; CUDA: kernels/). It says what it can do in capability
 * fields, which the front end tests instead of the backend's identity: a
 * new backend (another GPU API, another device) is an entry in the
 * registry (rw_backend_at) with its capabilities, and nothing in the front
 * end names it.
 *
 * Devices: a backend may drive several devices (GPUs); RwSolverSetup.device
 * picks one, 0 … device_count − 1, and the front end refuses any other
 * index before create. The CPU backend has one device, the host.
 *
 * Memory: memory_bytes is what the backend allocates where its field lives
 * (host RAM for host_memory backends, else the device, which the backend
 * checks itself at create against the device's free memory); host_bytes is
 * the host RAM it takes besides (a device backend's host copies, receiver
 * buffers, work lists). The front end adds host RAM up, with its own
 * receiver buffers, and refuses what would not fit before any allocation.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "rw-error.h"
#include "rw-exact-sum.h"

/* A backend's energy reading: the discrete energy of the current field
 * pair (rw_field_energy's sum, in double) and the sum of p over the inside
 * cells (the room's uniform mode, rw_solver_uniform_mode), exact
 * (rw-exact-sum.h): the same bits whatever the backend, its threads or
 * blocks, and the ranks. The energy does not see the uniform mode (a
 * uniform field has none), which λ² rounded down keeps from growing
 * (rw-scheme.h). */
typedef struct {
  double energy;
  RwExactSum sum;
} RwEnergyReading;

typedef struct RwSolverSetup RwSolverSetup;

/* A slab's place among the ranks, for a backend that exchanges its halo
 * planes itself (RwBackendOps.halo_attach). */
#define RW_HALO_ID_BYTES 128
typedef struct {
  int rank, size;              /* this rank, of size */
  int down, up;                /* the ranks across the cuts below and above; −1: none */
  int halo;                    /* planes sent each way every step (rw_slab_halo) */
  unsigned char id[RW_HALO_ID_BYTES];   /* halo_id's bytes, from rank 0 */
} RwHaloLink;

/* One device of a backend (rw_backend_device_info). */
typedef struct {
  char name[256];              /* "NVIDIA H100 80GB HBM3", "AMD EPYC … (16 threads)" */
  size_t memory_bytes;         /* total memory of the device (host RAM for the CPU) */
  size_t free_bytes;           /* free now, where known; else 0 */
} RwDeviceInfo;

/* What a backend implements. State is opaque to the caller. */
typedef struct RwBackendOps {
  const char *name;                                          /* "cpu", "cuda" */
  /* capabilities */
  bool supports_f16;           /* fp16 storage (RW_PRECISION_F16) */
  bool host_memory;            /* the field lives in host RAM (memory_bytes counts there) */
  int max_steps_per_pass;      /* most time steps one pass of its kernel advances */
  bool supports_branches;      /* FV with frequency-dependent admittances (RwSolverSetup.surface_Y) */
  bool supports_fcc;           /* grids on the FCC lattice (rw-solver.h, rw-scheme-fcc.h) */
  /* true when usable here (at least one device); else why (e.g. "no CUDA
   * device found"). */
  bool (*available) (char *why, size_t why_len);
  /* Devices usable here (0 when not available). */
  int (*device_count) (void);
  /* Name and memory of device `device`. */
  bool (*device_info) (int device, RwDeviceInfo *info, RwError *err);
  /* Bytes the backend will allocate for this setup where its field lives
   * (checked before any allocation; out-of-memory is predicted, not
   * discovered). */
  size_t (*memory_bytes) (const RwSolverSetup *setup);
  /* Host RAM besides memory_bytes (NULL: none). */
  size_t (*host_bytes) (const RwSolverSetup *setup);
  void *(*create) (const RwSolverSetup *setup, RwError *err);
  /* Runs steps [step0, step0 + n), writing receiver r's sample of step k
   * to rcv[r * stride + k]. Checks the field for non-finite values at
   * least once per call and fails with RW_ERROR_UNSTABLE, naming the step. */
  bool (*advance) (void *state, size_t step0, size_t n, double *rcv, size_t stride, RwError *err);
  /* Copies the whole field (nx·ny·nz each, as double) at the current step:
   * p at time n and p_prev at time n−1. Either may be NULL. */
  bool (*read_field) (void *state, double *p, double *p_prev, RwError *err);
  /* The growth monitor's reading (rw_solver_advance), taken every
   * RW_ENERGY_CHECK_STEPS steps (RwEnergyReading). */
  bool (*energy) (void *state, RwEnergyReading *out, RwError *err);
  /* Copies one plane of p: axis 0 → x = index (ny·nz values, y fastest),
   * axis 1 → y = index (nx·nz, x fastest), axis 2 → z = index (nx·ny). */
  bool (*read_slice) (void *state, int axis, size_t index, float *out, RwError *err);
  const char *(*device_name) (void *state);                 /* "AMD EPYC … (16 threads)", "NVIDIA H100 …" */
  /* Slabs (issue #15; rw-slab.h): a backend that can step one slab of a
   * grid spread over ranks gives these (NULL: it cannot). They copy n
   * planes of p (the current field, time n) from grid plane z on, in the
   * backend's stored layout and precision, plane_bytes (state) bytes a
   * plane, to buf and from buf: the halo exchange's payload, bit for bit.
   * With RwSolverSetup.own_z1 > 0 its energy readings sum over the owned
   * planes [own_z0, own_z1) only (cells, their edges towards +z, the
   * branches of their boundary nodes; FCC wall links by the site that
   * holds them), so that the ranks' readings add up to the whole grid's. */
  size_t (*plane_bytes) (void *state);
  bool (*get_planes) (void *state, size_t z, size_t n, void *buf, RwError *err);
  bool (*set_planes) (void *state, size_t z, size_t n, const void *buf, RwError *err);
  /* Device halos (issue #15; NULL: the front end exchanges the halo
   * planes through the host, get_planes and set_planes). halo_id fills
   * buf (≤ RW_HALO_ID_BYTES) with what every rank needs to join one
   * communicator (NCCL's unique id); the front end calls it on rank 0 and
   * broadcasts it. halo_attach, called by every rank at once on a backend
   * stepping a slab (own_z0, own_z1): it joins that communicator, and from
   * then on each step of advance exchanges link->halo planes with ranks
   * down and up on the device, overlapped with the update of the slab's
   * interior, so that the front end only agrees once per advance call.
   * ROOMWAVE_HALO=host makes the front end exchange through the host
   * instead (benchmarks: the overlap's worth); ROOMWAVE_HALO=none makes
   * the CUDA backend exchange nothing (benchmarks only: each slab alone).
   * A halo_attach failing with RW_ERROR_UNSUPPORTED on every rank leaves
   * the halos to the host. */
  bool (*halo_id) (void *buf, size_t len, RwError *err);
  bool (*halo_attach) (void *state, const RwHaloLink *link, RwError *err);
  /* Checkpoints (issue #15; rw-checkpoint.h; NULL: none): everything the
   * run continues from — both fields and every branch state — as
   * state_bytes (state) opaque bytes, which load_state takes back on a
   * backend created with the same setup. */
  size_t (*state_bytes) (void *state);
  bool (*save_state) (void *state, void *buf, RwError *err);
  bool (*load_state) (void *state, const void *buf, RwError *err);
  void (*destroy) (void *state);
  /* Opens device `device` ahead of create (NULL: nothing worth it), on
   * any thread: what the first call on a device costs before any work —
   * on CUDA the driver's start and the device's primary context, about
   * 0.2 s on an H100 (issue #14) — so that the front end can overlap it
   * with the import and the voxeliser. Failures are ignored: create
   * meets and reports them. */
  void (*warm_up) (int device);
  /* Gives device `device` back once the process is done with it (NULL:
   * nothing worth it), on any thread, after every state on it is
   * destroyed: on CUDA the device's primary context (cudaDeviceReset),
   * whose teardown, about 0.1 s on an H100 (issue #14), would otherwise
   * hold the process's exit. Only a front end that owns the process calls
   * it (the CLI, for its last run: RwSimConfig.release_device). */
  void (*release) (int device);
  /* The 16 bytes of device `device`'s UUID, unique to the GPU whatever
   * index a process's visibility variables give it (NULL, or false: none
   * known). The front end compares the ranks' to tell whether two share a
   * device (rw_slab_devices_shared). */
  bool (*device_uuid) (int device, unsigned char uuid[16]);
} RwBackendOps;

extern const RwBackendOps rw_cpu_backend;
/* NULL when Roomwave was built without CUDA. */
const RwBackendOps *rw_cuda_backend (void);

/* The registry: the backends built in, in the order AUTO prefers them
 * (devices first, the CPU last). i ≥ rw_backend_count () → NULL. */
#define RW_BACKEND_MAX 8
size_t rw_backend_count (void);
const RwBackendOps *rw_backend_at (size_t i);
/* The backend named `name` ("cpu", "cuda"), NULL when none is built in. */
const RwBackendOps *rw_backend_find (const char *name);
/* The device of a rank whose place among its host's ranks is local_rank,
 * counted on from `device`: one device per rank on each host, modulo the
 * devices ops has (at least 1). */
int rw_backend_rank_device (const RwBackendOps *ops, int device, int local_rank);
