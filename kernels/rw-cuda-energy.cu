/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-cuda-energy.cu — the growth monitor's reading on the GPU: the
 * discrete energy of the FV scheme (rw_field_energy, rw-solver.h) of the
 * current field pair, summed in double, and the sum of p (the room's
 * uniform mode, which the post-processing removes), exact.
 *
 * One thread a cell (grid-stride), any precision of storage; each block
 * writes its partial energy to its part (rw_block_parts), the branches'
 * kernel its own after them, and rw_kernel_sum_parts adds them all in a
 * fixed order: the same bits on every run. The sum of p feeds the drift
 * removal, and so the WAVs: it is exact (rw-exact-sum.h; rw_block_exact,
 * rw_kernel_exact_parts), the same bits as the CPU backend's and over
 * any number of ranks.
 * Bytes per cell: the cell byte, and p, p⁻ at inside cells (their +x, +y,
 * +z neighbours are other threads' centres: cache hits) — 9 B in fp32,
 * about one step's traffic; rw_solver_advance reads it every
 * RW_ENERGY_CHECK_STEPS steps.
 * A slab of a grid spread over ranks (rw-slab.h) sums its owned planes
 * only — their cells, the edges from them (towards +z into the ghost
 * plane above, whose p and p⁻ the halo exchange keeps right), their
 * branch nodes — as the CPU backend does, so that the ranks' readings add
 * up to the whole grid's. */
#include <algorithm>

#include "rw-cuda-state.cuh"

template <typename S>
__global__ void
rw_kernel_energy (const S *__restrict__ p, const S *__restrict__ q,
                  const uint8_t *__restrict__ cell, size_t i0, size_t i1, size_t sy, size_t sz,
                  double *__restrict__ part, RwExactSum *__restrict__ xpart)
{
  const double l2 = RW_LAMBDA2;
  double e = 0.0;
  RwExactSum m = { 0u, 0u };
  for (size_t i = i0 + blockIdx.x * (size_t) blockDim.x + threadIdx.x; i < i1;
       i += (size_t) gridDim.x * blockDim.x)
    {
      if (RW_CELL_K (cell[i]) == 0)
        continue;
      /* The grid's outside layer (rw-voxel.h) keeps every neighbour of an
       * inside cell within the array. */
      const double pi = (double) rw_ld (p, i), qi = (double) rw_ld (q, i), d = pi - qi;
      e += d * d;
      rw_exact_sum_add (&m, pi);
      const size_t nb[3] = { i + 1, i + sy, i + sz };
      for (int a = 0; a < 3; a++)
        if (RW_CELL_K (cell[nb[a]]) != 0)
          e += l2 * (pi - (double) rw_ld (p, nb[a])) * (qi - (double) rw_ld (q, nb[a]));
    }
  rw_block_exact (m, xpart);
  double s[1] = { e };
  rw_block_parts<1> (s, part);
}

bool
rw_cuda_energy (RwCudaState *st, RwEnergyReading *out, RwError *err)
{
  /* the energy, then a part a block: the field's and the branches'
   * kernels, RW_ENERGY_BLOCKS parts each at most */
  if (st->energy == NULL
      && !RW_CUDA (cudaMalloc ((void **) &st->energy, (1 + 2 * (size_t) RW_ENERGY_BLOCKS) * sizeof (double))))
    return false;
  /* the exact sum of p, then a part a block of the field's kernel */
  if (st->exact == NULL
      && !RW_CUDA (cudaMalloc ((void **) &st->exact, (1 + (size_t) RW_ENERGY_BLOCKS) * sizeof (RwExactSum))))
    return false;
  double *part = st->energy + 1;
  const size_t sy = st->nx, sz = st->nx * st->ny;
  const size_t i0 = st->own_z0 * sz, i1 = st->own_z1 * sz;
  const unsigned blocks = rw_energy_blocks (i1 - i0);
  if (st->precision == RW_PRECISION_F64)
    rw_kernel_energy<<<blocks, RW_ENERGY_THREADS, 0, st->stream>>> ((const double *) st->p,
                                                      (const double *) st->q, st->cell, i0, i1,
                                                      sy, sz, part, st->exact + 1);
  else if (st->precision == RW_PRECISION_F16)
    rw_kernel_energy<<<blocks, RW_ENERGY_THREADS, 0, st->stream>>> ((const __half *) st->p,
                                                      (const __half *) st->q, st->cell, i0, i1,
                                                      sy, sz, part, st->exact + 1);
  else
    rw_kernel_energy<<<blocks, RW_ENERGY_THREADS, 0, st->stream>>> ((const float *) st->p,
                                                      (const float *) st->q, st->cell, i0, i1,
                                                      sy, sz, part, st->exact + 1);
  const unsigned parts = blocks + rw_cuda_branch_energy (st, i0, i1, part + blocks);
  rw_kernel_sum_parts<1><<<1, 32, 0, st->stream>>> (part, parts, st->energy);
  rw_kernel_exact_parts<<<1, 32, 0, st->stream>>> (st->exact + 1, blocks, st->exact);
  return rw_cuda_ok (cudaGetLastError (), err, _("the launch of rw_kernel_energy"))
         && RW_CUDA (cudaMemcpyAsync (&out->energy, st->energy, sizeof (double),
                                      cudaMemcpyDeviceToHost, st->stream))
         && RW_CUDA (cudaMemcpyAsync (&out->sum, st->exact, sizeof (RwExactSum),
                                      cudaMemcpyDeviceToHost, st->stream))
         && RW_CUDA (cudaStreamSynchronize (st->stream));
}
