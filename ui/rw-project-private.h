/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-project-private.h — what the parts of RwProject share (rw-project.c,
 * the model; rw-project-file.c, opening a room or a project and the
 * .roomwave file): the instance struct and the functions one part calls
 * in the other. Not for anything outside the project. */
#pragma once

#include "rw-project.h"

G_BEGIN_DECLS

#define CUSTOM_MATERIAL "custom"

struct _RwProject
{
  GObject parent_instance;

  RwMaterialLibrary *library;    /* may be NULL when data/materials.json is unreadable */
  char *library_error;

  char *mesh_path;               /* absolute */
  double scale;                  /* model units → metres of the loaded mesh */
  double import_scale;           /* for the next rw_project_load_mesh */
  RwMesh *mesh;
  RwMeshReport report;
  gboolean have_report;

  char **surface_material;       /* n_surfaces; "custom" for a typed R or α */
  /* The primary state of a surface: random-incidence α per octave band
   * (63 Hz … 8 kHz), n_surfaces × RW_N_OCTAVES. surface_R is derived from
   * it (the mean α up to fmax, as rw_materials_assign does) for the LRS and
   * Savioja boundaries and for display; a typed R keeps its exact value. */
  double *surface_alpha;
  double *surface_R;
  /* Fitted models (rw_project_fit_alpha) by α set and band count: the
   * materials panel and the run estimate ask on the main thread, and a
   * fit takes tens of ms. Key: fit_key (); value: RwSurfaceModel. */
  GHashTable *fit_cache;

  double source[3];
  guint n_receivers;
  double receivers[RW_PROJECT_MAX_RECEIVERS][3];
  /* What each receiver records and where it looks (issue #13): one slot
   * per index, followed through its "notify" (receiver_slot_changed). */
  RwProjectReceiver *receiver_slots[RW_PROJECT_MAX_RECEIVERS];
  char *hrtf_path;               /* absolute; NULL: the bundled KEMAR set */
  gboolean quiet_slots;          /* put_slot is writing a slot */

  RwSimSettings settings;
  /* The devices checked for a run on several GPUs (issue #15; bit i:
   * device i). This machine's, so neither saved in the project file nor
   * an edit that makes the project dirty. */
  guint64 run_devices;
  char *results_ref;             /* relative to the project file, or NULL */
  GFile *file;
  gboolean dirty;
};

/* rw-project.c, for rw-project-file.c */
/* Frees the room and what hangs on it (report, surfaces' materials). */
void _rw_project_clear_mesh (RwProject *self);
/* Sets the file, notifying "file" when it changes. */
void _rw_project_set_file (RwProject *self, GFile *file);
/* Receiver slot i takes spec without an edit being recorded (loading,
 * adding and removing receivers notify once themselves). */
void _rw_project_put_slot (RwProject *self, guint i, const RwReceiverSpec *spec);
/* A whole new state (a room imported, a project opened): every property
 * notified but "dirty", which the caller clears. */
void _rw_project_notify_all (RwProject *self);
/* A point inside the room near the fraction f of the bounding box (a scan
 * of the box's diagonal planes where that spot is outside). */
void _rw_project_default_point (const RwMesh *m, const RwMeshReport *r, const double f[3],
                                double out[3]);
/* The library row's α of `name`; FALSE when it is no library material. */
gboolean _rw_project_library_alpha (const RwMaterialLibrary *library, const char *name,
                                    double alpha[RW_N_OCTAVES]);
/* The statistical α of a reflection factor in every band (a typed R, or
 * an R-only surface of an older project file). */
void _rw_project_alpha_from_R (double R, double alpha[RW_N_OCTAVES]);
/* Whether α is the same in every band (a typed R). */
gboolean _rw_project_alpha_uniform (const double alpha[RW_N_OCTAVES]);
/* The engine's full-band defaults (rw_sim_config_init): what a new
 * project and a file older than these settings get. */
void _rw_project_sim_settings_hybrid_defaults (RwSimSettings *s);
/* The check a run makes of an HRTF set (rw_hrtf_open at the output rate). */
gboolean _rw_project_check_hrtf (const char *path, GError **error);
/* The settings and points as a run would take them, checked by the
 * engine (rw_sim_check_settings). */
gboolean _rw_project_check_run_settings (const RwSimSettings *settings, const double source[3],
                                         const double (*receivers)[3], guint n_receivers,
                                         RwError *err);

G_END_DECLS
