/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-materials-panel.h — every surface with its area, material and R.
 *
 * Select one or many surfaces (Ctrl/Shift-click, or click in the 3-D
 * view), then choose a library material — its octave-band α goes into the
 * eight band fields (63 Hz … 8 kHz; spin buttons named "alpha-band-0" …
 * "alpha-band-7") and the resulting R (at the α rw_material_alpha_for_fmax
 * picks for the current fmax) is shown — or edit α band by band, or type
 * one R or α for every band (the surface then reads "custom"); a band
 * field edits every selected surface, and a band in which the selected
 * surfaces differ is shown in italics (CSS class "rw-mixed", the range in
 * its tooltip) with the first surface's α. A plot shows, for every
 * distinct material among the selected surfaces (surfaces of the same
 * material string, α per band and R share one entry), the target α
 * (markers) and its fitted model's α (line: what the FV boundary runs), in
 * one colour, dash and marker per entry, with a legend naming each with
 * its worst fit error and the bands where the target is beyond a passive
 * surface; at most RW_MATERIALS_PANEL_MAX_PLOTTED are drawn, the legend
 * says how many more. Edits go to the RwProject; the panel follows the
 * project's "surface-materials" and "surface-alpha". */
#pragma once

#include <gtk/gtk.h>
#include "rw-project.h"

G_BEGIN_DECLS

#define RW_TYPE_MATERIALS_PANEL (rw_materials_panel_get_type ())
G_DECLARE_FINAL_TYPE (RwMaterialsPanel, rw_materials_panel, RW, MATERIALS_PANEL, GtkBox)

void rw_materials_panel_set_project (RwMaterialsPanel *self, RwProject *project);
/* Selects surface (adding to the selection when extend). */
void rw_materials_panel_select_surface (RwMaterialsPanel *self, guint surface, gboolean extend);
/* (transfer full) n_surfaces flags, or NULL without a mesh. */
gboolean *rw_materials_panel_get_selection (RwMaterialsPanel *self, guint *n);
/* The first model the α plot shows (the first selected surface's fit),
 * FALSE when none is shown. */
gboolean rw_materials_panel_get_model (RwMaterialsPanel *self, RwSurfaceModel *out);

/* Distinct models the α plot draws at most (the Okabe–Ito palette's six
 * colours); the legend counts the rest. */
#define RW_MATERIALS_PANEL_MAX_PLOTTED 6

/* One entry of the α plot: the selected surfaces that share a material
 * string, α per band and R. */
typedef struct {
  const char *material;      /* library name or "custom" (the project's string) */
  guint first_surface;       /* the lowest-numbered selected surface with it */
  guint n_surfaces;          /* how many selected surfaces share it */
  double R;
  double alpha[RW_N_OCTAVES];
  gboolean have_model;       /* fitted (only the drawn entries are) */
  RwSurfaceModel model;      /* when have_model */
  const char *error;         /* why the fit failed, or NULL */
} RwMaterialsPlotEntry;

/* The α plot's entries in surface order: copies the first min(max, n)
 * into out (may be NULL when max is 0; strings borrowed until the
 * selection or the project changes) and returns n, the number of distinct
 * entries of the selection (0 without one). The first
 * MIN (n, RW_MATERIALS_PANEL_MAX_PLOTTED) are drawn and fitted. */
guint rw_materials_panel_get_plotted (RwMaterialsPanel *self, RwMaterialsPlotEntry *out, guint max);

G_END_DECLS
