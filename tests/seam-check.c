/* SPDX-License-Identifier: GPL-3.0-or-later */
/* seam-check: the seam proof of issue #12 for one room — the wave-only and
 * the geometrical-only IR of the same room, source and receivers compared
 * in the octave around the crossover, and the hybrid IR's T30 per band.
 *
 *   seam-check box|hall [--fmax F] [--fc C] [--receivers K] [--duration S]
 *              [--rays N] [--backend cpu|cuda] [--hall L,W,H]
 *              [--ga-alpha-offset D] [--wave-gain-db G]
 *              [--map FILE] [--scattering S] [--ism-order N]
 *
 * --map: a materials map file (rw-materials.h) instead of the room's own
 * rows; --scattering: one coefficient for every surface and band instead
 * of the library's; --ism-order: the geometrical part's image-source
 * order (3). Besides the checked figures it prints each receiver's own
 * window differences and T30s, 10 ms windows over the first 150 ms, and
 * each surface's model α at fc and over the seam octave.
 *
 * `seam-check box` (fmax 707 Hz, fc 500 Hz, 12 receivers, 1 s) is the CI
 * test hybrid-seam-box (≈ 20 s in a release build, ≈ 55 s under ASan, on
 * 2 cores); `seam-check hall` (fmax 354 Hz, fc 250 Hz, 2.5 s) is the same
 * check in the hall-like room (rw_shape_hall, 24 × 16 × 10 m unless
 * --hall), too slow for CI
 * (docs/GEOMETRICAL.md, "The seam in real rooms", gives the figures and
 * tests/gpu/run.sh's `seam` mode runs it on CUDA).
 *
 * How (what the pipeline will do in hybrid mode):
 *  - Materials: library rows by surface (a map file written here), each
 *    fitted over ALL eight octave bands (rw_materials_assign_models with
 *    fmax 8 kHz), so that ONE admittance model per surface serves both
 *    methods: the wave solver runs it (out->surface_models), the image
 *    sources and rays evaluate it at the band centres. Scattering: the
 *    library row's per band (rw_materials_find on the assigned name).
 *  - Wave part: rw_sim_solve (voxelise, FDTD, calibrated IR at 48 kHz per
 *    receiver), air absorption on (ISO 9613-1, 20 °C, 50 %).
 *  - Geometrical part: rw_ga_compute per receiver at the SAME snapped
 *    positions the wave part used (res.source_at, res.receivers_at[r]),
 *    the same c (the grid's), the same air, the IR as long as the wave's;
 *    the synthesis seed differs per receiver (1 + r): with one seed every
 *    receiver's late part would share its pulse times and signs, and the
 *    average over receivers would not reduce that fine structure.
 *  - Seam (rw_hybrid_seam_average): in the octave centred on fc, per 50 ms
 *    window over the first 300 ms, the band energy of each method averaged
 *    over the K receivers in linear units, and the difference in dB; T30
 *    of each method from its receiver-averaged band energy (one Schroeder
 *    curve per method). Limits (the issue's): every window within 1.5 dB,
 *    T30 within 10 %. Averaging is needed: two correct IRs with
 *    uncorrelated fine structure differ per window by an RMS of
 *    ≈ 10 lg e · √(2 / (B T)) for one receiver (≈ 1.5 dB in the 500 Hz
 *    octave), ≈ that / √K over K uncorrelated receivers (printed).
 *  - Hybrid: rw_hybrid_join per receiver at fc; T30 per octave band by
 *    rw_analyse (what `roomwave-cli analyse` reports) averaged over the
 *    receivers (rw_analysis_average). Continuity: the relative step
 *    max/min − 1 of T30 between neighbouring bands; the steps where the
 *    bands' methods differ (rw_hybrid_band_methods: wave | both |
 *    geometrical; at fc = 500 Hz those are 250–500 and 500–1000 Hz) must
 *    not exceed the largest step between any other two neighbouring bands
 *    with a T30.
 *  - --ga-alpha-offset D adds D to every surface's α target in every band
 *    for the geometrical part only (refitted), --wave-gain-db G scales the
 *    wave part: the deliberate errors the check must catch.
 *
 * Receivers: deterministic (a Halton sequence over the room's bounding
 * box), kept when inside, at least `clear` from every wall plane (the
 * rooms are convex, so the distance to the nearest plane is the distance
 * to the boundary), at least `src_dist` from the source and half a
 * wavelength at fc from each other (so that their fine structures are
 * nearly uncorrelated). */
#include "rw-test.h"
#include "rw-analysis.h"
#include "rw-clock.h"
#include "rw-ga.h"
#include "rw-hybrid.h"
#include "rw-materials.h"
#include "rw-shapes.h"
#include "rw-sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FS 48000.0
#define WINDOW_LIMIT_DB 1.5
#define T30_LIMIT 0.10

typedef struct {
  const char *room;
  double fmax, fc;
  size_t n_receivers;
  double duration;
  size_t rays;
  RwBackendKind backend;
  double hall[3];
  double ga_alpha_offset;
  double wave_gain_db;
  int ism_order;        /* --ism-order: the geometrical part's image-source order */
  double scattering;    /* --scattering: every surface and band (NAN: the library's) */
  const char *map;      /* --map: a materials map file instead of the room's own */
} Opts;

/* One surface name → one library row. */
typedef struct {
  const char *surface, *material;
} Assign;

/* The 6 × 4 × 3 m box: fibrous plaster walls, a carpet on concrete, a
 * plywood-panelled ceiling (α 0.14 … 0.20 at 500 Hz, 0.10 … 0.37 at 1 kHz):
 * T30 ≈ 0.55 s at 500 Hz. Absorption spread over all six surfaces on
 * purpose: with hard walls and an absorbing ceiling (plaster walls, an
 * acoustic-tile ceiling) the flat box's tangential modes ring on in the
 * wave part (T30 1.41 s at 500 Hz against 0.86 s from the geometrical
 * part, docs/GEOMETRICAL.md) — physics the geometrical part does not
 * have, not a seam error. */
static const Assign box_materials[] = {
  { "floor", "carpet on concrete" },  { "ceiling", "plywood panel" },
  { "wall_x0", "fibrous plaster" },   { "wall_x1", "fibrous plaster" },
  { "wall_y0", "fibrous plaster" },   { "wall_y1", "fibrous plaster" },
};
/* The hall: seats on the raked floor, a plaster ceiling, a wooden stage
 * wall, plaster side walls, an absorbing rear wall. */
static const Assign hall_materials[] = {
  { "floor", "empty wooden seats" },    { "ceiling", "plaster" },
  { "stage_wall", "plywood panel" },    { "side_wall_left", "plaster" },
  { "side_wall_right", "plaster" },     { "rear_wall", "acoustic plaster" },
};

static double
halton (size_t i, unsigned base)
{
  double f = 1, r = 0;
  for (size_t k = i; k > 0; k /= base)
    {
      f /= base;
      r += f * (double) (k % base);
    }
  return r;
}

/* Distance from p to the nearest triangle plane of a convex room. */
static double
wall_distance (const RwMesh *m, const double p[3])
{
  double d = INFINITY;
  for (size_t t = 0; t < m->n_triangles; t++)
    {
      const double *a = &m->xyz[3 * m->tri[3 * t]];
      const double *b = &m->xyz[3 * m->tri[3 * t + 1]];
      const double *c = &m->xyz[3 * m->tri[3 * t + 2]];
      const double u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
      const double v[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
      double n[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                      u[0] * v[1] - u[1] * v[0] };
      const double len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      if (len == 0)
        continue;
      const double dist = fabs ((p[0] - a[0]) * n[0] + (p[1] - a[1]) * n[1]
                                + (p[2] - a[2]) * n[2]) / len;
      d = fmin (d, dist);
    }
  return d;
}

static double
dist3 (const double a[3], const double b[3])
{
  return sqrt ((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1])
               + (a[2] - b[2]) * (a[2] - b[2]));
}

/* K receivers as the header says; false when the room has no room for them. */
static bool
place_receivers (const RwMesh *m, const double src[3], size_t K, double clear, double src_dist,
                 double spacing, double (*rcv)[3])
{
  double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
  for (size_t v = 0; v < m->n_vertices; v++)
    for (int k = 0; k < 3; k++)
      {
        lo[k] = fmin (lo[k], m->xyz[3 * v + k]);
        hi[k] = fmax (hi[k], m->xyz[3 * v + k]);
      }
  size_t n = 0;
  for (size_t i = 1; i < 100000 && n < K; i++)
    {
      const double p[3] = { lo[0] + (hi[0] - lo[0]) * halton (i, 2),
                            lo[1] + (hi[1] - lo[1]) * halton (i, 3),
                            lo[2] + (hi[2] - lo[2]) * halton (i, 5) };
      if (!rw_mesh_point_inside (m, p) || wall_distance (m, p) < clear
          || dist3 (p, src) < src_dist)
        continue;
      bool ok = true;
      for (size_t j = 0; j < n && ok; j++)
        ok = dist3 (p, rcv[j]) >= spacing;
      if (ok)
        memcpy (rcv[n++], p, sizeof p);
    }
  return n == K;
}

static void
usage (void)
{
  fprintf (stderr, "usage: seam-check box|hall [--fmax F] [--fc C] [--receivers K] "
           "[--duration S] [--rays N] [--backend cpu|cuda] [--hall L,W,H] "
           "[--ga-alpha-offset D] [--wave-gain-db G] [--map FILE] [--scattering S] "
           "[--ism-order N]\n");
}

static bool
parse (int argc, char **argv, Opts *o)
{
  if (argc < 2 || (strcmp (argv[1], "box") != 0 && strcmp (argv[1], "hall") != 0))
    return false;
  o->room = argv[1];
  const bool box = strcmp (o->room, "box") == 0;
  o->fmax = box ? 707 : 354;
  o->fc = NAN;
  o->n_receivers = 12;
  o->duration = box ? 1.0 : 2.5;
  o->rays = box ? 20000 : 50000;
  o->backend = RW_BACKEND_CPU;
  o->hall[0] = 24;
  o->hall[1] = 16;
  o->hall[2] = 10;
  o->ga_alpha_offset = 0;
  o->wave_gain_db = 0;
  o->map = NULL;
  o->scattering = NAN;
  o->ism_order = RW_ISM_DEFAULT_ORDER;
  for (int i = 2; i < argc; i++)
    {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (v == NULL)
        return false;
      char *end = NULL;
      const double x = strtod (v, &end);
      const bool num = end != v && *end == '\0' && isfinite (x);
      i++;
      if (strcmp (a, "--fmax") == 0 && num && x > 0)
        o->fmax = x;
      else if (strcmp (a, "--fc") == 0 && num && x > 0)
        o->fc = x;
      else if (strcmp (a, "--receivers") == 0 && num && x >= 1 && x <= RW_SIM_MAX_RECEIVERS)
        o->n_receivers = (size_t) x;
      else if (strcmp (a, "--duration") == 0 && num && x > 0.3 && x <= 30)
        o->duration = x;
      else if (strcmp (a, "--rays") == 0 && num && x >= 1)
        o->rays = (size_t) x;
      else if (strcmp (a, "--backend") == 0)
        {
          if (!rw_backend_kind_parse (v, &o->backend))
            return false;
        }
      else if (strcmp (a, "--hall") == 0)
        {
          if (sscanf (v, "%lf,%lf,%lf", &o->hall[0], &o->hall[1], &o->hall[2]) != 3
              || !(o->hall[0] > 0 && o->hall[1] > 0 && o->hall[2] > 0))
            return false;
        }
      else if (strcmp (a, "--ga-alpha-offset") == 0 && num && fabs (x) < 0.5)
        o->ga_alpha_offset = x;
      else if (strcmp (a, "--wave-gain-db") == 0 && num && fabs (x) < 40)
        o->wave_gain_db = x;
      else if (strcmp (a, "--ism-order") == 0 && num && x >= 0 && x <= RW_ISM_MAX_ORDER)
        o->ism_order = (int) x;
      else if (strcmp (a, "--scattering") == 0 && num && x >= 0 && x <= 1)
        o->scattering = x;
      else if (strcmp (a, "--map") == 0)
        o->map = v;
      else
        return false;
    }
  if (!isfinite (o->fc))
    o->fc = box ? 500 : 250;
  return true;
}

/* Writes the map file of `as` and returns its path. */
static const char *
write_map (const Assign *as, size_t n)
{
  char text[2048];
  size_t len = 0;
  len += (size_t) snprintf (text + len, sizeof text - len, "{");
  for (size_t i = 0; i < n; i++)
    len += (size_t) snprintf (text + len, sizeof text - len, "%s\"%s\": \"%s\"", i ? ", " : "",
                              as[i].surface, as[i].material);
  snprintf (text + len, sizeof text - len, "}\n");
  return rw_test_write_text ("materials-map.json", text);
}

/* Mean T30 per band over n analyses, and how many had one. */
static void
band_t30s (const RwAnalysis *an, size_t n, double t30[RW_N_OCTAVES], RwAnalysis *avg)
{
  RwError err = { 0 };
  const bool ok = rw_analysis_average (an, n, avg, &err);
  RW_CHECK (ok, "average: %s", err.message);
  for (int b = 0; b < RW_N_OCTAVES; b++)
    t30[b] = ok ? avg->bands[b].t30.value_s : NAN;
}

static double
step_of (double a, double b)
{
  return isfinite (a) && isfinite (b) && a > 0 && b > 0 ? fmax (a, b) / fmin (a, b) - 1 : NAN;
}

int
main (int argc, char **argv)
{
  Opts o;
  if (!parse (argc, argv, &o))
    {
      usage ();
      return 2;
    }
  const bool box = strcmp (o.room, "box") == 0;
  RwError err = { 0 };
  RwMesh *mesh = box ? rw_shape_box (6, 4, 3) : rw_shape_hall (o.hall[0], o.hall[1], o.hall[2], 12);
  RwMaterialLibrary *lib = rw_materials_load (NULL, &err);
  if (mesh == NULL || lib == NULL)
    {
      fprintf (stderr, "seam-check: %s\n", mesh == NULL ? "bad room size" : err.message);
      return 1;
    }
  const size_t ns = mesh->n_surfaces, K = o.n_receivers;
  const char *map = o.map != NULL ? o.map
                    : write_map (box ? box_materials : hall_materials, 6);

  /* source and receivers */
  double src[3], (*rcv)[3] = calloc (K, sizeof *rcv);
  if (box)
    {
      src[0] = 1.35;
      src[1] = 1.15;
      src[2] = 1.25;
    }
  else
    {
      /* on the stage, off the hall's plane of symmetry */
      src[0] = 0.1 * o.hall[0];
      src[1] = 0.55 * o.hall[1];
      src[2] = 0.015 * o.hall[2] + 1.5;
    }
  const double c0 = 343.2;
  const double clear = box ? 0.5 : 1.0, src_dist = box ? 1.0 : 3.0;
  const double spacing = c0 / (2 * o.fc);
  if (!place_receivers (mesh, src, K, clear, src_dist, spacing, rcv))
    {
      fprintf (stderr, "seam-check: no room for %zu receivers %.2f m apart, %.1f m from the "
               "walls and %.1f m from the source\n", K, spacing, clear, src_dist);
      return 1;
    }

  /* one model per surface over all eight bands, for both methods */
  RwSimResult res;
  memset (&res, 0, sizeof res);
  res.n_surfaces = ns;
  res.surface_R = calloc (ns, sizeof (double));
  res.surface_models = calloc (ns, sizeof (RwSurfaceModel));
  char **names = NULL;
  if (!rw_materials_assign_models (lib, mesh, map, NAN, 8000.0, RW_N_OCTAVES, res.surface_R,
                                   res.surface_models, &names, &err))
    {
      fprintf (stderr, "seam-check: materials: %s\n", err.message);
      return 1;
    }
  RwAdmittance *Y = calloc (ns, sizeof *Y);
  double *sc = calloc (ns * RW_N_OCTAVES, sizeof *sc);
  for (size_t s = 0; s < ns; s++)
    {
      const RwMaterial *mat = rw_materials_find (lib, names[s]);
      RW_CHECK (mat != NULL || o.map != NULL, "surface %s: no library row %s",
                mesh->surface_names[s], names[s]);
      Y[s] = res.surface_models[s].Y;
      if (o.ga_alpha_offset != 0)
        {
          double a[RW_N_OCTAVES];
          for (int b = 0; b < RW_N_OCTAVES; b++)
            a[b] = fmin (0.95, fmax (0.005, res.surface_models[s].alpha_target[b]
                                              + o.ga_alpha_offset));
          const bool ok = rw_admittance_fit_alpha (a, rw_admittance_bands_for_fmax (8000.0),
                                                   &Y[s], NULL, &err);
          RW_CHECK (ok, "refit: %s", err.message);
        }
      for (int b = 0; b < RW_N_OCTAVES; b++)
        sc[s * RW_N_OCTAVES + b] = isfinite (o.scattering) ? o.scattering
                                   : res.surface_models[s].scattering[b];
      printf ("surface %-16s %-22s α model", mesh->surface_names[s], names[s]);
      for (int b = 0; b < RW_N_OCTAVES; b++)
        printf (" %.3f", res.surface_models[s].fit.model_random[b]);
      /* the model across the seam octave: the geometrical part uses its
       * value at the centre, the wave part all of it */
      double mean = 0;
      for (int k = 0; k < 64; k++)
        mean += rw_alpha_random (rw_admittance_eval (&res.surface_models[s].Y,
                                                     o.fc * pow (2, (k + 0.5) / 64 - 0.5))) / 64;
      printf ("  (%d branches); in the seam octave α %.3f at %g Hz, %.3f mean\n",
              res.surface_models[s].Y.n_branches,
              rw_alpha_random (rw_admittance_eval (&res.surface_models[s].Y, o.fc)), o.fc, mean);
    }

  /* the wave part */
  RwSimConfig cfg;
  rw_sim_config_init (&cfg);
  cfg.fmax_hz = o.fmax;
  cfg.duration_s = o.duration;
  cfg.air_absorption = true;
  cfg.backend = o.backend;
  memcpy (cfg.source, src, sizeof src);
  cfg.n_receivers = K;
  memcpy (cfg.receivers, rcv, K * sizeof *rcv);
  double t0 = rw_clock_s ();
  if (!rw_sim_solve (&cfg, mesh, res.surface_R, NULL, NULL, NULL, &res, &err))
    {
      fprintf (stderr, "seam-check: wave part: %s\n", err.message);
      return 1;
    }
  const double t_wave = rw_clock_s () - t0;
  RW_NOTE ("%s: volume %.1f m³, fmax %g Hz, fc %g Hz, %zu receivers; wave part: h %.4f m, "
           "%zu inside cells, %zu steps, %s, %.1f s", o.room, res.grid_volume_m3, o.fmax, o.fc, K,
           res.spacing_m, res.n_inside, res.n_steps, res.backend, t_wave);
  RW_NOTE ("source (%.3f, %.3f, %.3f) m (snapped)", res.source_at[0], res.source_at[1],
           res.source_at[2]);

  /* the geometrical part at the same points */
  RwGaScene *scene = rw_ga_scene_new (mesh, &err);
  RW_CHECK (scene != NULL, "scene: %s", err.message);
  if (scene == NULL)
    return rw_test_finish ();
  size_t n = res.ir_frames;
  double **wave = calloc (K, sizeof *wave), **ga = calloc (K, sizeof *ga);
  double t_ga = 0;
  const double wave_gain = pow (10, o.wave_gain_db / 20);
  for (size_t r = 0; r < K; r++)
    {
      RwGaSettings gs;
      rw_ga_settings_init (&gs);
      gs.n_rays = o.rays;
      gs.seed = 1 + r;
      gs.ism_order = o.ism_order;
      gs.duration_s = (double) res.ir_frames / FS;
      gs.speed_of_sound = res.c;
      gs.air_absorption = cfg.air_absorption;
      gs.temperature_c = cfg.temperature_c;
      gs.humidity_pct = cfg.humidity_pct;
      RwGaResult g;
      t0 = rw_clock_s ();
      const bool ok = rw_ga_compute (scene, Y, sc, ns, res.source_at, res.receivers_at[r], &gs, &g,
                                     &err);
      t_ga += rw_clock_s () - t0;
      RW_CHECK (ok, "geometrical part, receiver %zu: %s", r + 1, err.message);
      if (!ok)
        return rw_test_finish ();
      n = n < g.n_samples ? n : g.n_samples;
      wave[r] = malloc (res.ir_frames * sizeof (double));
      ga[r] = malloc (g.n_samples * sizeof (double));
      for (size_t i = 0; i < res.ir_frames; i++)
        wave[r][i] = wave_gain * res.ir[r][i];
      memcpy (ga[r], g.ir, g.n_samples * sizeof (double));
      RW_NOTE ("receiver %2zu at (%.3f, %.3f, %.3f) m, %.2f m from the source; rays: radius "
               "%.3f m, %zu image sources", r + 1, res.receivers_at[r][0], res.receivers_at[r][1],
               res.receivers_at[r][2], dist3 (res.source_at, res.receivers_at[r]),
               g.rays.receiver_radius_m, g.ism.n_arrivals);
      rw_ga_result_clear (&g);
    }
  RW_NOTE ("geometrical part: %zu rays, order %d, %.1f s for %zu receivers", o.rays,
           o.ism_order, t_ga, K);

  /* the seam: receiver-averaged band energy per window, and T30 */
  RwHybridSeam seam;
  bool ok = rw_hybrid_seam_average ((const double *const *) wave, (const double *const *) ga, K,
                                    n, FS, o.fc, &seam, &err);
  RW_CHECK (ok, "seam: %s", err.message);
  if (!ok)
    return rw_test_finish ();
  /* what chance alone gives: one receiver's RMS window difference for
   * uncorrelated fine structure, over √K (B: the octave's width) */
  const double bw = seam.upper_hz - seam.lower_hz;
  const double rms1 = 10 / log (10) * sqrt (2 / (bw * RW_HYBRID_SEAM_WINDOW_S));
  RW_NOTE ("seam octave %.0f … %.0f Hz (centre %.1f Hz), %zu receivers averaged; chance alone: "
           "%.2f dB RMS per window for one receiver, %.2f dB for %zu", seam.lower_hz,
           seam.upper_hz, seam.centre_hz, K, rms1, rms1 / sqrt ((double) K), K);
  for (size_t w = 0; w < seam.n_windows; w++)
    {
      RW_NOTE ("window %3.0f–%3.0f ms: wave %7.2f dB, geometrical %7.2f dB, difference %+.2f dB",
               1000 * RW_HYBRID_SEAM_WINDOW_S * (double) w,
               1000 * RW_HYBRID_SEAM_WINDOW_S * (double) (w + 1), seam.level_a_db[w],
               seam.level_b_db[w], seam.diff_db[w]);
      RW_CHECK (fabs (seam.diff_db[w]) <= WINDOW_LIMIT_DB,
                "window %zu: wave and geometrical differ by %+.2f dB (limit %.1f dB)", w + 1,
                seam.diff_db[w], WINDOW_LIMIT_DB);
    }
  RW_CHECK (seam.n_windows == 6, "%zu windows of 50 ms in the IRs, 6 wanted", seam.n_windows);
  /* finer, for the record: 10 ms windows over the first 150 ms, the same
   * band filter, receiver-averaged (where the two parts begin to differ) */
  {
    enum { FINE = 15 };
    const size_t fw = (size_t) (0.01 * FS);
    double ew[FINE] = { 0 }, eg[FINE] = { 0 };
    double *y = malloc (n * sizeof *y);
    for (size_t r = 0; y != NULL && r < K && FINE * fw <= n; r++)
      for (int part = 0; part < 2; part++)
        {
          if (!rw_octave_filter (o.fc, FS, RW_FILTER_TIME_REVERSED, part ? ga[r] : wave[r], y, n,
                                 &err))
            break;
          for (int w = 0; w < FINE; w++)
            for (size_t i = (size_t) w * fw; i < (size_t) (w + 1) * fw; i++)
              (part ? eg : ew)[w] += y[i] * y[i];
        }
    printf ("10 ms windows, wave − geometrical (dB):");
    for (int w = 0; w < FINE; w++)
      printf (" %+.2f", 10 * log10 (ew[w] / eg[w]));
    printf ("\n");
    free (y);
  }
  /* per receiver, for the record: the spread the average removes */
  double t30w = 0, t30g = 0, worst1 = 0;
  size_t nt = 0;
  for (size_t r = 0; r < K; r++)
    {
      RwHybridSeam one;
      if (!rw_hybrid_seam (wave[r], ga[r], n, FS, o.fc, &one, &err))
        continue;
      printf ("receiver %2zu alone: window differences", r + 1);
      for (size_t w = 0; w < one.n_windows; w++)
        printf (" %+.2f", one.diff_db[w]);
      printf (" dB, T30 %.3f s vs %.3f s\n", one.t30_a.value_s, one.t30_b.value_s);
      worst1 = fmax (worst1, one.max_abs_diff_db);
      if (isfinite (one.t30_rel_diff))
        {
          t30w += one.t30_a.value_s;
          t30g += one.t30_b.value_s;
          nt++;
        }
    }
  RW_NOTE ("T30 in the seam octave (receiver-averaged decay): wave %.3f s, geometrical %.3f s "
           "(%+.1f %%); mean of the %zu receivers' own T30: %.3f s, %.3f s (%+.1f %%); worst "
           "single-receiver window difference %.2f dB", seam.t30_a.value_s, seam.t30_b.value_s,
           100 * seam.t30_rel_diff, nt, t30w / (double) nt, t30g / (double) nt,
           100 * (t30g / t30w - 1), worst1);
  RW_CHECK (fabs (seam.t30_rel_diff) <= T30_LIMIT,
            "T30 in the seam octave: wave %.3f s, geometrical %.3f s (%+.1f %%, limit %.0f %%)",
            seam.t30_a.value_s, seam.t30_b.value_s, 100 * seam.t30_rel_diff, 100 * T30_LIMIT);

  /* the hybrid IR, and T30 per band of each */
  RwAnalysis *an_h = calloc (K, sizeof *an_h), *an_w = calloc (K, sizeof *an_w);
  RwAnalysis *an_g = calloc (K, sizeof *an_g);
  float *xf = malloc (n * sizeof *xf);
  double *hyb = malloc (n * sizeof *hyb);
  for (size_t r = 0; r < K && ok; r++)
    {
      const RwHybridPart pw = { wave[r], n, FS }, pg = { ga[r], n, FS };
      ok = rw_hybrid_join (&pw, &pg, o.fmax, o.fc, hyb, NULL, NULL, &err);
      RW_CHECK (ok, "join: %s", err.message);
      const double *src3[3] = { hyb, wave[r], ga[r] };
      RwAnalysis *dst[3] = { &an_h[r], &an_w[r], &an_g[r] };
      const double fm[3] = { INFINITY, o.fmax, INFINITY };
      for (int k = 0; k < 3 && ok; k++)
        {
          for (size_t i = 0; i < n; i++)
            xf[i] = (float) src3[k][i];
          ok = rw_analyse (xf, n, FS, fm[k], dst[k], &err);
          RW_CHECK (ok, "analyse: %s", err.message);
        }
    }
  if (!ok)
    return rw_test_finish ();
  double th[RW_N_OCTAVES], tw[RW_N_OCTAVES], tg[RW_N_OCTAVES];
  RwAnalysis avg_h, avg_w, avg_g;
  band_t30s (an_h, K, th, &avg_h);
  band_t30s (an_w, K, tw, &avg_w);
  band_t30s (an_g, K, tg, &avg_g);
  RwHybridMethod methods[RW_N_OCTAVES];
  rw_hybrid_band_methods (o.fc, methods);
  RW_NOTE ("T30 per octave band, mean of the receivers that have one (rw_analyse):");
  RW_NOTE ("  band   method        hybrid     wave      geometrical   step to the next band");
  double seam_step = 0, other_step = 0;
  int n_seam = 0, n_other = 0;
  for (int b = 0; b < RW_N_OCTAVES; b++)
    {
      const double st = b + 1 < RW_N_OCTAVES ? step_of (th[b], th[b + 1]) : NAN;
      const bool across = b + 1 < RW_N_OCTAVES && methods[b] != methods[b + 1];
      char stbuf[48] = "";
      if (b + 1 < RW_N_OCTAVES)
        snprintf (stbuf, sizeof stbuf, "%6.1f %%%s", 100 * st, across ? " (seam)" : "");
      RW_NOTE ("  %4g Hz %-12s %6.3f s (%zu) %6.3f s  %6.3f s      %s", rw_octave_centres_hz[b],
               rw_hybrid_method_name (methods[b]), th[b], (size_t) avg_h.bands[b].n_values[2],
               tw[b], tg[b], stbuf);
      if (!isfinite (st))
        continue;
      if (across)
        {
          seam_step = fmax (seam_step, st);
          n_seam++;
        }
      else
        {
          other_step = fmax (other_step, st);
          n_other++;
        }
    }
  RW_NOTE ("largest step across the crossover %.1f %% (%d steps), elsewhere %.1f %% (%d steps)",
           100 * seam_step, n_seam, 100 * other_step, n_other);
  RW_CHECK (n_seam >= 1 && n_other >= 1, "continuity needs steps on both sides (%d, %d)", n_seam,
            n_other);
  RW_CHECK (seam_step <= other_step,
            "T30 steps by %.1f %% across the crossover, more than the %.1f %% between any other "
            "two neighbouring bands", 100 * seam_step, 100 * other_step);

  for (size_t r = 0; r < K; r++)
    {
      rw_analysis_clear (&an_h[r]);
      rw_analysis_clear (&an_w[r]);
      rw_analysis_clear (&an_g[r]);
      free (wave[r]);
      free (ga[r]);
    }
  rw_analysis_clear (&avg_h);
  rw_analysis_clear (&avg_w);
  rw_analysis_clear (&avg_g);
  free (an_h);
  free (an_w);
  free (an_g);
  free (xf);
  free (hyb);
  free (wave);
  free (ga);
  for (size_t s = 0; s < ns; s++)
    free (names[s]);
  free (names);
  free (Y);
  free (sc);
  free (rcv);
  rw_ga_scene_free (scene);
  rw_sim_result_clear (&res);
  rw_materials_free (lib);
  rw_mesh_free (mesh);
  return rw_test_finish ();
}
