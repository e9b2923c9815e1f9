/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-info.c — `roomwave-cli info MESH`: what an acoustician checks before
 * simulating a room (size, volume, areas, materials, leaks, orientation,
 * units), as text or as JSON (--json) for scripts. Fields: docs/IMPORT.md. */
#include "cli.h"
#include "rw-json.h"
#include "rw-materials.h"
#include "rw-mesh.h"
#include "rw-physics.h"
#include "rw-voxel.h"

#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
print_usage (FILE *out)
{
  fprintf (out, _("Usage: roomwave-cli info MESH [--scale S] [--materials MAP] [--fmax HZ] [--ppw N] [--json]\n\n"
                  "Reports on a room model: bounding box, volume, surface areas and their\n"
                  "materials, whether it is closed (watertight) and where it leaks, whether its\n"
                  "normals point outward, and whether it looks drawn in millimetres; for a\n"
                  "closed model, the area each surface absorbs over on the simulation grid.\n\n"
                  "Options:\n"
                  "  --scale S        multiply coordinates by S to get metres (0.001 for mm)\n"
                  "  --materials MAP  JSON map of surface names to materials (docs/IMPORT.md)\n"
                  "  --fmax HZ        highest simulated frequency, for the reflection factor R\n"
                  "                   shown per surface and the grid (default 1000)\n"
                  "  --ppw N          grid points per wavelength at fmax, as for simulate\n"
                  "                   (default %.2f)\n"
                  "  --json           write the report as JSON on standard output\n"
                  "  -h, --help       show this help\n\n"
                  "Exit status: 0 report written (also for a leaky mesh: see \"watertight\"),\n"
                  "1 bad input (unreadable or invalid mesh or map), 2 bad usage.\n"), RW_DEFAULT_PPW);
}

typedef struct {
  char text[512];
} Warning;

/* Collects the warnings an acoustician should act on, in order of harm. */
/* "a, b, c" of the surfaces that lie inside another shell (… when more). */
static void
overlap_names (const RwMesh *mesh, const RwMeshReport *r, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < r->n_overlap_surfaces && i < RW_MESH_SHELLS_MAX_SURFACES && used < len; i++)
    {
      uint32_t s = r->overlap_surfaces[i];
      int n = snprintf (buf + used, len - used, "%s%s", i ? ", " : "",
                        s < mesh->n_surfaces ? mesh->surface_names[s] : "?");
      if (n < 0)
        break;
      used += (size_t) n;
    }
  if (r->n_overlap_surfaces > RW_MESH_SHELLS_MAX_SURFACES && used < len)
    snprintf (buf + used, len - used, ", …");
}

static size_t
collect_warnings (const RwMesh *mesh, const RwMeshReport *r, double scale, Warning *w, size_t max)
{
  size_t n = 0;
  double side = 0;   /* the longest side of the bounding box */
  for (int i = 0; i < 3; i++)
    side = fmax (side, r->bbox_max[i] - r->bbox_min[i]);
#define ADD(...) do { if (n < max) snprintf (w[n++].text, sizeof w[0].text, __VA_ARGS__); } while (0)
  if (r->n_open_edges > 0)
    ADD (_("the mesh is not closed: %zu open edges; the room leaks and cannot be simulated"), r->n_open_edges);
  if (r->n_nonmanifold_edges > 0)
    ADD (_("%zu edges are shared by more than two triangles (internal faces or duplicated geometry)"),
         r->n_nonmanifold_edges);
  if (r->n_misoriented_edges > 0)
    ADD (_("%zu edges join triangles of opposite orientation: the normals are inconsistent"),
         r->n_misoriented_edges);
  if (r->flipped)
    ADD (_("the normals pointed into the room (negative volume); they were flipped (fix them in the "
           "modelling tool to silence this)"));
  if (r->overlap_volume_m3 > 0)
    {
      char names[256];
      overlap_names (mesh, r, names, sizeof names);
      ADD (_("closed shells overlap or the surface intersects itself: %.3f m³ lies inside two or more "
             "shells (surfaces inside another: %s); the room is taken as their union"),
           r->overlap_volume_m3, names);
    }
  if (r->n_degenerate > 0)
    ADD (_("%zu degenerate triangles (zero area)"), r->n_degenerate);
  if (r->n_nonfinite > 0)
    ADD (_("%zu vertices have non-finite coordinates"), r->n_nonfinite);
  if (r->looks_like_millimetres)
    {
      if (r->alternative_scale > 0)
        ADD (_("the model is %.0f m across: probably not drawn in metres; try --scale %g (%.1f m) or, "
               "for inches, --scale %g (%.1f m)"),
             side, scale * r->suggested_scale, side * r->suggested_scale, scale * r->alternative_scale,
             side * r->alternative_scale);
      else
        ADD (_("the model is %.0f m across: probably not drawn in metres; try --scale %g (%.1f m)"), side,
             scale * r->suggested_scale, side * r->suggested_scale);
    }
  else if (side < 1.0)
    ADD (_("the model is only %.3g m across: was it drawn in another unit? (--scale)"), side);
#undef ADD
  return n;
}

/* `text` right-aligned in `width` columns: printf pads by bytes, and
 * "m²" (or a translation) has more bytes than columns. */
static void
print_right (const char *text, int width)
{
  int cols = 0;
  for (const unsigned char *c = (const unsigned char *) text; *c; c++)
    cols += (*c & 0xc0) != 0x80;   /* count UTF-8 lead bytes only */
  printf (" %*s%s", width > cols ? width - cols : 0, "", text);
}

/* Above this the grid is left out of the report: info should answer in
 * seconds, and simulate says itself when a grid does not fit. */
#define INFO_GRID_MAX_BYTES ((size_t) 2 << 30)

/* The room voxelised as simulate would at fmax and ppw (20 °C), for the
 * absorbing areas; NULL with the reason in err when the mesh leaks or the
 * grid is too large for a report. */
static RwGrid *
info_grid (const RwMesh *mesh, const char *path, double fmax_hz, double ppw, RwError *err)
{
  double h = rw_spacing_for_fmax (rw_speed_of_sound (RW_DEFAULT_TEMPERATURE_C), fmax_hz, ppw);
  size_t bytes = rw_voxel_memory_bytes (mesh, h);
  if (bytes > INFO_GRID_MAX_BYTES)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("%s: the grid at h = %.4g m would take %.3g GiB, too much for a "
                                       "report; lower --fmax or --ppw"),
               path, h, (double) bytes / 1073741824.0);
      return NULL;
    }
  return rw_voxelise (mesh, h, 0, err);
}

int
rw_cli_info (int argc, char **argv)
{
  static const struct option options[] = {
    { "scale", required_argument, NULL, 's' },
    { "materials", required_argument, NULL, 'm' },
    { "fmax", required_argument, NULL, 'f' },
    { "ppw", required_argument, NULL, 'p' },
    { "json", no_argument, NULL, 'j' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  double scale = 1.0, fmax_hz = 1000.0, ppw = RW_DEFAULT_PPW;
  const char *map_path = NULL;
  bool as_json = false;
  optind = 0;   /* glibc: full re-initialisation, argv[0] is "info" */
  opterr = 0;
  int c;
  while ((c = getopt_long (argc, argv, "h", options, NULL)) != -1)
    switch (c)
      {
      case 's':
        if (!rw_cli_parse_double (optarg, 1e-9, 1e9, &scale) || !(scale > 0))
          return rw_cli_usage_error ("info", _("--scale needs a positive number, not '%s'"), optarg);
        break;
      case 'm':
        map_path = optarg;
        break;
      case 'f':
        if (!rw_cli_parse_double (optarg, 1.0, 1e6, &fmax_hz))
          return rw_cli_usage_error ("info", _("--fmax needs a frequency in Hz, not '%s'"), optarg);
        break;
      case 'p':
        if (!rw_cli_parse_double (optarg, 4.0, 100.0, &ppw))
          return rw_cli_usage_error ("info", _("--ppw '%s': expected points per wavelength, 4 to 100"), optarg);
        break;
      case 'j':
        as_json = true;
        break;
      case 'h':
        print_usage (stdout);
        return RW_EXIT_OK;
      default:
        return rw_cli_bad_option ("info", argv);
      }
  if (optind >= argc)
    return rw_cli_usage_error ("info", _("no mesh file given"));
  if (optind + 1 < argc)
    return rw_cli_usage_error ("info", _("one mesh file at a time ('%s' is extra)"), argv[optind + 1]);
  const char *path = argv[optind];

  RwError err = { 0 };
  RwMesh *mesh = rw_mesh_load (path, scale, &err);
  if (mesh == NULL)
    return rw_cli_fail (&err);
  RwMeshReport r;
  if (!rw_mesh_report (mesh, &r, &err))
    {
      rw_mesh_free (mesh);
      return rw_cli_fail (&err);
    }
  rw_mesh_orient_outward (mesh, &r);

  /* Materials are informative here: a missing library leaves them out, a
   * bad map file is an error (the user asked for it). */
  RwMaterialLibrary *lib = rw_materials_load (NULL, &err);
  double *R = calloc (mesh->n_surfaces ? mesh->n_surfaces : 1, sizeof (double));
  size_t *tri_count = calloc (mesh->n_surfaces ? mesh->n_surfaces : 1, sizeof (size_t));
  char **material = NULL;
  RwGrid *grid = NULL;
  double *face_area = NULL;   /* per surface, the uncorrected face count's area */
  int status = RW_EXIT_OK;
  if (R == NULL || tri_count == NULL)
    {
      rw_fail (&err, RW_ERROR_MEMORY, _("out of memory"));
      status = rw_cli_fail (&err);
      goto out;
    }
  if (lib == NULL && map_path != NULL)
    {
      status = rw_cli_fail (&err);
      goto out;
    }
  if (lib != NULL && !rw_materials_assign (lib, mesh, map_path, NAN, fmax_hz, R, &material, &err))
    {
      status = rw_cli_fail (&err);
      goto out;
    }
  for (size_t t = 0; t < mesh->n_triangles; t++)
    if (mesh->tri_surface[t] < mesh->n_surfaces)
      tri_count[mesh->tri_surface[t]]++;

  Warning warnings[16];
  size_t n_warn = collect_warnings (mesh, &r, scale, warnings, 16);
  /* the absorbing areas on the grid (rw-voxel.h: RwGrid.area), beside the
   * staircase's face count, to show what the solver absorbs over */
  RwError grid_err = { 0 };
  grid = r.watertight ? info_grid (mesh, path, fmax_hz, ppw, &grid_err) : NULL;
  if (!r.watertight)
    rw_fail (&grid_err, RW_ERROR_INPUT, _("the mesh is not closed"));
  face_area = grid ? calloc (grid->n_surfaces, sizeof (double)) : NULL;
  if (grid && face_area == NULL)
    {
      rw_fail (&err, RW_ERROR_MEMORY, _("out of memory"));
      status = rw_cli_fail (&err);
      goto out;
    }
  if (grid)
    rw_grid_face_areas_m2 (grid, face_area);
  double dims[3];
  for (int i = 0; i < 3; i++)
    dims[i] = r.bbox_max[i] - r.bbox_min[i];

  if (as_json)
    {
      /* Ten significant digits: 0.0254 stays 0.0254, and millimetre
       * precision survives in a 1 km model. */
      json_c_set_serialization_double_format ("%.10g", JSON_C_OPTION_THREAD);
      struct json_object *o = json_object_new_object ();
      json_object_object_add (o, "file", json_object_new_string (path));
      json_object_object_add (o, "scale", json_object_new_double (scale));
      json_object_object_add (o, "vertices", json_object_new_int64 ((int64_t) mesh->n_vertices));
      json_object_object_add (o, "triangles", json_object_new_int64 ((int64_t) mesh->n_triangles));
      json_object_object_add (o, "volume_m3", json_object_new_double (r.volume_m3));
      json_object_object_add (o, "area_m2", json_object_new_double (r.area_m2));
      json_object_object_add (o, "bbox_min", rw_json_vec3 (r.bbox_min));
      json_object_object_add (o, "bbox_max", rw_json_vec3 (r.bbox_max));
      json_object_object_add (o, "dimensions_m", rw_json_vec3 (dims));
      json_object_object_add (o, "watertight", json_object_new_boolean (r.watertight));
      json_object_object_add (o, "outward", json_object_new_boolean (r.outward));
      json_object_object_add (o, "normals_flipped", json_object_new_boolean (r.flipped));
      json_object_object_add (o, "overlap_volume_m3", json_object_new_double (r.overlap_volume_m3));
      struct json_object *inner = json_object_new_array ();
      for (size_t i = 0; i < r.n_overlap_surfaces && i < RW_MESH_SHELLS_MAX_SURFACES; i++)
        if (r.overlap_surfaces[i] < mesh->n_surfaces)
          json_object_array_add (inner, json_object_new_string (mesh->surface_names[r.overlap_surfaces[i]]));
      json_object_object_add (o, "overlapping_surfaces", inner);
      json_object_object_add (o, "open_edges", json_object_new_int64 ((int64_t) r.n_open_edges));
      json_object_object_add (o, "nonmanifold_edges", json_object_new_int64 ((int64_t) r.n_nonmanifold_edges));
      json_object_object_add (o, "misoriented_edges", json_object_new_int64 ((int64_t) r.n_misoriented_edges));
      json_object_object_add (o, "degenerate_triangles", json_object_new_int64 ((int64_t) r.n_degenerate));
      json_object_object_add (o, "nonfinite_vertices", json_object_new_int64 ((int64_t) r.n_nonfinite));
      struct json_object *leaks = json_object_new_array ();
      for (size_t i = 0; i < r.n_edge_samples; i++)
        {
          struct json_object *e = json_object_new_array ();
          json_object_array_add (e, rw_json_vec3 (r.edge_samples[i]));
          json_object_array_add (e, rw_json_vec3 (r.edge_samples[i] + 3));
          json_object_array_add (leaks, e);
        }
      json_object_object_add (o, "open_edge_samples", leaks);
      json_object_object_add (o, "suggested_scale",
                              r.looks_like_millimetres ? json_object_new_double (scale * r.suggested_scale) : NULL);
      json_object_object_add (o, "alternative_scale",
                              r.alternative_scale > 0 ? json_object_new_double (scale * r.alternative_scale) : NULL);
      json_object_object_add (o, "fmax_hz", json_object_new_double (fmax_hz));
      json_object_object_add (o, "grid_spacing_m", grid ? json_object_new_double (grid->h) : NULL);
      json_object_object_add (o, "grid_error", grid ? NULL : json_object_new_string (grid_err.message));
      struct json_object *warr = json_object_new_array ();
      for (size_t i = 0; i < n_warn; i++)
        json_object_array_add (warr, json_object_new_string (warnings[i].text));
      json_object_object_add (o, "warnings", warr);
      struct json_object *surfs = json_object_new_array ();
      for (size_t s = 0; s < mesh->n_surfaces; s++)
        {
          struct json_object *so = json_object_new_object ();
          json_object_object_add (so, "name", json_object_new_string (mesh->surface_names[s]));
          json_object_object_add (so, "area_m2", json_object_new_double (r.surface_area_m2[s]));
          json_object_object_add (so, "triangles", json_object_new_int64 ((int64_t) tri_count[s]));
          const char *hint = mesh->surface_materials ? mesh->surface_materials[s] : NULL;
          json_object_object_add (so, "model_material", hint ? json_object_new_string (hint) : NULL);
          json_object_object_add (so, "material", material ? json_object_new_string (material[s]) : NULL);
          json_object_object_add (so, "R", material ? json_object_new_double (R[s]) : NULL);
          json_object_object_add (so, "grid_area_m2", grid ? json_object_new_double (grid->surface_area_m2[s]) : NULL);
          json_object_object_add (so, "grid_face_area_m2", grid ? json_object_new_double (face_area[s]) : NULL);
          json_object_array_add (surfs, so);
        }
      json_object_object_add (o, "surfaces", surfs);
      puts (json_object_to_json_string_ext (o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
      json_object_put (o);
      goto out;
    }

  printf (_("Mesh: %s\n"), path);
  if (scale != 1.0)
    printf (_("Scale: %g (coordinates multiplied to give metres)\n"), scale);
  printf (_("Vertices: %zu   triangles: %zu   surfaces: %zu\n"), mesh->n_vertices, mesh->n_triangles,
          mesh->n_surfaces);
  printf (_("Bounding box: (%.3f, %.3f, %.3f) – (%.3f, %.3f, %.3f) m\n"), r.bbox_min[0], r.bbox_min[1],
          r.bbox_min[2], r.bbox_max[0], r.bbox_max[1], r.bbox_max[2]);
  printf (_("Dimensions: %.3f × %.3f × %.3f m\n"), dims[0], dims[1], dims[2]);
  if (r.watertight && r.overlap_volume_m3 > 0)
    printf (_("Volume: %.3f m³ (the union of overlapping shells; %.3f m³ lies inside two or more)\n"),
            fabs (r.volume_m3), r.overlap_volume_m3);
  else if (r.watertight)
    printf (_("Volume: %.3f m³\n"), fabs (r.volume_m3));
  else
    printf (_("Volume: %.3f m³ (not meaningful: the mesh is not closed)\n"), r.volume_m3);
  printf (_("Surface area: %.3f m²\n"), r.area_m2);
  printf (_("\nSurfaces (R at fmax %g Hz):\n"), fmax_hz);
  int name_w = 8;
  for (size_t s = 0; s < mesh->n_surfaces; s++)
    name_w = (int) fmax (name_w, fmin (40, (double) strlen (mesh->surface_names[s])));
  for (size_t s = 0; s < mesh->n_surfaces; s++)
    {
      printf ("  %-*s %10.3f m² %7zu %-9s", name_w, mesh->surface_names[s], r.surface_area_m2[s], tri_count[s],
              dngettext (GETTEXT_PACKAGE, "triangle", "triangles", tri_count[s]));
      if (material)
        printf ("  %s (R = %.3f)", material[s], R[s]);
      printf ("\n");
    }
  if (grid)
    {
      printf (_("\nAbsorbing area on the grid (h = %.4g m: fmax %g Hz, %g points per wavelength):\n"), grid->h,
              fmax_hz, ppw);
      printf ("  %-*s", name_w, _("surface"));
      print_right (_("mesh m²"), 12);
      print_right (_("grid m²"), 12);
      print_right (_("ratio"), 7);
      print_right (_("faces m²"), 12);
      print_right (_("ratio"), 7);
      printf ("\n");
      for (size_t s = 0; s < mesh->n_surfaces; s++)
        {
          double a = r.surface_area_m2[s], g = grid->surface_area_m2[s], f = face_area[s];
          printf ("  %-*s %12.3f %12.3f %7.3f %12.3f %7.3f\n", name_w, mesh->surface_names[s], a, g,
                  a > 0 ? g / a : NAN, f, a > 0 ? f / a : NAN);
        }
      printf (_("  (grid: each cell face weighted by its surface's normal, as the solver absorbs;\n"
                "   faces: the staircase's cell faces, counted whole)\n"));
    }
  else
    printf (_("\nAbsorbing area on the grid: not computed (%s)\n"), grid_err.message);
  printf (_("\nWatertight: %s\n"), r.watertight ? _("yes") : _("no"));
  if (!r.watertight)
    {
      printf (_("  open edges: %zu, non-manifold edges: %zu, misoriented edges: %zu\n"), r.n_open_edges,
              r.n_nonmanifold_edges, r.n_misoriented_edges);
      for (size_t i = 0; i < r.n_edge_samples; i++)
        {
          const double *e = r.edge_samples[i];
          printf (_("  leak: edge (%.3f, %.3f, %.3f) – (%.3f, %.3f, %.3f)\n"), e[0], e[1], e[2], e[3], e[4], e[5]);
        }
      if (r.n_open_edges > r.n_edge_samples)
        printf (_("  … and %zu more open edges\n"), r.n_open_edges - r.n_edge_samples);
    }
  printf (_("Normals: %s\n"), r.flipped ? _("inward, flipped to outward")
                              : r.outward ? _("outward") : _("undetermined (mesh not closed)"));
  if (n_warn > 0)
    {
      printf (_("\nWarnings:\n"));
      for (size_t i = 0; i < n_warn; i++)
        printf ("  - %s\n", warnings[i].text);
    }
  if (lib == NULL)
    printf (_("\n(material library not found: %s)\n"), err.message);

out:
  free (face_area);
  rw_grid_free (grid);
  if (material)
    {
      for (size_t s = 0; s < mesh->n_surfaces; s++)
        free (material[s]);
      free (material);
    }
  free (R);
  free (tri_count);
  rw_materials_free (lib);
  rw_mesh_report_clear (&r);
  rw_mesh_free (mesh);
  return status;
}
