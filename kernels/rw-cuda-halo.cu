/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-halo.cu — the CUDA backend's device halos over NCCL
 * (rw-cuda-halo.cuh has the step; rw-backend.h the contract).
 *
 * One communicator per state (ncclCommInitRank with the id rank 0 made,
 * which the front end broadcast), one exchange stream of the highest
 * priority — its NCCL kernel gets SMs as soon as blocks of the interior's
 * launch retire, rather than after the whole launch — and two events: the
 * windows done (compute → exchange), the exchange done (exchange →
 * compute). The planes go as bytes (ncclUint8): the stored layout and
 * precision, bit for bit, as get_planes and set_planes copy them. */
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "rw-cuda-halo.cuh"
#include "rw-cuda-state.cuh"
#include "rw-cuda-fcc.cuh"

#if RW_HAVE_NCCL
#include <nccl.h>

static_assert (sizeof (ncclUniqueId) <= RW_HALO_ID_BYTES, "NCCL's unique id exceeds RW_HALO_ID_BYTES");

struct RwCudaHalo
{
  int device;
  int rank, size, down, up, halo;
  bool skip;                    /* ROOMWAVE_HALO=none: nothing exchanged (benchmarks) */
  size_t plane_bytes, w[4];
  ncclComm_t comm;
  cudaStream_t stream;
  cudaEvent_t ready, done;
  char failed[256];             /* the first failure since rw_cuda_halo_check; "" none */
};

static bool
rw_nccl_ok (ncclResult_t r, RwError *err, const char *what)
{
  if (r == ncclSuccess)
    return true;
  return rw_fail (err, RW_ERROR_INTERNAL, _("NCCL error in %s: %s"), what, ncclGetErrorString (r));
}

#define RW_NCCL(call) rw_nccl_ok ((call), err, #call)

/* A failure inside a step: kept, said at the chunk's end. */
static void
rw_halo_note (RwCudaHalo *h, const char *what, const char *why)
{
  if (h->failed[0] == '\0')
    snprintf (h->failed, sizeof h->failed, "%s: %s", what, why);
}

bool
rw_cuda_halo_id_op (void *buf, size_t len, RwError *err)
{
  ncclUniqueId id;
  if (len < sizeof id)
    return rw_fail (err, RW_ERROR_INTERNAL, _("NCCL's unique id takes %zu bytes, %zu given"),
                    sizeof id, len);
  if (!RW_NCCL (ncclGetUniqueId (&id)))
    return false;
  memset (buf, 0, len);
  memcpy (buf, &id, sizeof id);
  return true;
}

RwCudaHalo *
rw_cuda_halo_new (const RwHaloLink *link, int device, size_t plane_bytes, size_t own_z0,
                  size_t own_z1, size_t nz, RwError *err)
{
  const size_t h = link->halo > 0 ? (size_t) link->halo : 0;
  /* the ghosts must lie in the slab's grid, the sent planes in its owned
   * ones (rw_slab_plan: every slab at least `halo` planes thick) */
  const bool fits = own_z0 < own_z1 && own_z1 <= nz && (link->down < 0 || own_z0 >= h)
                    && (link->up < 0 || own_z1 + h <= nz) && own_z1 - own_z0 >= h;
  RwCudaHalo *x = (RwCudaHalo *) calloc (1, sizeof *x);
  if (x == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of host memory"));
      return NULL;
    }
  x->device = device;
  x->rank = link->rank, x->size = link->size;
  x->down = link->down, x->up = link->up, x->halo = (int) h;
  x->plane_bytes = plane_bytes;
  const char *how = getenv ("ROOMWAVE_HALO");
  x->skip = how != NULL && strcmp (how, "none") == 0;
  /* windows only where a neighbour is; they never overlap (b ≥ a) */
  if (fits)
    {
      const size_t a = link->down >= 0 ? own_z0 + h : own_z0;
      const size_t b = link->up >= 0 ? std::max (own_z1 - h, a) : own_z1;
      x->w[0] = own_z0, x->w[1] = a, x->w[2] = b, x->w[3] = own_z1;
    }
  /* a hard rule of the GPU machines: NVLink multicast (NVLS) stays off,
   * unless the environment says otherwise */
  setenv ("NCCL_NVLS_ENABLE", "0", 0);
  int lo, hi;
  ncclUniqueId id;
  memcpy (&id, link->id, sizeof id);
  bool ok = RW_CUDA (cudaSetDevice (device))
            && RW_CUDA (cudaDeviceGetStreamPriorityRange (&lo, &hi))
            && RW_CUDA (cudaStreamCreateWithPriority (&x->stream, cudaStreamNonBlocking, hi))
            && RW_CUDA (cudaEventCreateWithFlags (&x->ready, cudaEventDisableTiming))
            && RW_CUDA (cudaEventCreateWithFlags (&x->done, cudaEventDisableTiming));
  /* ncclCommInitRank is collective: a rank that failed above still joins,
   * so that the others do not wait for it, and fails after */
  const ncclResult_t init = ncclCommInitRank (&x->comm, link->size, id, link->rank);
  /* invalid usage: ranks that share a GPU (NCCL finds every pair, on
   * every rank): the front end then exchanges through the host */
  const bool joined = init == ncclSuccess
                      || (init == ncclInvalidUsage
                          ? rw_fail (err, RW_ERROR_UNSUPPORTED, _("NCCL cannot join the ranks' "
                                                                  "devices (two ranks on one GPU?)"))
                          : rw_nccl_ok (init, err, "ncclCommInitRank"));
  if (!joined)
    x->comm = NULL;
  if (ok && joined && !fits)
    ok = rw_fail (err, RW_ERROR_INTERNAL, _("A slab owning planes [%zu, %zu) of %zu cannot "
                                            "exchange %zu planes each way"), own_z0, own_z1, nz, h);
  if (!ok || !joined)
    {
      rw_cuda_halo_free (x);
      return NULL;
    }
  return x;
}

void
rw_cuda_halo_windows (const RwCudaHalo *h, size_t w[4])
{
  memcpy (w, h->w, sizeof h->w);
}

void
rw_cuda_halo_post (RwCudaHalo *h, cudaStream_t compute, void *field)
{
  if (h->skip || (h->down < 0 && h->up < 0))
    return;
  cudaError_t e;
  if ((e = cudaEventRecord (h->ready, compute)) != cudaSuccess
      || (e = cudaStreamWaitEvent (h->stream, h->ready, 0)) != cudaSuccess)
    {
      rw_halo_note (h, "cudaEventRecord/cudaStreamWaitEvent", cudaGetErrorString (e));
      return;
    }
  char *f = (char *) field;
  const size_t n = (size_t) h->halo * h->plane_bytes;
  ncclResult_t r = ncclGroupStart ();
  /* lower cut: my lowest owned planes down, down's into my lower ghosts */
  if (r == ncclSuccess && h->down >= 0)
    r = ncclSend (f + h->w[0] * h->plane_bytes, n, ncclUint8, h->down, h->comm, h->stream);
  if (r == ncclSuccess && h->down >= 0)
    r = ncclRecv (f + (h->w[0] - (size_t) h->halo) * h->plane_bytes, n, ncclUint8, h->down,
                  h->comm, h->stream);
  /* upper cut: my highest owned planes up, up's into my upper ghosts */
  if (r == ncclSuccess && h->up >= 0)
    r = ncclSend (f + (h->w[3] - (size_t) h->halo) * h->plane_bytes, n, ncclUint8, h->up,
                  h->comm, h->stream);
  if (r == ncclSuccess && h->up >= 0)
    r = ncclRecv (f + h->w[3] * h->plane_bytes, n, ncclUint8, h->up, h->comm, h->stream);
  /* the group is closed whatever happened inside it */
  const ncclResult_t g = ncclGroupEnd ();
  if (r == ncclSuccess)
    r = g;
  if (r != ncclSuccess)
    {
      rw_halo_note (h, "ncclSend/ncclRecv", ncclGetErrorString (r));
      return;
    }
  if ((e = cudaEventRecord (h->done, h->stream)) != cudaSuccess)
    rw_halo_note (h, "cudaEventRecord", cudaGetErrorString (e));
}

void
rw_cuda_halo_wait (RwCudaHalo *h, cudaStream_t compute)
{
  if (h->skip || (h->down < 0 && h->up < 0))
    return;
  const cudaError_t e = cudaStreamWaitEvent (compute, h->done, 0);
  if (e != cudaSuccess)
    rw_halo_note (h, "cudaStreamWaitEvent", cudaGetErrorString (e));
}

bool
rw_cuda_halo_check (RwCudaHalo *h, RwError *err)
{
  ncclResult_t async = ncclSuccess;
  if (h->failed[0] == '\0' && ncclCommGetAsyncError (h->comm, &async) == ncclSuccess
      && async != ncclSuccess)
    rw_halo_note (h, "NCCL", ncclGetErrorString (async));
  if (h->failed[0] == '\0')
    return true;
  rw_fail (err, RW_ERROR_INTERNAL, _("the halo exchange of rank %d of %d failed in %s"), h->rank,
           h->size, h->failed);
  h->failed[0] = '\0';
  return false;
}

void
rw_cuda_halo_free (RwCudaHalo *h)
{
  if (h == NULL)
    return;
  (void) cudaSetDevice (h->device);
  if (h->stream)
    cudaStreamSynchronize (h->stream);
  if (h->comm)
    ncclCommDestroy (h->comm);
  rw_cuda_event_free (&h->ready);
  rw_cuda_event_free (&h->done);
  rw_cuda_stream_free (&h->stream);
  (void) cudaGetLastError ();
  free (h);
}

/* The 7-point path: its stored planes are padded rows (st->nx × ny). */
bool
rw_cuda_halo_attach_op (void *state, const RwHaloLink *link, RwError *err)
{
  if (rw_cuda_is_fcc (state))
    return rw_cuda_fcc_halo_attach (state, link, err);
  RwCudaState *st = (RwCudaState *) state;
  if (st->halo != NULL)
    return rw_fail (err, RW_ERROR_INTERNAL, _("a halo is attached already"));
  const size_t plane = st->nx * st->ny;
  st->halo = rw_cuda_halo_new (link, st->device, plane * st->elem, st->own_z0, st->own_z1, st->nz,
                               err);
  if (st->halo == NULL)
    return false;
  /* the work items clipped to the windows: lower, upper, interior (the
   * kernels clip an item's z range to its columns' once more) */
  size_t w[4];
  rw_cuda_halo_windows (st->halo, w);
  const size_t lo[3] = { w[0], w[2], w[1] }, hi[3] = { w[1], w[3], w[2] };
  int4 *all = (int4 *) malloc ((st->n_items + 1) * sizeof (int4));
  int4 *cut = (int4 *) malloc ((3 * st->n_items + 1) * sizeof (int4));
  bool ok = all != NULL && cut != NULL;
  if (!ok)
    rw_fail (err, RW_ERROR_MEMORY, _("out of host memory"));
  ok = ok && (st->n_items == 0
              || RW_CUDA (cudaMemcpy (all, st->items, st->n_items * sizeof (int4),
                                      cudaMemcpyDeviceToHost)));
  size_t n = 0;
  for (int k = 0; ok && k < 3; k++)
    {
      st->halo_n[k] = 0;
      for (size_t j = 0; j < st->n_items; j++)
        {
          int4 it = all[j];
          it.z = std::max (it.z, (int) lo[k]);
          it.w = std::min (it.w, (int) hi[k]);
          if (it.z < it.w)
            cut[n++] = it, st->halo_n[k]++;
        }
    }
  ok = ok && RW_CUDA (cudaMalloc ((void **) &st->halo_items, (n + 1) * sizeof (int4)))
       && (n == 0 || RW_CUDA (cudaMemcpy (st->halo_items, cut, n * sizeof (int4),
                                          cudaMemcpyHostToDevice)));
  free (all), free (cut);
  return ok;
}

#else /* !RW_HAVE_NCCL: the front end exchanges through the host */

struct RwCudaHalo
{
  int unused;
};

RwCudaHalo *
rw_cuda_halo_new (const RwHaloLink *, int, size_t, size_t, size_t, size_t, RwError *err)
{
  rw_fail (err, RW_ERROR_UNSUPPORTED, _("Roomwave was built without NCCL: no device halos"));
  return NULL;
}

void rw_cuda_halo_windows (const RwCudaHalo *, size_t w[4]) { w[0] = w[1] = w[2] = w[3] = 0; }
void rw_cuda_halo_post (RwCudaHalo *, cudaStream_t, void *) {}
void rw_cuda_halo_wait (RwCudaHalo *, cudaStream_t) {}
bool rw_cuda_halo_check (RwCudaHalo *, RwError *) { return true; }
void rw_cuda_halo_free (RwCudaHalo *) {}

#endif
