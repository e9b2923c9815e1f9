/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-project.h — the document the window edits: a room mesh, a material
 * per surface, sources, receivers and the simulation settings.
 *
 * RwProject is a plain GObject model (no widgets). It owns the RwMesh and
 * its report. Its state is a set of properties that views follow
 * (GBindingGroup, GSignalGroup), each notified when it changes:
 *   "mesh" (pointer: a new room and report), "surface-materials" (strv:
 *   some surface's material or R), "surface-alpha" (aad: each surface's
 *   random-incidence α per octave band, 63 Hz … 8 kHz), "source" ((ddd)), "receivers"
 *   (a(ddd)), "receiver-specs" (a(uudd): each receiver's type, ambisonic
 *   order, yaw and pitch in degrees, as RwReceiverSpec), "hrtf-path"
 *   (string: the binaural receivers' SOFA file, NULL for the bundled
 *   KEMAR set), the settings "fmax-hz", "duration-s", "temperature-c",
 *   "humidity-pct", "ppw" (read-write doubles; ppw 0: the scheme's
 *   default, rw_sim_ppw), "air-absorption" (read-write boolean) and
 *   "scheme", "boundary", "backend", "precision", "device" (read-write
 *   guint of RwScheme, RwBoundary, RwBackendKind, RwPrecision), the
 *   full-band settings "hybrid" (boolean), "crossover-hz" (double),
 *   "n-rays", "ism-order" (guint) and "seed" (guint64), the devices of a
 *   run on several GPUs "run-devices" (guint64 mask), "file",
 *   "dirty". Importing a room or opening a project notifies all of them. Saved as a versioned JSON
 * file (.roomwave, see docs/GUI.md) written atomically; loading parses and
 * checks the whole file before touching the project, so a bad file is
 * refused without half-loading it.
 *
 * Units: metres, hertz, seconds, degrees Celsius.
 */
#pragma once

#include <gio/gio.h>
#include "rw-mesh.h"
#include "rw-materials.h"
#include "rw-project-receiver.h"
#include "rw-sim.h"
#include "rw-solver.h"

G_BEGIN_DECLS

#define RW_PROJECT_FORMAT_VERSION 1
#define RW_PROJECT_MAX_RECEIVERS 8
/* The largest device index a project file may hold (whether that device
 * exists here is the run's check: the file may come from another machine). */
#define RW_PROJECT_MAX_DEVICE 255
/* The largest seed a project holds: a spin button's double keeps every
 * whole number up to 2^53 exact. */
#define RW_PROJECT_MAX_SEED (G_GUINT64_CONSTANT (1) << 53)

#define RW_PROJECT_ERROR (rw_project_error_quark ())
GQuark rw_project_error_quark (void);

typedef enum {
  RW_PROJECT_ERROR_MESH,      /* the mesh file could not be imported */
  RW_PROJECT_ERROR_FILE,      /* the project file is unreadable, truncated or invalid */
  RW_PROJECT_ERROR_VERSION,   /* written by a newer Roomwave */
  RW_PROJECT_ERROR_POINT,     /* a source or receiver outside the room */
  RW_PROJECT_ERROR_RECEIVER,  /* a receiver type or orientation the engine refuses */
  RW_PROJECT_ERROR_HRTF,      /* an HRTF file the engine cannot open */
  RW_PROJECT_ERROR_SCHEME,    /* a boundary or receiver the scheme does not have */
} RwProjectError;

typedef struct {
  double fmax_hz;
  double duration_s;
  double temperature_c;
  double humidity_pct;          /* relative humidity, % (RwSimConfig.humidity_pct) */
  double ppw;                   /* 0: the scheme's default (rw_sim_ppw) */
  RwBoundary boundary;
  RwBackendKind backend;
  RwPrecision precision;
  int device;                   /* the backend's device, 0 … (RwSimConfig.device) */
  gboolean air_absorption;      /* RwSimConfig.air_absorption */
  /* The full-band IR (issue #12, RwSimConfig.hybrid …): the wave part
   * below the crossover, image sources and rays above it. */
  gboolean hybrid;              /* TRUE; FALSE: the wave part alone, valid to fmax */
  double crossover_hz;          /* 0: automatic, fmax / 2 (rw_sim_crossover_hz) */
  guint64 n_rays;               /* RW_RAYS_DEFAULT_N */
  guint64 seed;                 /* 1: the rays and the late IR's synthesis */
  int ism_order;                /* RW_ISM_DEFAULT_ORDER */
  /* Issue #14; last, beside ism_order, so that the struct has no padding
   * (rw_project_set_settings compares settings with memcmp). */
  RwScheme scheme;              /* AUTO: rw_sim_resolve_scheme; a file without it: CARTESIAN */
} RwSimSettings;

/* The engine's defaults (rw_sim_config_init) with these settings. */
void rw_sim_settings_to_config (const RwSimSettings *settings, RwSimConfig *cfg);
/* The octave bands a run of these settings fits each surface's admittance
 * over: all eight for a hybrid run (one model serves the wave and the
 * geometrical part), else rw_admittance_bands_for_fmax. */
int rw_sim_settings_fit_bands (const RwSimSettings *settings);
/* The crossover a run of these settings uses (rw_sim_crossover_hz: the
 * setting, or fmax / 2 when it is 0) and the highest one it accepts
 * (rw_hybrid_check_crossover: min (fmax, Nyquist) / 1.293). */
double rw_sim_settings_crossover_hz (const RwSimSettings *settings);
double rw_sim_settings_max_crossover_hz (const RwSimSettings *settings);

/* A resolved scheme's name for the window (translated):
 * "Cartesian scheme (7-point)" or "FCC scheme (13-point)". */
const char *rw_project_scheme_label (RwScheme scheme);

/* What a run will need, computed from the mesh and the settings, on the
 * lattice of the scheme the run resolves to. */
typedef struct {
  RwScheme scheme;              /* resolved: CARTESIAN or FCC */
  double ppw;                   /* resolved (the scheme's default for 0) */
  double c, spacing_m, fs_grid_hz;
  size_t nx, ny, nz;
  double n_inside_estimate;     /* nodes inside: mesh volume / (cell volume · h³) */
  size_t n_steps;
  double memory_bytes;          /* grid cell data + two pressure fields + branch states */
  double n_boundary_estimate;   /* boundary nodes, about surface area / h² (cubic) */
  int max_branches;             /* the most admittance branches of any surface (FV) */
  double branch_bytes;          /* their states, part of memory_bytes */
  double seconds_estimate;      /* at the given throughput */
} RwRunEstimate;

#define RW_TYPE_PROJECT (rw_project_get_type ())
G_DECLARE_FINAL_TYPE (RwProject, rw_project, RW, PROJECT, GObject)

RwProject *rw_project_new (void);

/* Imports a mesh (any format Assimp reads, run in the import helper
 * process), computes its report and gives every surface its default
 * material. On failure the project is unchanged and the error names the
 * file and the problem. Blocks: the window uses rw_project_open_async. */
gboolean rw_project_load_mesh (RwProject *self, const char *path, GError **error);
/* The factor from model units to metres that the next rw_project_load_mesh
 * applies (1 for metres, 0.001 for millimetres…); saved with the project. */
void rw_project_set_import_scale (RwProject *self, double scale);
double rw_project_get_import_scale (RwProject *self);

/* Paths in a project file (its mesh, its results folder) are resolved
 * against the project file's folder. Every setting is checked with the
 * engine's own checks for a run (rw_sim_check_settings,
 * rw_reflection_check): a file a run would refuse is refused here. */
gboolean rw_project_load (RwProject *self, GFile *file, GError **error);
/* The paths a project file names that lie outside its folder (after
 * resolving them as rw_project_load does), for the window to show before
 * it opens the file; an empty vector when all stay inside, NULL with
 * `error` set when the file is not a readable project. */
char **rw_project_file_outside_paths (GFile *file, GError **error);
gboolean rw_project_save (RwProject *self, GFile *file, GError **error);

/* Opens `file` off the main thread: a .roomwave project (read, checked,
 * its mesh imported) or else a room model (imported at the import scale,
 * with default materials and points). Assimp runs in the import helper
 * (rw_import_helper_path) started with GSubprocess, so a file that
 * crashes or hangs it never takes the application down; cancelling
 * `cancellable` kills the helper and ends the task with
 * G_IO_ERROR_CANCELLED. The project is untouched until
 * rw_project_open_finish (on the main thread) installs the result, and
 * untouched when it fails. rw_project_load and rw_project_load_mesh do
 * the same synchronously. */
void rw_project_open_async (RwProject *self, GFile *file, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data);
gboolean rw_project_open_finish (RwProject *self, GAsyncResult *result, GError **error);

const RwMesh *rw_project_get_mesh (RwProject *self);
const RwMeshReport *rw_project_get_report (RwProject *self);
const RwMaterialLibrary *rw_project_get_library (RwProject *self);
const char *rw_project_get_mesh_path (RwProject *self);
GFile *rw_project_get_file (RwProject *self);          /* NULL until saved or loaded */
gboolean rw_project_get_dirty (RwProject *self);
void rw_project_set_dirty (RwProject *self, gboolean dirty);

/* A text summary of the mesh report (translated, several lines). */
char *rw_project_report_text (RwProject *self);

/* Surfaces: material name (may be a library name or "custom"), the
 * random-incidence α per octave band (63 Hz … 8 kHz: the primary state,
 * what the run fits its frequency-dependent model to) and R, derived from
 * α (rw_project_R_from_alpha) for the LRS and Savioja boundaries and for
 * display. Choosing a material takes its library row; setting R sets the
 * statistical α of that R in every band (and keeps R exact); setting α
 * (all bands or one) makes the surface "custom". α is clamped to [0, 1]. */
const char *rw_project_get_surface_material (RwProject *self, guint surface);
double rw_project_get_surface_R (RwProject *self, guint surface);
void rw_project_set_surface_material (RwProject *self, guint surface, const char *material);
void rw_project_set_surface_R (RwProject *self, guint surface, double R);
void rw_project_get_surface_alpha (RwProject *self, guint surface, double alpha[RW_N_OCTAVES]);
void rw_project_set_surface_alpha (RwProject *self, guint surface, const double alpha[RW_N_OCTAVES]);
void rw_project_set_surface_alpha_band (RwProject *self, guint surface, guint band, double alpha);
/* The one R of α per band in a run valid up to fmax_hz: the mean α of the
 * bands up to fmax (rw_material_alpha_for_fmax) through Paris' formula. */
double rw_project_R_from_alpha (const double alpha[RW_N_OCTAVES], double fmax_hz);
/* The model of a surface of α per band and R for a run fitting n_bands
 * octave bands from 63 Hz (rw_sim_settings_fit_bands):
 * α the same in every band (one R) → the frequency-independent surface of
 * exactly R (rw_admittance_real, as the engine models {"R": r}); else the
 * passive admittance fitted to α (rw_admittance_fit_alpha over n_bands
 * bands; tens of ms). The scattering is the library material's when
 * `material` is one (may be NULL), else RW_MATERIAL_DEFAULT_SCATTERING
 * flagged as scattering_default, as the engine gives it
 * (rw_materials_assign_models). Thread safe: the run's worker calls it. */
/* Whether a surface of α per band and R is one frequency-independent R
 * (α the same in every band and R finite): the first case of
 * rw_project_fit_alpha, and what the GUI's run on several GPUs writes as
 * {"R": r} (rw_mpi_materials_json). */
gboolean rw_project_surface_is_R (const double alpha[RW_N_OCTAVES], double R);
gboolean rw_project_fit_alpha (const double alpha[RW_N_OCTAVES], double R, int n_bands,
                               const RwMaterial *material, RwSurfaceModel *out, GError **error);
/* Surface i's model for the project's settings (its bands:
 * rw_sim_settings_fit_bands), fitted once per α set and band count
 * (cached; main thread). */
gboolean rw_project_get_surface_model (RwProject *self, guint surface, RwSurfaceModel *out, GError **error);
/* Index of the material in the library, or -1 for a custom R. */
int rw_project_get_surface_material_index (RwProject *self, guint surface);

/* Points (metres). Setting a point outside the room fails and leaves it. */
void rw_project_get_source (RwProject *self, double p[3]);
gboolean rw_project_set_source (RwProject *self, const double p[3], GError **error);
guint rw_project_get_n_receivers (RwProject *self);
void rw_project_get_receiver (RwProject *self, guint i, double p[3]);
gboolean rw_project_set_receiver (RwProject *self, guint i, const double p[3], GError **error);
/* Adds a receiver inside the room near receiver 1 (0.3 m aside, the
 * spacing of a stereo pair, or the nearest free spot tried); returns its
 * index, or -1 when there are RW_PROJECT_MAX_RECEIVERS already. */
int rw_project_add_receiver (RwProject *self);
/* Removes receiver i; the last one cannot be removed. */
gboolean rw_project_remove_receiver (RwProject *self, guint i);
/* What receiver i records and where it looks (issue #13, rw-receiver.h).
 * The slot is receiver index i's (RW_PROJECT_MAX_RECEIVERS of them, owned
 * by the project, the same object for the project's life): bind fields to
 * its properties; setting one is an edit ("receiver-specs" notified,
 * dirty). A new receiver is omnidirectional; removing one moves the specs
 * after it down with the positions. Older files load every receiver as
 * omnidirectional. */
RwProjectReceiver *rw_project_get_receiver_slot (RwProject *self, guint i);
void rw_project_get_receiver_spec (RwProject *self, guint i, RwReceiverSpec *spec);
/* Checked by rw_receiver_check: a spec a run refuses is refused
 * (RW_PROJECT_ERROR_RECEIVER, the engine's message naming the receiver). */
gboolean rw_project_set_receiver_spec (RwProject *self, guint i, const RwReceiverSpec *spec, GError **error);
/* The SOFA file of the binaural receivers (absolute), NULL for the
 * bundled MIT KEMAR set. Setting opens it as a run does (rw_hrtf_open),
 * in the calling thread: a file the engine refuses is refused
 * (RW_PROJECT_ERROR_HRTF, naming it); NULL goes back to the bundled set. Saved as "hrtf", relative to the
 * project file when inside its folder. */
const char *rw_project_get_hrtf_path (RwProject *self);
gboolean rw_project_set_hrtf_path (RwProject *self, const char *path, GError **error);
/* The same for a file (not NULL) without blocking the caller: the set is
 * opened in a worker thread (reading, resampling and equalising it takes
 * about half a second for the bundled set), and the path is set on the
 * caller's main context when it passes and `cancellable` was not
 * cancelled meanwhile (finish: G_IO_ERROR_CANCELLED, nothing set). The
 * window's choice of a set goes this way. */
void rw_project_set_hrtf_path_async (RwProject *self, const char *path, GCancellable *cancellable,
                                     GAsyncReadyCallback callback, gpointer user_data);
gboolean rw_project_set_hrtf_path_finish (RwProject *self, GAsyncResult *result, GError **error);

/* Point-in-mesh test on the triangles (majority of three axis rays). */
gboolean rw_project_point_inside (RwProject *self, const double p[3]);

/* The results folder saved with the project (relative to the project
 * file, see rw-results-io.h), or NULL. Saved as "results". */
const char *rw_project_get_results_ref (RwProject *self);
void rw_project_set_results_ref (RwProject *self, const char *relative);

/* The devices checked for a run on several GPUs ("run-devices": bit i is
 * CUDA device i; rw-mpi-run.h). The machine's choice: not saved in the
 * project file, and setting it does not make the project dirty. */
guint64 rw_project_get_run_devices (RwProject *self);
void rw_project_set_run_devices (RwProject *self, guint64 devices);

const RwSimSettings *rw_project_get_settings (RwProject *self);
void rw_project_set_settings (RwProject *self, const RwSimSettings *settings);

void rw_project_estimate (RwProject *self, double mvox_per_s, RwRunEstimate *out);

/* The scheme and points per wavelength the project's run uses
 * (rw_sim_resolve_scheme, rw_sim_ppw, on its settings and its receivers'
 * types): AUTO and ppw 0 resolved as the engine resolves them. */
RwScheme rw_project_get_scheme (RwProject *self);
double rw_project_get_ppw (RwProject *self);

/* Whether the run's scheme (rw_project_get_scheme) has the project's
 * boundary form: the FCC scheme has the finite-volume boundary only (and
 * every receiver type), as rw_sim_check_settings says. FALSE with
 * RW_PROJECT_ERROR_SCHEME and a message saying what to change; the window
 * shows it under the settings and refuses to run. */
gboolean rw_project_check_scheme (RwProject *self, GError **error);

G_END_DECLS
