/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-materials-panel.h — every surface with its area, material and R.
 *
 * Select one or many surfaces (Ctrl/Shift-click, or click in the 3-D
 * view), then choose a library material — its octave-band α is shown and
 * the resulting R = √(1 − α) (at the α rw_material_alpha_for_fmax picks
 * for the current fmax) — or type R or α directly (the surface then reads
 * "custom"). Edits go to the RwProject. */
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

G_END_DECLS
