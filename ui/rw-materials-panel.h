/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-materials-panel.h — every surface with its area, material and R.
 *
 * Select one or many surfaces (Ctrl/Shift-click, or click in the 3-D
 * view), then choose a library material — its octave-band α goes into the
 * eight band fields (63 Hz … 8 kHz; spin buttons named "alpha-band-0" …
 * "alpha-band-7") and the resulting R (at the α rw_material_alpha_for_fmax
 * picks for the current fmax) is shown — or edit α band by band, or type
 * one R or α for every band (the surface then reads "custom"). A plot
 * shows the first selected surface's target α and its fitted model's α
 * (what the FV boundary runs), with the fit's worst error and the bands
 * where the target is beyond a passive surface. Edits go to the RwProject;
 * the panel follows the project's "surface-materials" and "surface-alpha". */
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
/* The model the α plot shows (the first selected surface's fit), FALSE
 * when none is shown. */
gboolean rw_materials_panel_get_model (RwMaterialsPanel *self, RwSurfaceModel *out);

G_END_DECLS
