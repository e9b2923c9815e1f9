/* SPDX-License-Identifier: GPL-3.0-or-later */
/* backend-registry: the solver chooses from a registry of backends
 * (rw-backend.h) by their capabilities, and validates the device index.
 *   - rw_backend_find finds "cpu" (the CPU backend) and "cuda" (NULL
 *     exactly when built without CUDA), nothing else; iteration lists
 *     every backend once, the CPU last;
 *   - the CPU's capabilities: no fp16, its memory in host RAM, one
 *     device (the host, with a name and its memory); device 1 has no info;
 *   - fp16 on the CPU is refused with the message it had before the
 *     capability replaced the pointer test;
 *   - a device index beyond the backend's count (or negative) is refused
 *     with RW_ERROR_INPUT, naming the index and the count; device 0 runs.
 */
#include "rw-test.h"
#include "test-solver-grid.h"

#include <string.h>

int
main (void)
{
  /* the registry */
  const RwBackendOps *cpu = rw_backend_find ("cpu");
  RW_CHECK (cpu == &rw_cpu_backend, "find cpu: %p", (const void *) cpu);
  RW_CHECK (rw_backend_find ("cuda") == rw_cuda_backend (), "find cuda");
  RW_CHECK (rw_backend_find ("opencl") == NULL && rw_backend_find (NULL) == NULL,
            "unknown names found");
  const size_t n = rw_backend_count ();
  RW_CHECK (n == (rw_cuda_backend () ? 2u : 1u), "%zu backends", n);
  RW_CHECK (n >= 1 && rw_backend_at (n - 1) == &rw_cpu_backend, "the CPU last");
  RW_CHECK (rw_backend_at (n) == NULL, "past the end");
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < i; j++)
      RW_CHECK (rw_backend_at (i) != rw_backend_at (j), "backend %zu listed twice", i);

  /* capabilities */
  RW_CHECK (!cpu->supports_f16 && cpu->host_memory && cpu->max_steps_per_pass >= 1,
            "CPU capabilities: f16 %d, host memory %d, %d steps a pass", cpu->supports_f16,
            cpu->host_memory, cpu->max_steps_per_pass);
  if (rw_cuda_backend () != NULL)
    RW_CHECK (rw_cuda_backend ()->supports_f16 && !rw_cuda_backend ()->host_memory
              && rw_cuda_backend ()->max_steps_per_pass == 2
              && rw_cuda_backend ()->host_bytes != NULL, "CUDA capabilities");
  RW_CHECK (cpu->device_count () == 1, "CPU devices: %d", cpu->device_count ());
  RwDeviceInfo info = { 0 };
  RwError err = { 0 };
  RW_CHECK (cpu->device_info (0, &info, &err) && info.name[0] != '\0' && info.memory_bytes > 0,
            "CPU device 0: \"%s\", %zu bytes", info.name, info.memory_bytes);
  RW_CHECK (!cpu->device_info (1, &info, &err) && err.code == RW_ERROR_INPUT,
            "CPU device 1 has info");

  /* the solver's checks */
  RwGrid *g = test_grid_new (10, 9, 8, 0.1, NULL, NULL);
  static double sig[50];
  double R = 0.8;
  size_t rcv[1] = { test_cell (g, 2, 2, 2) };
  RwSolverSetup su = test_setup (g, &R, RW_BOUNDARY_FV, RW_PRECISION_F16, 50, sig,
                                 test_cell (g, 4, 4, 4), 1, rcv);
  RwSolver *s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s == NULL && err.code == RW_ERROR_UNSUPPORTED
            && strcmp (err.message, "fp16 storage is available only on the CUDA backend; "
                                    "the CPU backend computes in fp32 or fp64") == 0,
            "fp16 on the CPU: \"%s\"", err.message);
  rw_solver_free (s);

  su.precision = RW_PRECISION_F32;
  const int bad[] = { 1, 5, -1 };
  for (size_t k = 0; k < 3; k++)
    {
      su.device = bad[k];
      char want[64];
      snprintf (want, sizeof want, "Device %d does not exist", bad[k]);
      s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
      RW_CHECK (s == NULL && err.code == RW_ERROR_INPUT && strstr (err.message, want)
                && strstr (err.message, "cpu backend has 1 device"),
                "device %d: code %d \"%s\"", bad[k], err.code, err.message);
      rw_solver_free (s);
    }
  su.device = 0;
  s = rw_solver_new (&su, RW_BACKEND_CPU, &err);
  RW_CHECK (s != NULL, "device 0: %s", s ? "" : err.message);
  rw_solver_free (s);
  rw_grid_free (g);
  return rw_test_finish ();
}
