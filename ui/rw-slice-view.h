/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-slice-view.h — the live pressure slice during a run.
 *
 * Shows one plane of the pressure field (RwSlice, a copy made by the
 * worker) in a diverging colour map — blue negative, white zero, red
 * positive — scaled to the recent peak, cells outside the room in grey,
 * the source and receivers as markers when they lie near the plane. */
#pragma once

#include <gtk/gtk.h>
#include "rw-sim-job.h"

G_BEGIN_DECLS

#define RW_TYPE_SLICE_VIEW (rw_slice_view_get_type ())
G_DECLARE_FINAL_TYPE (RwSliceView, rw_slice_view, RW, SLICE_VIEW, GtkDrawingArea)

/* Takes ownership of slice (may be NULL to clear). */
void rw_slice_view_take_slice (RwSliceView *self, RwSlice *slice);
void rw_slice_view_set_points (RwSliceView *self, const double source[3],
                               const double (*receivers)[3], guint n_receivers);
/* The number of slices shown so far (tests check the view is fed). */
guint rw_slice_view_get_n_frames (RwSliceView *self);

G_END_DECLS
