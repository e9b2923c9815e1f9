/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-branches.cu — the FV boundary nodes with frequency-dependent
 * admittances (rw-scheme.h, rw_update_fv_branches; rw-admittance.h) on the
 * GPU.
 *
 * The main kernels store the neighbour sum of these nodes (their cells
 * carry the list slot: rw_node_update returns the sum, in the order of the
 * CPU backend); after each step this kernel updates them from the list
 * built on the host (rw_cuda_branch_nodes): one thread a node, that sum,
 * the node's p at time n, its p⁻ (kept per node in st->bp, in the storage
 * type: the main kernel wrote the sum over it), its branch states, and the
 * same node update as the CPU backend — so fp64 agrees with it bit for bit
 * (the sum is stored exactly; fp32 too, fp16 rounds it to storage). fp16
 * storage computes in fp32 with fp32 states.
 *
 * States are stored branch-major (branch m of node k at m · n_nodes + k),
 * so that a warp's 32 nodes read and write each branch's states in whole
 * cache lines. Bytes per node and step: the node (16), the sum and p (one
 * scattered sector each), p⁻ read and written, 2 M states read and written
 * (M the branches of its surface: 16 M in fp32) — the cost of
 * frequency-dependent surfaces and sloped ones, paid only at their nodes.
 * Reading the six neighbours here instead (four more scattered sectors a
 * node) cost fp16 storage 11.1 % of the hall's throughput with six library
 * materials (docs/PERFORMANCE.md). The two-step passes of fp32 (variant
 * 13) cannot interleave this kernel, so rooms with such nodes run single
 * steps of variant 5. */
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

/* One thread a node. The kernel waits on memory latency, not bandwidth
 * (ncu on the hall with six library materials, fp16 storage: 51 % of the
 * DRAM throughput, 264 MB in 107 µs), so its chains of dependent loads are
 * kept short: p⁻ needs only the node's position k and is loaded beside the
 * node; the states (their count is in the node: RwBranchNode.M), p and
 * the stored sum need the node and are all loaded together after it.
 * MB ≥ the most branches of any surface is a compile-time bound, so the
 * states live in registers; a surface with fewer branches runs the update
 * over MB with the zero coefficients of its unused ones (the host's table
 * is zeroed beyond them), which adds +0 to every sum and leaves its result
 * bit for bit as over its own M, and reads and writes only its own
 * states. */
/* Blocks of 128 an SM that the registers must allow, by MB: the most that
 * compile without spills (ptxas, sm_90: at most 64 registers up to five
 * branches, 72 at six, 96 at eight, 168 at twelve). */
#define RW_BRANCH_MIN_BLOCKS(MB) ((MB) <= 5 ? 8 : (MB) <= 6 ? 7 : (MB) <= 8 ? 5 : 3)

template <typename S, typename A, int MB>
__global__ void __launch_bounds__ (128, RW_BRANCH_MIN_BLOCKS (MB))
rw_kernel_branches (const S *__restrict__ p, S *__restrict__ q, S *__restrict__ pm,
                    const RwBranchNode *__restrict__ nodes, size_t n_nodes,
                    const double *__restrict__ beta, const double *__restrict__ coef,
                    A *__restrict__ sv, A *__restrict__ sq, int step, int *__restrict__ bad,
                    size_t k0, size_t k1)
{
  /* the nodes [k0, k1) of the list (all, or a halo window's planes) */
  const size_t k = k0 + blockIdx.x * (size_t) blockDim.x + threadIdx.x;
  if (k >= k1)
    return;
  const A pp = (A) rw_ld (pm, k);
  const RwBranchNode nd = nodes[k];
  const size_t i = (size_t) nd.i;
  const int K = nd.K, s = nd.surface, Ms = nd.M;
  A v[MB], w[MB];
#pragma unroll
  for (int m = 0; m < MB; m++)
    {
      v[m] = m < Ms ? sv[m * n_nodes + k] : (A) 0;
      w[m] = m < Ms ? sq[m * n_nodes + k] : (A) 0;
    }
  const S centre = p[i];
  const A r = (A) rw_fvb (K, (double) nd.area, (double) (A) rw_ld (p, i), (double) (A) rw_ld (q, i),
                          (double) pp, beta[s], MB, coef + (size_t) s * 4 * RW_ADM_MAX_BRANCHES,
                          v, w, 1);
#pragma unroll
  for (int m = 0; m < MB; m++)
    if (m < Ms)
      {
        sv[m * n_nodes + k] = v[m];
        sq[m * n_nodes + k] = w[m];
      }
  pm[k] = centre;
  rw_st (q, i, r);
  if (!rw_stored_finite (r, q))
    atomicMin (bad, step);
}

template <typename S>
__global__ void
rw_kernel_branch_gather (const S *__restrict__ q, S *__restrict__ pm,
                         const RwBranchNode *__restrict__ nodes, size_t n_nodes)
{
  const size_t k = blockIdx.x * (size_t) blockDim.x + threadIdx.x;
  if (k < n_nodes)
    pm[k] = q[nodes[k].i];
}

template <typename A>
__global__ void
rw_kernel_branch_energy (const RwBranchNode *__restrict__ nodes, size_t n_nodes,
                         const double *__restrict__ en,
                         const A *__restrict__ sv, const A *__restrict__ sq, size_t i0,
                         size_t i1, double *__restrict__ part)
{
  rw_node_window_energy (nodes, n_nodes, i0, i1, part, [&] (const RwBranchNode &nd, size_t k) {
    const double *w = en + (size_t) nd.surface * 2 * RW_ADM_MAX_BRANCHES;
    double node = 0.0;
    for (int m = 0; m < nd.M; m++)
      {
        const double v = (double) sv[m * n_nodes + k], qq = (double) sq[m * n_nodes + k];
        node += w[2 * m] * v * v + w[2 * m + 1] * qq * qq;
      }
    return 0.57735026918962576451 * (double) nd.area * node;
  });
}

/* The kernel for a precision and branch bound MB. */
template <int MB>
static void
rw_launch_branches_mb (RwCudaState *st, int step, unsigned blocks, size_t k0, size_t k1)
{
  if (st->precision == RW_PRECISION_F64)
    rw_kernel_branches<double, double, MB><<<blocks, 128, 0, st->stream>>> (
      (const double *) st->p, (double *) st->q, (double *) st->bp, st->bn, st->n_bn,
      (const double *) st->b_beta, (const double *) st->b_coef, (double *) st->bv,
      (double *) st->bq, step, st->bad, k0, k1);
  else if (st->precision == RW_PRECISION_F16)
    rw_kernel_branches<__half, float, MB><<<blocks, 128, 0, st->stream>>> (
      (const __half *) st->p, (__half *) st->q, (__half *) st->bp, st->bn, st->n_bn,
      (const double *) st->b_beta, (const double *) st->b_coef, (float *) st->bv,
      (float *) st->bq, step, st->bad, k0, k1);
  else
    rw_kernel_branches<float, float, MB><<<blocks, 128, 0, st->stream>>> (
      (const float *) st->p, (float *) st->q, (float *) st->bp, st->bn, st->n_bn,
      (const double *) st->b_beta, (const double *) st->b_coef, (float *) st->bv,
      (float *) st->bq, step, st->bad, k0, k1);
}

void
rw_cuda_launch_branches (RwCudaState *st, int step)
{
  rw_cuda_launch_branches_range (st, step, 0, st->n_bn);
}

void
rw_cuda_launch_branches_range (RwCudaState *st, int step, size_t k0, size_t k1)
{
  if (k1 <= k0)
    return;
  const unsigned blocks = (unsigned) ((k1 - k0 + 127) / 128);
  static_assert (RW_ADM_MAX_BRANCHES <= 12, "the branch kernel's bounds stop at 12");
  switch (st->b_m_max)
    {
    case 0: case 1: rw_launch_branches_mb<1> (st, step, blocks, k0, k1); break;
    case 2: rw_launch_branches_mb<2> (st, step, blocks, k0, k1); break;
    case 3: rw_launch_branches_mb<3> (st, step, blocks, k0, k1); break;
    case 4: rw_launch_branches_mb<4> (st, step, blocks, k0, k1); break;
    case 5: rw_launch_branches_mb<5> (st, step, blocks, k0, k1); break;
    case 6: rw_launch_branches_mb<6> (st, step, blocks, k0, k1); break;
    case 7: case 8: rw_launch_branches_mb<8> (st, step, blocks, k0, k1); break;
    default: rw_launch_branches_mb<12> (st, step, blocks, k0, k1); break;
    }
  const cudaError_t e = cudaGetLastError ();
  if (e != cudaSuccess && st->launch_error == cudaSuccess)
    {
      st->launch_error = e;
      st->launch_what = _("the launch of the branch kernel");
    }
}

bool
rw_cuda_branch_gather (RwCudaState *st, RwError *err)
{
  if (st->n_bn == 0)
    return true;
  const unsigned blocks = (unsigned) ((st->n_bn + 127) / 128);
  if (st->precision == RW_PRECISION_F64)
    rw_kernel_branch_gather<double><<<blocks, 128, 0, st->stream>>> (
      (const double *) st->q, (double *) st->bp, st->bn, st->n_bn);
  else if (st->precision == RW_PRECISION_F16)
    rw_kernel_branch_gather<__half><<<blocks, 128, 0, st->stream>>> (
      (const __half *) st->q, (__half *) st->bp, st->bn, st->n_bn);
  else
    rw_kernel_branch_gather<float><<<blocks, 128, 0, st->stream>>> (
      (const float *) st->q, (float *) st->bp, st->bn, st->n_bn);
  cudaError_t e = cudaGetLastError ();
  if (e == cudaSuccess)
    e = cudaStreamSynchronize (st->stream);
  return rw_cuda_ok (e, err, _("the copy of the boundary nodes' previous values"));
}

unsigned
rw_cuda_branch_energy (RwCudaState *st, size_t i0, size_t i1, double *part)
{
  if (st->n_bn == 0)
    return 0;
  const unsigned blocks = rw_energy_blocks (st->n_bn);
  if (st->precision == RW_PRECISION_F64)
    rw_kernel_branch_energy<double><<<blocks, RW_ENERGY_THREADS, 0, st->stream>>> (
      st->bn, st->n_bn, st->b_en, (const double *) st->bv, (const double *) st->bq, i0, i1, part);
  else
    rw_kernel_branch_energy<float><<<blocks, RW_ENERGY_THREADS, 0, st->stream>>> (
      st->bn, st->n_bn, st->b_en, (const float *) st->bv, (const float *) st->bq, i0, i1, part);
  return blocks;
}
