/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli-materials.c — `roomwave-cli materials`: every material of the
 * library with its octave-band absorption and what the passive admittance
 * fitted to it (rw_admittance_fit_alpha, all 8 bands) absorbs, so that an
 * acoustician sees where the frequency-dependent surface departs from the
 * table; and its scattering coefficients for the ray tracer, marked where
 * they are the library's default and not published values (issue #12:
 * a default must not pass for data). Text or JSON (--json; keys in
 * docs/MATERIALS.md). */
#include "cli.h"
#include "rw-admittance.h"
#include "rw-json.h"
#include "rw-materials.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void
print_usage (FILE *out)
{
  fprintf (out, _("Usage: roomwave-cli materials [--json] [--library FILE]\n\n"
                  "Lists the material library: for every material its random-incidence\n"
                  "absorption per octave band (63 Hz … 8 kHz) as the library gives it, and as\n"
                  "the passive surface admittance fitted to it absorbs (the frequency-dependent\n"
                  "boundary), with the band of the largest difference. A '*' marks a band whose\n"
                  "absorption no locally reacting surface reaches (above 0.951): there the fit\n"
                  "gives that maximum and its error is measured against it. The line\n"
                  "'scatter' gives the random-incidence scattering coefficient per band for the\n"
                  "ray tracer, followed by '(default)' where the library has no published value\n"
                  "for the material and gives its default.\n\n"
                  "Options:\n"
                  "  --library FILE   a material library other than the bundled one\n"
                  "  --json           write the list as JSON on standard output\n"
                  "  -h, --help       show this help\n\n"
                  "Exit status: 0 list written, 1 bad library file, 2 bad usage.\n"));
}

static json_object *
band_array (const double v[RW_ADM_N_BANDS])
{
  json_object *a = json_object_new_array ();
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    json_object_array_add (a, rw_json_number (v[b]));
  return a;
}

static json_object *
material_json (const RwMaterial *m, const RwAdmittance *a, const RwFitReport *r)
{
  json_object *o = json_object_new_object ();
  json_object_object_add (o, "name", json_object_new_string (m->name));
  json_object_object_add (o, "category", json_object_new_string (m->category));
  json_object_object_add (o, "target_alpha", band_array (r->target_random));
  json_object_object_add (o, "fitted_alpha", band_array (r->model_random));
  json_object_object_add (o, "target_alpha_normal", band_array (r->target_normal));
  json_object_object_add (o, "fitted_alpha_normal", band_array (r->model_normal));
  json_object *lim = json_object_new_array ();
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    json_object_array_add (lim, json_object_new_boolean (r->limited[b]));
  json_object_object_add (o, "limited", lim);
  json_object_object_add (o, "worst_band_hz", rw_json_number (rw_octave_centres_hz[r->worst_band]));
  json_object_object_add (o, "worst_error", rw_json_number (r->worst_error));
  json_object_object_add (o, "scattering", band_array (m->scattering));
  json_object_object_add (o, "scattering_default", json_object_new_boolean (m->scattering_default));
  json_object_object_add (o, "scattering_source",
                          m->scattering_source ? json_object_new_string (m->scattering_source) : NULL);
  json_object *adm = json_object_new_object ();
  json_object_object_add (adm, "Y0", rw_json_number (a->Y0));
  json_object *branches = json_object_new_array ();
  for (int i = 0; i < a->n_branches; i++)
    {
      json_object *br = json_object_new_object ();
      json_object_object_add (br, "D", rw_json_number (a->branch[i].D));
      json_object_object_add (br, "E", rw_json_number (a->branch[i].E));
      json_object_object_add (br, "F", rw_json_number (a->branch[i].F));
      json_object_array_add (branches, br);
    }
  json_object_object_add (adm, "branches", branches);
  json_object_object_add (o, "admittance", adm);
  return o;
}

static void
print_material (const RwMaterial *m, const RwAdmittance *a, const RwFitReport *r)
{
  printf (_("%s (%s): %d branches, worst %g Hz, |Δα| %.4f\n"), m->name, m->category, a->n_branches,
          rw_octave_centres_hz[r->worst_band], r->worst_error);
  printf ("  %-8s", _("target"));
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    printf (" %6.3f%s", r->target_random[b], r->limited[b] ? "*" : " ");
  printf ("\n  %-8s", _("fitted"));
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    printf (" %6.3f ", r->model_random[b]);
  printf ("\n  %-8s", _("scatter"));
  for (int b = 0; b < RW_ADM_N_BANDS; b++)
    printf (" %6.3f ", m->scattering[b]);
  printf ("%s\n", m->scattering_default ? _("(default)") : "");
}

int
rw_cli_materials (int argc, char **argv)
{
  static const struct option options[] = {
    { "library", required_argument, NULL, 'l' },
    { "json", no_argument, NULL, 'j' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  const char *library = NULL;
  bool as_json = false;
  optind = 0;   /* glibc: full re-initialisation, argv[0] is "materials" */
  opterr = 0;
  int c;
  while ((c = getopt_long (argc, argv, "h", options, NULL)) != -1)
    switch (c)
      {
      case 'l':
        library = optarg;
        break;
      case 'j':
        as_json = true;
        break;
      case 'h':
        print_usage (stdout);
        return RW_EXIT_OK;
      default:
        return rw_cli_bad_option ("materials", argv);
      }
  if (optind < argc)
    return rw_cli_usage_error ("materials", _("unexpected argument '%s'"), argv[optind]);

  RwError err = { 0 };
  RwMaterialLibrary *lib = rw_materials_load (library, &err);
  if (lib == NULL)
    return rw_cli_fail (&err);
  char *path = library ? strdup (library) : rw_data_path ("materials.json");
  const double alpha_max = rw_statistical_alpha_from_reflection (rw_reflection_from_statistical_alpha (1.0));
  json_object *root = NULL, *list = NULL;
  if (as_json)
    {
      root = json_object_new_object ();
      json_object_object_add (root, "library", path ? json_object_new_string (path) : NULL);
      double bands[RW_ADM_N_BANDS];
      for (int b = 0; b < RW_ADM_N_BANDS; b++)
        bands[b] = rw_octave_centres_hz[b];
      json_object_object_add (root, "bands_hz", band_array (bands));
      json_object_object_add (root, "alpha_max", rw_json_number (alpha_max));
      list = json_object_new_array ();
      json_object_object_add (root, "materials", list);
    }
  else
    {
      printf (_("Library: %s (%zu materials)\n"), path ? path : "?", lib->n);
      printf (_("Random-incidence absorption per octave band: the library's (target) and the fitted\n"
                "passive admittance's (fitted); * above %.3f, the most a locally reacting surface absorbs.\n"),
              alpha_max);
      printf ("  %-8s", _("Hz"));
      for (int b = 0; b < RW_ADM_N_BANDS; b++)
        printf (" %6g ", rw_octave_centres_hz[b]);
      printf ("\n\n");
    }
  int status = RW_EXIT_OK;
  double worst = 0;
  for (size_t i = 0; i < lib->n && status == RW_EXIT_OK; i++)
    {
      const RwMaterial *m = &lib->items[i];
      RwAdmittance a;
      RwFitReport r;
      if (!rw_admittance_fit_alpha (m->alpha, RW_ADM_N_BANDS, &a, &r, &err))
        {
          rw_fail_prefix (&err, "%s: %s", path ? path : "?", m->name);
          status = rw_cli_fail (&err);
          break;
        }
      worst = fmax (worst, r.worst_error);
      if (as_json)
        json_object_array_add (list, material_json (m, &a, &r));
      else
        print_material (m, &a, &r);
    }
  if (status == RW_EXIT_OK)
    {
      if (as_json)
        {
          json_object_object_add (root, "worst_error", rw_json_number (worst));
          status = rw_cli_print_owned (rw_json_take_string (root), "\n");
          root = NULL;
        }
      else
        printf (_("\nLargest |Δα| over the library: %.4f\n"), worst);
    }
  if (root)
    json_object_put (root);
  free (path);
  rw_materials_free (lib);
  return status;
}
