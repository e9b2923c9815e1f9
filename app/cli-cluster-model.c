/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-cluster-model.c — `roomwave-cli cluster-model`: what a run over N
 * GPUs needs and how long it takes, from rw-cluster-model.h (issue #15;
 * docs/CLUSTER.md). Nothing is run: a model of memory, halo traffic and
 * step time. */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <string.h>

#include "rw-cluster-model.h"
#include "rw-json.h"
#include "rw-physics.h"
#include "rw-sim.h"
#include "rw-slab.h"

static void
print_help (void)
{
  printf (_("Usage: roomwave-cli cluster-model --volume M3 --fmax HZ [OPTION…]\n"
            "       roomwave-cli cluster-model --largest --fmax HZ [OPTION…]\n"
            "\n"
            "Models a run spread over GPUs, one MPI rank a GPU, the grid cut into\n"
            "slabs of whole z-planes (docs/CLUSTER.md): the grid of a shoebox of the\n"
            "given volume, the GPU and host memory of the thickest slab, the halo\n"
            "bytes it sends a step, the step time with and without the exchange\n"
            "overlapped with the update, the parallel efficiency and the run time.\n"
            "Nothing is run. --largest gives the largest room the GPUs hold, and the\n"
            "largest whose ranks also fit in their hosts' memory (each voxelises its\n"
            "own slab and the planes round it).\n"
            "\n"
            "Options:\n"
            "  --volume M3            the room's volume in m³\n"
            "  --largest              the largest volume that fits instead\n"
            "  --fmax HZ              the highest frequency of the wave part\n"
            "  --scheme auto|cartesian|fcc  the scheme (default fcc, which auto gives)\n"
            "  --ppw N                points per wavelength (default: the scheme's, 7.75 or 5.75)\n"
            "  --precision f16|f32|f64  storage (default f32)\n"
            "  --duration S           impulse response length (default 1)\n"
            "  --aspect X,Y,Z         the shoebox's proportions, z the slab axis\n"
            "                         (default %.2f,%.2f,%.2f: the longest along z)\n"
            "  --gpus N               GPUs, one rank each (default 1)\n"
            "  --gpus-per-host N      ranks a host (default %d)\n"
            "  --host-memory GIB      a host's memory (default %.0f, a DGX H100's)\n"
            "  --gpu-memory GIB       memory a rank may take on its GPU (default %.0f,\n"
            "                         an H100 80 GB)\n"
            "  --rate G               node updates a GPU, 10⁹/s (default: measured on one\n"
            "                         H100 for the scheme and precision, docs/PERFORMANCE.md)\n"
            "  --bandwidth GBS        link between neighbouring ranks, GB/s per direction\n"
            "                         (default %.0f: InfiniBand NDR a GPU)\n"
            "  --latency US           a message's latency in µs (default %.0f)\n"
            "  --json                 print one JSON object instead of a table\n"
            "  --help                 show this help\n"
            "\n"
            "Exit status: 0 done (whether or not the room fits), 1 a room the model\n"
            "cannot take, 2 bad usage.\n"),
          RW_CLUSTER_ASPECT_X, RW_CLUSTER_ASPECT_Y, RW_CLUSTER_ASPECT_Z,
          RW_CLUSTER_GPUS_PER_HOST, RW_CLUSTER_HOST_MEMORY_GIB, RW_CLUSTER_GPU_MEMORY_GIB, RW_CLUSTER_BANDWIDTH_GBS,
          RW_CLUSTER_LATENCY_US);
}

/* host_largest: the largest room with the host memory counted (NaN: not
 * asked). */
static void
print_json (const RwClusterModel *m, bool largest, double host_largest)
{
  const RwClusterParams *p = &m->in;
  json_object *o = json_object_new_object ();
  json_object_object_add (o, "largest", json_object_new_boolean (largest));
  if (largest)
    json_object_object_add (o, "largest_host_limited_m3", rw_json_number (host_largest));
  json_object_object_add (o, "volume_m3", rw_json_number (p->volume_m3));
  json_object_object_add (o, "side_m", rw_json_vec3 (m->side_m));
  json_object_object_add (o, "scheme", json_object_new_string (rw_scheme_name (rw_lattice_scheme (p->lattice))));
  json_object_object_add (o, "precision", json_object_new_string (rw_precision_name (p->precision)));
  json_object_object_add (o, "fmax_hz", rw_json_number (p->fmax_hz));
  json_object_object_add (o, "ppw", rw_json_number (p->ppw));
  json_object_object_add (o, "spacing_m", rw_json_number (m->h));
  json_object_object_add (o, "grid_rate_hz", rw_json_number (m->fs));
  json_object_object_add (o, "duration_s", rw_json_number (p->duration_s));
  json_object_object_add (o, "steps", json_object_new_int64 ((int64_t) m->n_steps));
  json_object *g = json_object_new_array ();
  for (int k = 0; k < 3; k++)
    json_object_array_add (g, json_object_new_int64 ((int64_t) m->grid[k]));
  json_object_object_add (o, "grid", g);
  json_object_object_add (o, "nodes", rw_json_number (m->nodes));
  json_object_object_add (o, "boundary_nodes", rw_json_number (m->boundary_nodes));
  json_object_object_add (o, "gpus", json_object_new_int (p->n_gpus));
  json_object_object_add (o, "gpus_per_host", json_object_new_int (p->gpus_per_host));
  json_object_object_add (o, "gpu_memory_gib", rw_json_number (p->gpu_memory_gib));
  json_object_object_add (o, "host_memory_gib", rw_json_number (p->host_memory_gib));
  json_object_object_add (o, "rate_gups", rw_json_number (p->rate_gups));
  json_object_object_add (o, "bandwidth_gbs", rw_json_number (p->bandwidth_gbs));
  json_object_object_add (o, "latency_us", rw_json_number (p->latency_us));
  json_object_object_add (o, "halo_planes", json_object_new_int (m->halo));
  json_object_object_add (o, "slab_planes", json_object_new_int64 ((int64_t) m->planes));
  json_object_object_add (o, "slab_grid_planes", json_object_new_int64 ((int64_t) m->slab_grid_planes));
  json_object_object_add (o, "rank_nodes", rw_json_number (m->rank_nodes));
  json_object_object_add (o, "plane_bytes", json_object_new_int64 ((int64_t) m->plane_bytes));
  json_object_object_add (o, "neighbours", json_object_new_int (m->neighbours));
  json_object_object_add (o, "halo_bytes_per_step", rw_json_number (m->halo_bytes));
  json_object_object_add (o, "device_bytes_per_rank", rw_json_number (m->device_bytes));
  json_object_object_add (o, "host_bytes_per_rank", rw_json_number (m->host_bytes));
  json_object_object_add (o, "host_bytes_per_host", rw_json_number (m->host_bytes_per_host));
  json_object_object_add (o, "fits", json_object_new_boolean (m->fits));
  json_object_object_add (o, "host_fits", json_object_new_boolean (m->host_fits));
  json_object_object_add (o, "interior_s", rw_json_number (m->t_interior_s));
  json_object_object_add (o, "edge_s", rw_json_number (m->t_edge_s));
  json_object_object_add (o, "exchange_s", rw_json_number (m->t_exchange_s));
  json_object_object_add (o, "step_serial_s", rw_json_number (m->t_step_serial_s));
  json_object_object_add (o, "step_overlap_s", rw_json_number (m->t_step_overlap_s));
  json_object_object_add (o, "step_one_gpu_s", rw_json_number (m->t_step_one_s));
  json_object_object_add (o, "efficiency_serial", rw_json_number (m->efficiency_serial));
  json_object_object_add (o, "efficiency_overlap", rw_json_number (m->efficiency_overlap));
  json_object_object_add (o, "run_serial_s", rw_json_number (m->run_serial_s));
  json_object_object_add (o, "run_overlap_s", rw_json_number (m->run_overlap_s));
  json_object_object_add (o, "seconds_per_audio_second", rw_json_number (m->seconds_per_audio_second));
  rw_cli_print_owned (rw_json_take_string (o), "\n");
}

static void
print_table (const RwClusterModel *m, bool largest, double host_largest)
{
  const RwClusterParams *p = &m->in;
  const double GiB = 1073741824.0;
  if (largest)
    printf (_("The largest room that %d GPU(s) of %.1f GiB hold:\n"), p->n_gpus, p->gpu_memory_gib);
  printf (_("room        %.6g m³, a shoebox %.2f × %.2f × %.2f m (x × y × z; slabs along z)\n"),
          p->volume_m3, m->side_m[0], m->side_m[1], m->side_m[2]);
  printf (_("scheme      %s, %s, %.2f points per wavelength at %.0f Hz: h = %.3f mm\n"),
          rw_scheme_name (rw_lattice_scheme (p->lattice)), rw_precision_name (p->precision),
          p->ppw, p->fmax_hz, 1e3 * m->h);
  printf (_("grid        %zu × %zu × %zu cells, %.4g nodes (%.3g at the walls), "
            "%zu steps (%.3g s at %.0f Hz)\n"),
          m->grid[0], m->grid[1], m->grid[2], m->nodes, m->boundary_nodes, m->n_steps,
          p->duration_s, m->fs);
  printf (_("slab        %zu planes of %.4g nodes (%zu in its grid with the ghost planes), "
            "%.4g nodes\n"),
          m->planes, m->plane_nodes, m->slab_grid_planes, m->rank_nodes);
  printf (_("gpu memory  %.3f GiB a rank of %.1f GiB: %s\n"), m->device_bytes / GiB,
          p->gpu_memory_gib, m->fits ? _("fits") : _("does NOT fit"));
  printf (_("host memory %.3f GiB a rank (each voxelises its slab), %.3f GiB a host "
            "of %d rank(s) with %.0f GiB: %s\n"),
          m->host_bytes / GiB, m->host_bytes_per_host / GiB,
          p->n_gpus < p->gpus_per_host ? p->n_gpus : p->gpus_per_host, p->host_memory_gib,
          m->host_fits ? _("fits") : _("does NOT fit"));
  printf (_("halo        %d plane(s) of %zu B to each of %d neighbour(s): %.4g B a step\n"),
          m->halo, m->plane_bytes, m->neighbours, m->halo_bytes);
  printf (_("step        interior %.4g µs (of which %.4g µs next to the cuts), exchange %.4g µs "
            "at %.4g GB/s and %.3g µs\n"),
          1e6 * m->t_interior_s, 1e6 * m->t_edge_s, 1e6 * m->t_exchange_s, p->bandwidth_gbs,
          p->latency_us);
  printf (_("            serial %.4g µs, overlapped %.4g µs; one GPU holding it all: %.4g µs "
            "(%.4g G updates/s)\n"),
          1e6 * m->t_step_serial_s, 1e6 * m->t_step_overlap_s, 1e6 * m->t_step_one_s, p->rate_gups);
  printf (_("efficiency serial %.1f %%, overlapped %.1f %%\n"), 100 * m->efficiency_serial,
          100 * m->efficiency_overlap);
  printf (_("run         %.4g s serial, %.4g s overlapped (%.4g s per second of audio)\n"),
          m->run_serial_s, m->run_overlap_s, m->seconds_per_audio_second);
  if (largest)
    printf (_("The largest room whose ranks also fit in their host's memory is %.6g m³.\n"),
            host_largest);
}

int
rw_cli_cluster_model (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "volume", required_argument, NULL, 'v' },
    { "largest", no_argument, NULL, 'L' },
    { "fmax", required_argument, NULL, 'f' },
    { "scheme", required_argument, NULL, 's' },
    { "ppw", required_argument, NULL, 'w' },
    { "precision", required_argument, NULL, 'p' },
    { "duration", required_argument, NULL, 'd' },
    { "aspect", required_argument, NULL, 'a' },
    { "gpus", required_argument, NULL, 'g' },
    { "gpus-per-host", required_argument, NULL, 'G' },
    { "host-memory", required_argument, NULL, 'H' },
    { "gpu-memory", required_argument, NULL, 'm' },
    { "rate", required_argument, NULL, 'r' },
    { "bandwidth", required_argument, NULL, 'b' },
    { "latency", required_argument, NULL, 'l' },
    { "json", no_argument, NULL, 'j' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  const char *sub = "cluster-model";
  RwClusterParams p = {
    .lattice = RW_LATTICE_FCC,
    .precision = RW_PRECISION_F32,
    .duration_s = 1.0,
    .n_gpus = 1,
    .gpu_memory_gib = RW_CLUSTER_GPU_MEMORY_GIB,
    .bandwidth_gbs = RW_CLUSTER_BANDWIDTH_GBS,
    .latency_us = RW_CLUSTER_LATENCY_US,
  };
  bool json = false, largest = false, have_volume = false;
  long n;
  int c;

  optind = 1;
  opterr = 0;
  while ((c = getopt_long (argc, argv, "", longopts, NULL)) != -1)
    {
      switch (c)
        {
        case 'v':
          if (!rw_cli_parse_double (optarg, 1e-6, 1e9, &p.volume_m3) || !(p.volume_m3 > 0))
            return rw_cli_usage_error (sub, _("--volume needs a number of m³ above 0 and at "
                                              "most 1e9, not '%s'"), optarg);
          have_volume = true;
          break;
        case 'L':
          largest = true;
          break;
        case 'f':
          if (!rw_cli_parse_double (optarg, 1, 1e5, &p.fmax_hz))
            return rw_cli_usage_error (sub, _("--fmax needs a frequency from 1 to 100000 Hz, "
                                              "not '%s'"), optarg);
          break;
        case 's':
          {
            /* the engine's names (rw_scheme_names); auto as simulate
             * resolves it for a room of omnidirectional receivers */
            RwSimConfig c;
            rw_sim_config_init (&c);
            if (!rw_scheme_parse (optarg, &c.scheme))
              return rw_cli_usage_error (sub, _("--scheme must be auto, cartesian or fcc, not '%s'"),
                                         optarg);
            p.lattice = rw_scheme_lattice (rw_sim_resolve_scheme (&c));
          }
          break;
        case 'w':
          if (!rw_cli_parse_double (optarg, 2, 100, &p.ppw))
            return rw_cli_usage_error (sub, _("--ppw needs a number from 2 to 100, not '%s'"),
                                       optarg);
          break;
        case 'p':
          if (!rw_precision_parse (optarg, &p.precision))
            return rw_cli_usage_error (sub, _("--precision must be f16, f32 or f64, not '%s'"),
                                       optarg);
          break;
        case 'd':
          if (!rw_cli_parse_double (optarg, 1e-6, 1e4, &p.duration_s))
            return rw_cli_usage_error (sub, _("--duration needs seconds above 0 and at most "
                                              "10000, not '%s'"), optarg);
          break;
        case 'a':
          if (!rw_cli_parse_vec3 (optarg, p.aspect) || !(p.aspect[0] > 0) || !(p.aspect[1] > 0)
              || !(p.aspect[2] > 0))
            return rw_cli_usage_error (sub, _("--aspect needs three numbers above 0, as X,Y,Z, "
                                              "not '%s'"), optarg);
          break;
        case 'g':
          if (!rw_cli_parse_int (optarg, 1, RW_SLAB_MAX_RANKS, &n))
            return rw_cli_usage_error (sub, _("--gpus needs a whole number from 1 to %d, not '%s'"),
                                       RW_SLAB_MAX_RANKS, optarg);
          p.n_gpus = (int) n;
          break;
        case 'G':
          if (!rw_cli_parse_int (optarg, 1, RW_SLAB_MAX_RANKS, &n))
            return rw_cli_usage_error (sub, _("--gpus-per-host needs a whole number from 1 to %d, "
                                              "not '%s'"), RW_SLAB_MAX_RANKS, optarg);
          p.gpus_per_host = (int) n;
          break;
        case 'H':
          if (!rw_cli_parse_double (optarg, 1e-3, 1e9, &p.host_memory_gib))
            return rw_cli_usage_error (sub, _("--host-memory needs GiB from 0.001 to 1000000000, "
                                              "not '%s'"), optarg);
          break;
        case 'm':
          if (!rw_cli_parse_double (optarg, 1e-3, 1e6, &p.gpu_memory_gib))
            return rw_cli_usage_error (sub, _("--gpu-memory needs GiB from 0.001 to 1000000, "
                                              "not '%s'"), optarg);
          break;
        case 'r':
          if (!rw_cli_parse_double (optarg, 1e-6, 1e6, &p.rate_gups))
            return rw_cli_usage_error (sub, _("--rate needs G updates/s from 1e-6 to 1e6, "
                                              "not '%s'"), optarg);
          break;
        case 'b':
          if (!rw_cli_parse_double (optarg, 1e-6, 1e9, &p.bandwidth_gbs))
            return rw_cli_usage_error (sub, _("--bandwidth needs GB/s from 1e-6 to 1e9, "
                                              "not '%s'"), optarg);
          break;
        case 'l':
          if (!rw_cli_parse_double (optarg, 0, 1e6, &p.latency_us))
            return rw_cli_usage_error (sub, _("--latency needs µs from 0 to 1000000, not '%s'"),
                                       optarg);
          break;
        case 'j':
          json = true;
          break;
        case 'h':
          print_help ();
          return RW_EXIT_OK;
        default:
          return rw_cli_bad_option (sub, argv);
        }
    }
  if (optind < argc)
    return rw_cli_usage_error (sub, _("unexpected argument '%s'"), argv[optind]);
  if (p.fmax_hz == 0)
    return rw_cli_usage_error (sub, _("--fmax is required"));
  if (largest == have_volume)
    return rw_cli_usage_error (sub, _("give either --volume or --largest"));

  RwClusterModel m, mh;
  RwError err = { 0 };
  double v, vh = NAN;
  if (largest ? !rw_cluster_largest (&p, false, &v, &m, &err) : !rw_cluster_model (&p, &m, &err))
    return rw_cli_fail (&err);
  if (largest && !rw_cluster_largest (&p, true, &vh, &mh, &err))
    return rw_cli_fail (&err);
  if (json)
    print_json (&m, largest, vh);
  else
    print_table (&m, largest, vh);
  return RW_EXIT_OK;
}
