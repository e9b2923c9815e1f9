/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-room-view.h — the 3-D view of the room (GtkGLArea, OpenGL 3.3 core
 * through libepoxy).
 *
 * Surfaces are drawn coloured by material, seen from inside: front faces
 * (outward normals) are culled, so walls between the camera and the room
 * vanish and the room reads like a dolls' house. Orbit (drag), pan
 * (Shift+drag or middle button), zoom (scroll), fit (rw_room_view_fit).
 * A click picks a surface on the CPU (the nearest back-facing triangle on
 * the ray, which is what is drawn). The source (red) and receivers (blue)
 * are markers; a binaural or ambisonic receiver's marker carries a yellow
 * arrow along the direction it looks (its yaw and pitch,
 * rw-ambisonics.h's convention), redrawn whenever the project's
 * "receiver-specs" change; dragging one moves it in its horizontal plane, Ctrl+drag
 * along its vertical line, and the project refuses positions outside the
 * room.
 *
 * When OpenGL is unavailable (no 3.3 context, shader errors) the area
 * shows the error text instead (gtk_gl_area_set_error) and the rest of the
 * window works as before.
 */
#pragma once

#include <gtk/gtk.h>
#include "rw-project.h"

G_BEGIN_DECLS

#define RW_TYPE_ROOM_VIEW (rw_room_view_get_type ())
G_DECLARE_FINAL_TYPE (RwRoomView, rw_room_view, RW, ROOM_VIEW, GtkGLArea)

void rw_room_view_set_project (RwRoomView *self, RwProject *project);
void rw_room_view_fit (RwRoomView *self);
/* Surfaces to highlight (n_surfaces flags; NULL clears). */
void rw_room_view_set_selection (RwRoomView *self, const gboolean *selected, guint n);
/* NULL when the view draws; else why it cannot (owned by the view). */
const char *rw_room_view_get_gl_error (RwRoomView *self);
/* The colour the view uses for a material of the project (also for the
 * legend and the materials panel). */
void rw_room_view_material_color (RwProject *project, const char *material, GdkRGBA *color);

/* The look arrow of receiver `receiver` as drawn, in room coordinates:
 * from its position along f = (cos ϑ cos ψ, cos ϑ sin ψ, sin ϑ) for its
 * yaw ψ and pitch ϑ, ARROW_LENGTH_MARKERS marker radii long. FALSE for an
 * omnidirectional receiver (no arrow) or none. */
gboolean rw_room_view_get_arrow (RwRoomView *self, guint receiver, double from[3], double to[3]);

/* Test hooks. Where marker `marker` (−1 the source, i ≥ 0 receiver i) is
 * drawn, in widget coordinates (FALSE when behind the eye or absent). */
gboolean rw_room_view_debug_marker_point (RwRoomView *self, int marker, double *x, double *y);
/* Where room point p is drawn, in widget coordinates (FALSE behind the eye). */
gboolean rw_room_view_debug_project (RwRoomView *self, const double p[3], double *x, double *y);
/* A primary-button drag from (x, y) by (dx, dy), Ctrl held or not, through
 * the same code as the gesture's. */
void rw_room_view_debug_drag (RwRoomView *self, double x, double y, double dx, double dy, gboolean ctrl);

G_END_DECLS
