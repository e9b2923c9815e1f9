/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-branches.cu — the FV boundary nodes with frequency-dependent
 * admittances (rw-scheme.h, rw_update_fv_branches; rw-admittance.h) on the
 * GPU.
 *
 * The main kernels leave these nodes alone (their cells carry the list
 * slot: rw_node_update returns p⁻, so the stored value does not change);
 * after each step this kernel updates them from the list built on the host
 * (rw_cuda_branch_nodes): one thread a node, the six neighbours of the
 * field at time n (untouched by the step, which writes the other array),
 * p⁻ still in place, the node's branch states, and the same node update as
 * the CPU backend — so fp64 agrees with it bit for bit. fp16 storage
 * computes in fp32 with fp32 states.
 *
 * States are stored branch-major (branch m of node k at m · n_nodes + k),
 * so that a warp's 32 nodes read and write each branch's states in whole
 * cache lines. Bytes per node and step: the node (16), seven field values
 * and the stored one, 2 M states read and written (M the branches of its
 * surface: 16 M in fp32) — the cost of frequency-dependent surfaces and
 * sloped ones, paid only at their nodes. The two-step passes of fp32 (variant 13) cannot interleave
 * this kernel, so rooms with such nodes run single steps of variant 5. */
#include <algorithm>

#include "rw-cuda-state.cuh"

/* The node's update in double whatever the field (rw-scheme.h), with the
 * states in the field's arithmetic type A (fp32 for fp32 and fp16). */
__device__ __forceinline__ double
rw_fvb (int K, double S, double p, double s, double pp, double b, int M, const double *c,
        float *v, float *q, size_t stride)
{
  return rw_update_fv_branches_f32 (K, S, p, s, pp, b, M, c, v, q, stride);
}

__device__ __forceinline__ double
rw_fvb (int K, double S, double p, double s, double pp, double b, int M, const double *c,
        double *v, double *q, size_t stride)
{
  return rw_update_fv_branches_f64 (K, S, p, s, pp, b, M, c, v, q, stride);
}

template <typename S, typename A>
__global__ void
rw_kernel_branches (const S *__restrict__ p, S *__restrict__ q,
                    const RwBranchNode *__restrict__ nodes, size_t n_nodes,
                    const int *__restrict__ M, const double *__restrict__ beta,
                    const double *__restrict__ coef, A *__restrict__ sv, A *__restrict__ sq,
                    size_t sy, size_t sz, int step, int *__restrict__ bad)
{
  const size_t k = blockIdx.x * (size_t) blockDim.x + threadIdx.x;
  if (k >= n_nodes)
    return;
  const RwBranchNode nd = nodes[k];
  const size_t i = (size_t) nd.i;
  const int K = nd.K, s = nd.surface;
  /* the neighbour sum in the order of rw_node_update and the CPU backend */
  const A sum = (((((A) rw_ld (p, i - 1) + (A) rw_ld (p, i + 1)) + (A) rw_ld (p, i - sy))
                  + (A) rw_ld (p, i + sy)) + (A) rw_ld (p, i - sz)) + (A) rw_ld (p, i + sz);
  const A v = (A) rw_fvb (K, (double) nd.area, (double) rw_ld (p, i), (double) sum,
                          (double) rw_ld (q, i), beta[s], M[s],
                          coef + (size_t) s * 4 * RW_ADM_MAX_BRANCHES, sv + k, sq + k, n_nodes);
  rw_st (q, i, v);
  if (!rw_stored_finite (v, q))
    atomicMin (bad, step);
}

template <typename A>
__global__ void
rw_kernel_branch_energy (const RwBranchNode *__restrict__ nodes, size_t n_nodes,
                         const int *__restrict__ M, const double *__restrict__ en,
                         const A *__restrict__ sv, const A *__restrict__ sq,
                         double *__restrict__ total)
{
  double e = 0.0;
  for (size_t k = blockIdx.x * (size_t) blockDim.x + threadIdx.x; k < n_nodes;
       k += (size_t) gridDim.x * blockDim.x)
    {
      const RwBranchNode nd = nodes[k];
      const double *w = en + (size_t) nd.surface * 2 * RW_ADM_MAX_BRANCHES;
      double node = 0.0;
      for (int m = 0; m < M[nd.surface]; m++)
        {
          const double v = (double) sv[m * n_nodes + k], qq = (double) sq[m * n_nodes + k];
          node += w[2 * m] * v * v + w[2 * m + 1] * qq * qq;
        }
      e += 0.57735026918962576451 * (double) nd.area * node;
    }
  for (int o = 16; o > 0; o >>= 1)
    e += __shfl_down_sync (0xffffffffu, e, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd (total, e);
}

void
rw_cuda_launch_branches (RwCudaState *st, int step)
{
  if (st->n_bn == 0)
    return;
  const unsigned blocks = (unsigned) ((st->n_bn + 127) / 128);
  const size_t sy = st->nx, sz = st->nx * st->ny;
  if (st->precision == RW_PRECISION_F64)
    rw_kernel_branches<double, double><<<blocks, 128, 0, st->stream>>> (
      (const double *) st->p, (double *) st->q, st->bn, st->n_bn, st->b_M,
      (const double *) st->b_beta, (const double *) st->b_coef, (double *) st->bv,
      (double *) st->bq, sy, sz, step, st->bad);
  else if (st->precision == RW_PRECISION_F16)
    rw_kernel_branches<__half, float><<<blocks, 128, 0, st->stream>>> (
      (const __half *) st->p, (__half *) st->q, st->bn, st->n_bn, st->b_M,
      (const double *) st->b_beta, (const double *) st->b_coef, (float *) st->bv, (float *) st->bq,
      sy, sz, step, st->bad);
  else
    rw_kernel_branches<float, float><<<blocks, 128, 0, st->stream>>> (
      (const float *) st->p, (float *) st->q, st->bn, st->n_bn, st->b_M,
      (const double *) st->b_beta, (const double *) st->b_coef, (float *) st->bv, (float *) st->bq,
      sy, sz, step, st->bad);
  const cudaError_t e = cudaGetLastError ();
  if (e != cudaSuccess && st->launch_error == cudaSuccess)
    {
      st->launch_error = e;
      st->launch_what = _("the launch of the branch kernel");
    }
}

void
rw_cuda_branch_energy (RwCudaState *st, double *total)
{
  if (st->n_bn == 0)
    return;
  const unsigned blocks = (unsigned) std::min ((st->n_bn + 255) / 256, (size_t) 1024);
  if (st->precision == RW_PRECISION_F64)
    rw_kernel_branch_energy<double><<<blocks, 256, 0, st->stream>>> (
      st->bn, st->n_bn, st->b_M, st->b_en, (const double *) st->bv, (const double *) st->bq, total);
  else
    rw_kernel_branch_energy<float><<<blocks, 256, 0, st->stream>>> (
      st->bn, st->n_bn, st->b_M, st->b_en, (const float *) st->bv, (const float *) st->bq, total);
}
