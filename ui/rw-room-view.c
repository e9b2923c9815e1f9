/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-room-view.c — see rw-room-view.h. */
#include "rw-room-view.h"

#include <epoxy/gl.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#define FOV_Y_RAD (45.0 * G_PI / 180.0)
/* The look arrow of an oriented receiver: its length in marker radii,
 * and the triangles of one arrow (a square shaft with its back cap, a
 * square pyramid for the head). */
#define ARROW_LENGTH_MARKERS 3.5
#define ARROW_TRIANGLES 16
#define MARKER_PICK_PX 14.0
#define CLICK_SLOP_PX 4.0

struct _RwRoomView
{
  GtkGLArea parent_instance;

  RwProject *project;
  GSignalGroup *project_signals;   /* follows the project's properties */

  /* camera: orbit around target, z up */
  double target[3];
  double distance;
  double yaw, pitch;      /* radians */
  double scene_radius;

  /* drag state */
  double drag_yaw0, drag_pitch0, drag_target0[3];
  int drag_mode;          /* 0 none, 1 orbit, 2 pan, 3 move marker, 4 lift marker */
  int drag_marker;        /* -1 source, ≥ 0 receiver */
  double drag_x0, drag_y0;
  double marker_z;
  double marker_xy[2];    /* where a lifted marker stands */

  gboolean *selected;
  guint n_selected;

  /* GL */
  gboolean gl_ready;
  char *gl_error;
  GLuint program, vao, vbo, marker_vao, marker_vbo, arrow_vao, arrow_vbo;
  GLint u_mvp, u_offset, u_scale, u_tint;
  GLsizei n_vertices, n_marker_vertices;
  gboolean mesh_dirty;
};

G_DEFINE_TYPE (RwRoomView, rw_room_view, GTK_TYPE_GL_AREA)

enum { SURFACE_CLICKED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- colours ---------------------------------------------------------- */

void
rw_room_view_material_color (RwProject *project, const char *material, GdkRGBA *color)
{
  /* Colours by order of first use in the project: neighbouring entries
   * of a hand-picked palette stay distinct, which hashed hues do not. */
  static const guint32 palette[] = {
    0x8ecae6, 0xffb703, 0x90be6d, 0xe07a5f, 0xb39ddb, 0xf6bd60, 0x4d908e,
    0xf28482, 0xa3b18a, 0x84a59d, 0xcdb4db, 0xbc6c25,
  };
  const RwMesh *mesh = project ? rw_project_get_mesh (project) : NULL;
  guint rank = 0;
  guint32 rgb = 0xb0b0b0;   /* a material not in the project: grey */

  if (mesh != NULL)
    for (size_t s = 0; s < mesh->n_surfaces; s++)
      {
        const char *m = rw_project_get_surface_material (project, s);
        gboolean first = TRUE;
        for (size_t t = 0; t < s && first; t++)
          if (g_strcmp0 (rw_project_get_surface_material (project, t), m) == 0)
            first = FALSE;
        if (!first)
          continue;
        if (g_strcmp0 (m, material) == 0)
          {
            rgb = palette[rank % G_N_ELEMENTS (palette)];
            break;
          }
        rank++;
      }
  color->red = ((rgb >> 16) & 0xff) / 255.0f;
  color->green = ((rgb >> 8) & 0xff) / 255.0f;
  color->blue = (rgb & 0xff) / 255.0f;
  color->alpha = 1.0f;
}

/* ---- small matrix helpers (column-major, as GL wants) ------------------ */

static void
camera_basis (RwRoomView *self, double eye[3], double fwd[3], double right[3], double up[3])
{
  double cp = cos (self->pitch), sp = sin (self->pitch);
  double cy = cos (self->yaw), sy = sin (self->yaw);
  double dir[3] = { cp * cy, cp * sy, sp };   /* from target towards eye */

  for (int k = 0; k < 3; k++)
    {
      eye[k] = self->target[k] + self->distance * dir[k];
      fwd[k] = -dir[k];
    }
  /* right = fwd × z, up = right × fwd */
  right[0] = fwd[1];
  right[1] = -fwd[0];
  right[2] = 0;
  double rl = hypot (right[0], right[1]);
  if (rl < 1e-9)
    rl = 1;
  right[0] /= rl;
  right[1] /= rl;
  up[0] = right[1] * fwd[2] - right[2] * fwd[1];
  up[1] = right[2] * fwd[0] - right[0] * fwd[2];
  up[2] = right[0] * fwd[1] - right[1] * fwd[0];
}

static void
view_projection (RwRoomView *self, double aspect, float m[16])
{
  double eye[3], f[3], r[3], u[3];
  double near = MAX (self->distance * 0.01, 0.01), far = self->distance + 4 * self->scene_radius + 1;
  double t = 1.0 / tan (FOV_Y_RAD / 2);
  double view[16] = { 0 }, proj[16] = { 0 };

  camera_basis (self, eye, f, r, u);
  /* view: rows r, u, −f; translation −R·eye */
  view[0] = r[0]; view[4] = r[1]; view[8] = r[2];
  view[1] = u[0]; view[5] = u[1]; view[9] = u[2];
  view[2] = -f[0]; view[6] = -f[1]; view[10] = -f[2];
  view[12] = -(r[0] * eye[0] + r[1] * eye[1] + r[2] * eye[2]);
  view[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
  view[14] = (f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2]);
  view[15] = 1;
  proj[0] = t / aspect;
  proj[5] = t;
  proj[10] = -(far + near) / (far - near);
  proj[11] = -1;
  proj[14] = -2 * far * near / (far - near);
  for (int c = 0; c < 4; c++)
    for (int rr = 0; rr < 4; rr++)
      {
        double s = 0;
        for (int k = 0; k < 4; k++)
          s += proj[k * 4 + rr] * view[c * 4 + k];
        m[c * 4 + rr] = (float) s;
      }
}

static double
widget_aspect (RwRoomView *self)
{
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  int h = gtk_widget_get_height (GTK_WIDGET (self));
  return h > 0 && w > 0 ? (double) w / h : 1.0;
}

/* Widget point → world ray (origin = eye). */
static void
pixel_ray (RwRoomView *self, double px, double py, double origin[3], double dir[3])
{
  double eye[3], f[3], r[3], u[3];
  int w = MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1);
  int h = MAX (gtk_widget_get_height (GTK_WIDGET (self)), 1);
  double nx = 2.0 * px / w - 1.0, ny = 1.0 - 2.0 * py / h;
  double th = tan (FOV_Y_RAD / 2);

  camera_basis (self, eye, f, r, u);
  for (int k = 0; k < 3; k++)
    {
      origin[k] = eye[k];
      dir[k] = f[k] + r[k] * nx * th * widget_aspect (self) + u[k] * ny * th;
    }
}

static gboolean
project_point (RwRoomView *self, const double p[3], double *sx, double *sy)
{
  float m[16];
  view_projection (self, widget_aspect (self), m);
  double clip[4];
  for (int r = 0; r < 4; r++)
    clip[r] = m[0 * 4 + r] * p[0] + m[1 * 4 + r] * p[1] + m[2 * 4 + r] * p[2] + m[3 * 4 + r];
  if (clip[3] <= 1e-9)
    return FALSE;
  *sx = (clip[0] / clip[3] + 1) * 0.5 * gtk_widget_get_width (GTK_WIDGET (self));
  *sy = (1 - clip[1] / clip[3]) * 0.5 * gtk_widget_get_height (GTK_WIDGET (self));
  return TRUE;
}

/* ---- geometry upload -------------------------------------------------- */

static void
upload_mesh (RwRoomView *self)
{
  const RwMesh *m = self->project ? rw_project_get_mesh (self->project) : NULL;
  self->mesh_dirty = FALSE;
  self->n_vertices = 0;
  if (m == NULL || m->n_triangles == 0)
    return;

  size_t n = m->n_triangles;
  g_autofree float *buf = g_new (float, n * 3 * 9);
  g_autofree GdkRGBA *colors = g_new (GdkRGBA, m->n_surfaces);
  for (size_t s = 0; s < m->n_surfaces; s++)
    rw_room_view_material_color (self->project, rw_project_get_surface_material (self->project, s), &colors[s]);

  float *o = buf;
  for (size_t t = 0; t < n; t++)
    {
      const double *a = m->xyz + 3 * m->tri[3 * t];
      const double *b = m->xyz + 3 * m->tri[3 * t + 1];
      const double *c = m->xyz + 3 * m->tri[3 * t + 2];
      double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
      double e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
      double nn[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
      double l = sqrt (nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
      if (!(l > 0) || !isfinite (l))
        l = 1;
      uint32_t s = m->tri_surface[t];
      GdkRGBA col = colors[s];
      if (self->selected && s < self->n_selected && self->selected[s])
        {
          /* Selected surfaces glow amber. */
          col.red = 0.5f * col.red + 0.5f;
          col.green = 0.5f * col.green + 0.38f;
          col.blue = 0.5f * col.blue;
        }
      const double *vs[3] = { a, b, c };
      for (int v = 0; v < 3; v++)
        {
          *o++ = (float) vs[v][0];
          *o++ = (float) vs[v][1];
          *o++ = (float) vs[v][2];
          *o++ = (float) (nn[0] / l);
          *o++ = (float) (nn[1] / l);
          *o++ = (float) (nn[2] / l);
          *o++ = col.red;
          *o++ = col.green;
          *o++ = col.blue;
        }
    }
  glBindBuffer (GL_ARRAY_BUFFER, self->vbo);
  glBufferData (GL_ARRAY_BUFFER, (GLsizeiptr) (n * 3 * 9 * sizeof (float)), buf, GL_STATIC_DRAW);
  self->n_vertices = (GLsizei) (n * 3);
}

/* ---- look arrows ------------------------------------------------------ */

static double
marker_radius (RwRoomView *self)
{
  return MAX (self->scene_radius * 0.04, 0.05);
}

gboolean
rw_room_view_get_arrow (RwRoomView *self, guint receiver, double from[3], double to[3])
{
  RwReceiverSpec spec;

  if (self->project == NULL || rw_project_get_mesh (self->project) == NULL
      || receiver >= rw_project_get_n_receivers (self->project))
    return FALSE;
  rw_project_get_receiver_spec (self->project, receiver, &spec);
  if (spec.type == RW_RECEIVER_OMNI)
    return FALSE;
  /* rw-ambisonics.h: a receiver of yaw ψ and pitch ϑ looks along
   * f = (cos ϑ cos ψ, cos ϑ sin ψ, sin ϑ). */
  const double y = spec.yaw_deg * G_PI / 180, p = spec.pitch_deg * G_PI / 180;
  const double f[3] = { cos (p) * cos (y), cos (p) * sin (y), sin (p) };
  const double len = ARROW_LENGTH_MARKERS * marker_radius (self);
  rw_project_get_receiver (self->project, receiver, from);
  for (int k = 0; k < 3; k++)
    to[k] = from[k] + len * f[k];
  return TRUE;
}

/* One flat triangle (positions, its normal, the arrow's colour) at o. */
static float *
arrow_triangle (float *o, const double a[3], const double b[3], const double c[3])
{
  static const float colour[3] = { 1.0f, 0.82f, 0.15f };
  const double *vs[3] = { a, b, c };
  double e1[3], e2[3], n[3];

  for (int k = 0; k < 3; k++)
    {
      e1[k] = b[k] - a[k];
      e2[k] = c[k] - a[k];
    }
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  double l = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(l > 0))
    l = 1;
  for (int v = 0; v < 3; v++)
    {
      for (int k = 0; k < 3; k++)
        *o++ = (float) vs[v][k];
      for (int k = 0; k < 3; k++)
        *o++ = (float) (n[k] / l);
      for (int k = 0; k < 3; k++)
        *o++ = colour[k];
    }
  return o;
}

/* The arrow from `from` to `to` as ARROW_TRIANGLES triangles: a shaft of
 * square section and a pyramid head a third of the length, in the frame
 * of the look direction (any side vector across it). */
static float *
arrow_triangles (float *o, const double from[3], const double to[3], double radius)
{
  double f[3], len = 0, side[3], up[3];

  for (int k = 0; k < 3; k++)
    {
      f[k] = to[k] - from[k];
      len += f[k] * f[k];
    }
  len = sqrt (len);
  for (int k = 0; k < 3; k++)
    f[k] /= len;
  /* side = f × z, or x when looking straight up or down */
  side[0] = f[1];
  side[1] = -f[0];
  side[2] = 0;
  double sl = hypot (side[0], side[1]);
  if (sl < 1e-9)
    side[0] = 1, side[1] = 0, sl = 1;
  side[0] /= sl;
  side[1] /= sl;
  up[0] = side[1] * f[2] - side[2] * f[1];
  up[1] = side[2] * f[0] - side[0] * f[2];
  up[2] = side[0] * f[1] - side[1] * f[0];

  const double w = 0.22 * radius, hw = 0.6 * radius, neck = len * (2.0 / 3.0);
  static const double corners[4][2] = { { 1, 1 }, { -1, 1 }, { -1, -1 }, { 1, -1 } };
  double back[4][3], front[4][3], base[4][3];
  for (int c = 0; c < 4; c++)
    for (int k = 0; k < 3; k++)
      {
        const double across = corners[c][0] * side[k] + corners[c][1] * up[k];
        back[c][k] = from[k] + w * across;
        front[c][k] = from[k] + neck * f[k] + w * across;
        base[c][k] = from[k] + neck * f[k] + hw * across;
      }
  for (int c = 0; c < 4; c++)
    {
      int d = (c + 1) % 4;
      o = arrow_triangle (o, back[c], back[d], front[d]);
      o = arrow_triangle (o, back[c], front[d], front[c]);
      o = arrow_triangle (o, base[c], base[d], to);
    }
  o = arrow_triangle (o, back[0], back[2], back[1]);
  o = arrow_triangle (o, back[0], back[3], back[2]);
  o = arrow_triangle (o, base[0], base[2], base[1]);
  o = arrow_triangle (o, base[0], base[3], base[2]);
  return o;
}

/* The look arrows of the oriented receivers, in room coordinates, into
 * the arrow buffer; how many vertices. Rebuilt on every frame: a few
 * hundred floats, and the orientation follows the model live. */
static GLsizei
upload_arrows (RwRoomView *self)
{
  float buf[RW_PROJECT_MAX_RECEIVERS * ARROW_TRIANGLES * 3 * 9];
  float *o = buf;
  double from[3], to[3];

  for (guint i = 0; i < rw_project_get_n_receivers (self->project) && i < RW_PROJECT_MAX_RECEIVERS; i++)
    if (rw_room_view_get_arrow (self, i, from, to))
      o = arrow_triangles (o, from, to, marker_radius (self));
  if (o == buf)
    return 0;
  glBindBuffer (GL_ARRAY_BUFFER, self->arrow_vbo);
  glBufferData (GL_ARRAY_BUFFER, (GLsizeiptr) ((o - buf) * sizeof (float)), buf, GL_DYNAMIC_DRAW);
  return (GLsizei) ((o - buf) / 9);
}

static void
upload_marker (RwRoomView *self)
{
  /* An octahedron of unit radius, white; scaled, moved and tinted per
   * marker by uniforms. */
  static const float v[6][3] = { { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
  static const int faces[8][3] = { { 0, 2, 4 }, { 2, 1, 4 }, { 1, 3, 4 }, { 3, 0, 4 },
                                   { 2, 0, 5 }, { 1, 2, 5 }, { 3, 1, 5 }, { 0, 3, 5 } };
  float buf[8 * 3 * 9];
  float *o = buf;

  for (int f = 0; f < 8; f++)
    {
      float n[3] = { 0, 0, 0 };
      for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
          n[c] += v[faces[f][k]][c] / 3.0f;
      for (int k = 0; k < 3; k++)
        {
          for (int c = 0; c < 3; c++)
            *o++ = v[faces[f][k]][c];
          for (int c = 0; c < 3; c++)
            *o++ = n[c];
          *o++ = 1;
          *o++ = 1;
          *o++ = 1;
        }
    }
  glBindBuffer (GL_ARRAY_BUFFER, self->marker_vbo);
  glBufferData (GL_ARRAY_BUFFER, sizeof buf, buf, GL_STATIC_DRAW);
  self->n_marker_vertices = 8 * 3;
}

/* ---- GL lifecycle ----------------------------------------------------- */

static const char *vertex_src =
  "#version 330 core\n"
  "layout(location = 0) in vec3 pos;\n"
  "layout(location = 1) in vec3 normal;\n"
  "layout(location = 2) in vec3 color;\n"
  "uniform mat4 mvp;\n"
  "uniform vec3 offset;\n"
  "uniform float scale;\n"
  "out vec3 v_color;\n"
  "out vec3 v_normal;\n"
  "void main () {\n"
  "  gl_Position = mvp * vec4 (pos * scale + offset, 1.0);\n"
  "  v_color = color; v_normal = normal;\n"
  "}\n";

static const char *fragment_src =
  "#version 330 core\n"
  "in vec3 v_color;\n"
  "in vec3 v_normal;\n"
  "uniform vec3 tint;\n"
  "out vec4 frag;\n"
  "void main () {\n"
  "  vec3 l = normalize (vec3 (0.3, 0.5, 0.8));\n"
  "  float d = 0.55 + 0.45 * abs (dot (normalize (v_normal), l));\n"
  "  frag = vec4 (v_color * tint * d, 1.0);\n"
  "}\n";

static GLuint
compile (GLenum kind, const char *src, GError **error)
{
  GLuint sh = glCreateShader (kind);
  GLint ok = 0;

  glShaderSource (sh, 1, &src, NULL);
  glCompileShader (sh);
  glGetShaderiv (sh, GL_COMPILE_STATUS, &ok);
  if (!ok)
    {
      char log[1024] = "";
      glGetShaderInfoLog (sh, sizeof log, NULL, log);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("3-D view: shader does not compile: %s"), log);
      glDeleteShader (sh);
      return 0;
    }
  return sh;
}

static void
set_gl_error (RwRoomView *self, GError *error)
{
  g_free (self->gl_error);
  self->gl_error = g_strdup (error->message);
  gtk_gl_area_set_error (GTK_GL_AREA (self), error);
}

static void
rw_room_view_realize (GtkWidget *widget)
{
  RwRoomView *self = RW_ROOM_VIEW (widget);
  g_autoptr (GError) error = NULL;

  GTK_WIDGET_CLASS (rw_room_view_parent_class)->realize (widget);
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  if (gtk_gl_area_get_error (GTK_GL_AREA (self)) != NULL)
    {
      g_free (self->gl_error);
      self->gl_error = g_strdup (gtk_gl_area_get_error (GTK_GL_AREA (self))->message);
      return;
    }

  GLuint vs = compile (GL_VERTEX_SHADER, vertex_src, &error);
  GLuint fs = vs ? compile (GL_FRAGMENT_SHADER, fragment_src, &error) : 0;
  if (fs == 0)
    {
      if (vs)
        glDeleteShader (vs);
      set_gl_error (self, error);
      return;
    }
  self->program = glCreateProgram ();
  glAttachShader (self->program, vs);
  glAttachShader (self->program, fs);
  glLinkProgram (self->program);
  glDeleteShader (vs);
  glDeleteShader (fs);
  GLint ok = 0;
  glGetProgramiv (self->program, GL_LINK_STATUS, &ok);
  if (!ok)
    {
      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_FAILED, _("3-D view: shader program does not link"));
      set_gl_error (self, error);
      return;
    }
  self->u_mvp = glGetUniformLocation (self->program, "mvp");
  self->u_offset = glGetUniformLocation (self->program, "offset");
  self->u_scale = glGetUniformLocation (self->program, "scale");
  self->u_tint = glGetUniformLocation (self->program, "tint");

  GLuint vaos[3], vbos[3];
  glGenVertexArrays (3, vaos);
  glGenBuffers (3, vbos);
  self->vao = vaos[0];
  self->marker_vao = vaos[1];
  self->arrow_vao = vaos[2];
  self->vbo = vbos[0];
  self->marker_vbo = vbos[1];
  self->arrow_vbo = vbos[2];
  for (int i = 0; i < 3; i++)
    {
      glBindVertexArray (vaos[i]);
      glBindBuffer (GL_ARRAY_BUFFER, vbos[i]);
      for (int a = 0; a < 3; a++)
        {
          glEnableVertexAttribArray (a);
          glVertexAttribPointer (a, 3, GL_FLOAT, GL_FALSE, 9 * sizeof (float), (void *) (a * 3 * sizeof (float)));
        }
    }
  upload_marker (self);
  self->mesh_dirty = TRUE;
  glBindVertexArray (0);

  GLenum e = glGetError ();
  if (e != GL_NO_ERROR)
    {
      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_FAILED, _("3-D view: OpenGL error 0x%x while setting up"), e);
      set_gl_error (self, error);
      return;
    }
  self->gl_ready = TRUE;
}

static void
rw_room_view_unrealize (GtkWidget *widget)
{
  RwRoomView *self = RW_ROOM_VIEW (widget);

  gtk_gl_area_make_current (GTK_GL_AREA (self));
  if (self->gl_ready && gtk_gl_area_get_error (GTK_GL_AREA (self)) == NULL)
    {
      GLuint vaos[3] = { self->vao, self->marker_vao, self->arrow_vao };
      GLuint vbos[3] = { self->vbo, self->marker_vbo, self->arrow_vbo };
      glDeleteVertexArrays (3, vaos);
      glDeleteBuffers (3, vbos);
      glDeleteProgram (self->program);
    }
  self->gl_ready = FALSE;
  GTK_WIDGET_CLASS (rw_room_view_parent_class)->unrealize (widget);
}

static void
draw_marker (RwRoomView *self, const double p[3], float r, float g, float b)
{
  glUniform3f (self->u_offset, (float) p[0], (float) p[1], (float) p[2]);
  glUniform1f (self->u_scale, (float) marker_radius (self));
  glUniform3f (self->u_tint, r, g, b);
  glDrawArrays (GL_TRIANGLES, 0, self->n_marker_vertices);
}

static gboolean
rw_room_view_render (GtkGLArea *area, GdkGLContext *context)
{
  RwRoomView *self = RW_ROOM_VIEW (area);
  float mvp[16];

  (void) context;
  glClearColor (0.16f, 0.17f, 0.19f, 1.0f);
  glClear (GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (!self->gl_ready)
    return TRUE;
  if (self->mesh_dirty)
    upload_mesh (self);

  view_projection (self, widget_aspect (self), mvp);
  glEnable (GL_DEPTH_TEST);
  glUseProgram (self->program);
  glUniformMatrix4fv (self->u_mvp, 1, GL_FALSE, mvp);

  if (self->n_vertices > 0)
    {
      glEnable (GL_CULL_FACE);
      glCullFace (GL_FRONT);
      glUniform3f (self->u_offset, 0, 0, 0);
      glUniform1f (self->u_scale, 1);
      glUniform3f (self->u_tint, 1, 1, 1);
      glBindVertexArray (self->vao);
      glDrawArrays (GL_TRIANGLES, 0, self->n_vertices);
      glDisable (GL_CULL_FACE);

      double p[3];
      glBindVertexArray (self->marker_vao);
      rw_project_get_source (self->project, p);
      draw_marker (self, p, 0.95f, 0.2f, 0.15f);
      for (guint i = 0; i < rw_project_get_n_receivers (self->project); i++)
        {
          rw_project_get_receiver (self->project, i, p);
          draw_marker (self, p, 0.2f, 0.45f, 0.95f);
        }
      /* where each binaural head or ambisonic microphone looks */
      glBindVertexArray (self->arrow_vao);
      GLsizei n_arrow = upload_arrows (self);
      if (n_arrow > 0)
        {
          glUniform3f (self->u_offset, 0, 0, 0);
          glUniform1f (self->u_scale, 1);
          glUniform3f (self->u_tint, 1, 1, 1);
          glDrawArrays (GL_TRIANGLES, 0, n_arrow);
        }
    }
  glBindVertexArray (0);
  glUseProgram (0);

  GLenum e = glGetError ();
  if (e != GL_NO_ERROR)
    g_debug ("room view: GL error 0x%x while drawing", e);
  return TRUE;
}

/* ---- camera ----------------------------------------------------------- */

void
rw_room_view_fit (RwRoomView *self)
{
  const RwMeshReport *r = self->project ? rw_project_get_report (self->project) : NULL;
  double radius = 5;

  if (r != NULL)
    {
      radius = 0;
      for (int k = 0; k < 3; k++)
        {
          self->target[k] = 0.5 * (r->bbox_min[k] + r->bbox_max[k]);
          radius += pow (0.5 * (r->bbox_max[k] - r->bbox_min[k]), 2);
        }
      radius = MAX (sqrt (radius), 0.1);
    }
  self->scene_radius = radius;
  self->distance = radius / sin (FOV_Y_RAD / 2) * 1.05;
  self->yaw = -G_PI / 2 - 0.6;
  self->pitch = 0.75;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

/* ---- picking ---------------------------------------------------------- */

static int
pick_surface (RwRoomView *self, double px, double py)
{
  const RwMesh *m = self->project ? rw_project_get_mesh (self->project) : NULL;
  double o[3], d[3], best = INFINITY;
  int hit = -1;

  if (m == NULL)
    return -1;
  pixel_ray (self, px, py, o, d);
  for (size_t t = 0; t < m->n_triangles; t++)
    {
      double tt, det;
      /* det < 0: the ray meets the back of the triangle (outward normal
       * pointing away), the side the view draws. */
      if (!rw_mesh_ray_triangle (m, t, o, d, &tt, &det) || det > -1e-12)
        continue;
      if (tt > 0 && tt < best)
        {
          best = tt;
          hit = (int) m->tri_surface[t];
        }
    }
  return hit;
}

/* -1 source, ≥ 0 receiver, G_MININT none. */
static int
pick_marker (RwRoomView *self, double px, double py)
{
  double p[3], sx, sy;
  int best = G_MININT;
  double best_d = MARKER_PICK_PX;

  if (self->project == NULL || rw_project_get_mesh (self->project) == NULL)
    return G_MININT;
  rw_project_get_source (self->project, p);
  if (project_point (self, p, &sx, &sy) && hypot (sx - px, sy - py) < best_d)
    {
      best_d = hypot (sx - px, sy - py);
      best = -1;
    }
  for (guint i = 0; i < rw_project_get_n_receivers (self->project); i++)
    {
      rw_project_get_receiver (self->project, i, p);
      if (project_point (self, p, &sx, &sy) && hypot (sx - px, sy - py) < best_d)
        {
          best_d = hypot (sx - px, sy - py);
          best = (int) i;
        }
    }
  return best;
}

/* ---- input ------------------------------------------------------------ */

/* The project refuses points outside the room: a dragged marker stops at
 * the wall, floor or ceiling. */
static void
move_dragged_marker (RwRoomView *self, const double p[3])
{
  if (self->drag_marker < 0)
    rw_project_set_source (self->project, p, NULL);
  else
    rw_project_set_receiver (self->project, (guint) self->drag_marker, p, NULL);
}

/* A drag's start, update and end, from the gesture (or a test hook, with
 * the button and modifiers the gesture would report). */
static void
drag_begin (RwRoomView *self, double x, double y, guint button, GdkModifierType mods)
{
  self->drag_x0 = x;
  self->drag_y0 = y;
  self->drag_yaw0 = self->yaw;
  self->drag_pitch0 = self->pitch;
  memcpy (self->drag_target0, self->target, sizeof self->target);
  self->drag_mode = 1;
  if (button == GDK_BUTTON_MIDDLE || (mods & GDK_SHIFT_MASK))
    self->drag_mode = 2;
  else if (button == GDK_BUTTON_PRIMARY)
    {
      int marker = pick_marker (self, x, y);
      if (marker != G_MININT)
        {
          double p[3];
          if (marker < 0)
            rw_project_get_source (self->project, p);
          else
            rw_project_get_receiver (self->project, marker, p);
          /* Ctrl: up and down along the marker's vertical line */
          self->drag_mode = (mods & GDK_CONTROL_MASK) ? 4 : 3;
          self->drag_marker = marker;
          self->marker_z = p[2];
          self->marker_xy[0] = p[0];
          self->marker_xy[1] = p[1];
        }
    }
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, RwRoomView *self)
{
  drag_begin (self, x, y, gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)),
              gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture)));
}

static void
drag_update (RwRoomView *self, double dx, double dy)
{
  switch (self->drag_mode)
    {
    case 1:
      self->yaw = self->drag_yaw0 - dx * 0.01;
      self->pitch = CLAMP (self->drag_pitch0 + dy * 0.01, -1.5, 1.5);
      break;
    case 2:
      {
        double eye[3], f[3], r[3], u[3];
        double scale = self->distance * tan (FOV_Y_RAD / 2) * 2 / MAX (gtk_widget_get_height (GTK_WIDGET (self)), 1);
        camera_basis (self, eye, f, r, u);
        for (int k = 0; k < 3; k++)
          self->target[k] = self->drag_target0[k] - r[k] * dx * scale + u[k] * dy * scale;
      }
      break;
    case 3:
      {
        /* Move in the marker's horizontal plane z = marker_z. */
        double o[3], d[3];
        pixel_ray (self, self->drag_x0 + dx, self->drag_y0 + dy, o, d);
        if (fabs (d[2]) < 1e-6)
          break;
        double t = (self->marker_z - o[2]) / d[2];
        if (t <= 0)
          break;
        double p[3] = { o[0] + t * d[0], o[1] + t * d[1], self->marker_z };
        move_dragged_marker (self, p);
      }
      break;
    case 4:
      {
        /* Lift: the height on the marker's vertical line nearest the
         * pointer's ray. */
        double o[3], d[3], p[3] = { self->marker_xy[0], self->marker_xy[1], 0 };
        pixel_ray (self, self->drag_x0 + dx, self->drag_y0 + dy, o, d);
        if (!rw_ray_nearest_height (o, d, p[0], p[1], &p[2]))
          break;
        move_dragged_marker (self, p);
      }
      break;
    default:
      return;
    }
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, RwRoomView *self)
{
  (void) gesture;
  drag_update (self, dx, dy);
}

static void
drag_end (RwRoomView *self, double dx, double dy, guint button, GdkModifierType mods)
{
  if (hypot (dx, dy) < CLICK_SLOP_PX && button == GDK_BUTTON_PRIMARY && self->drag_mode < 3)
    {
      self->yaw = self->drag_yaw0;
      self->pitch = self->drag_pitch0;
      int s = pick_surface (self, self->drag_x0, self->drag_y0);
      if (s >= 0)
        g_signal_emit (self, signals[SURFACE_CLICKED], 0, (guint) s,
                       (gboolean) ((mods & (GDK_CONTROL_MASK | GDK_SHIFT_MASK)) != 0));
    }
  self->drag_mode = 0;
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, RwRoomView *self)
{
  drag_end (self, dx, dy, gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture)),
            gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture)));
}

gboolean
rw_room_view_debug_marker_point (RwRoomView *self, int marker, double *x, double *y)
{
  double p[3];
  if (self->project == NULL || rw_project_get_mesh (self->project) == NULL)
    return FALSE;
  if (marker < 0)
    rw_project_get_source (self->project, p);
  else if ((guint) marker < rw_project_get_n_receivers (self->project))
    rw_project_get_receiver (self->project, (guint) marker, p);
  else
    return FALSE;
  return project_point (self, p, x, y);
}

gboolean
rw_room_view_debug_project (RwRoomView *self, const double p[3], double *x, double *y)
{
  return project_point (self, p, x, y);
}

void
rw_room_view_debug_drag (RwRoomView *self, double x, double y, double dx, double dy, gboolean ctrl)
{
  const GdkModifierType mods = ctrl ? GDK_CONTROL_MASK : 0;
  drag_begin (self, x, y, GDK_BUTTON_PRIMARY, mods);
  /* in steps, as a pointer moves */
  for (int k = 1; k <= 8; k++)
    drag_update (self, dx * k / 8, dy * k / 8);
  drag_end (self, dx, dy, GDK_BUTTON_PRIMARY, mods);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll, double dx, double dy, RwRoomView *self)
{
  (void) scroll;
  (void) dx;
  self->distance = CLAMP (self->distance * pow (1.1, dy), 0.05, 1e5);
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
  return TRUE;
}

/* ---- project ---------------------------------------------------------- */

static void
on_mesh_changed (RwRoomView *self)
{
  g_clear_pointer (&self->selected, g_free);
  self->n_selected = 0;
  rw_room_view_fit (self);
  self->mesh_dirty = TRUE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

static void
on_materials_changed (RwRoomView *self)
{
  self->mesh_dirty = TRUE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

void
rw_room_view_set_project (RwRoomView *self, RwProject *project)
{
  if (self->project_signals == NULL)
    {
      self->project_signals = g_signal_group_new (RW_TYPE_PROJECT);
      g_signal_group_connect_swapped (self->project_signals, "notify::mesh", G_CALLBACK (on_mesh_changed), self);
      g_signal_group_connect_swapped (self->project_signals, "notify::surface-materials",
                                      G_CALLBACK (on_materials_changed), self);
      g_signal_group_connect_swapped (self->project_signals, "notify::source",
                                      G_CALLBACK (gtk_gl_area_queue_render), self);
      g_signal_group_connect_swapped (self->project_signals, "notify::receivers",
                                      G_CALLBACK (gtk_gl_area_queue_render), self);
      /* the look arrows follow each receiver's type and orientation */
      g_signal_group_connect_swapped (self->project_signals, "notify::receiver-specs",
                                      G_CALLBACK (gtk_gl_area_queue_render), self);
    }
  g_set_object (&self->project, project);
  g_signal_group_set_target (self->project_signals, project);
  self->mesh_dirty = TRUE;
  rw_room_view_fit (self);
}

void
rw_room_view_set_selection (RwRoomView *self, const gboolean *selected, guint n)
{
  g_clear_pointer (&self->selected, g_free);
  self->n_selected = 0;
  if (selected != NULL)
    {
      self->selected = g_memdup2 (selected, n * sizeof (gboolean));
      self->n_selected = n;
    }
  self->mesh_dirty = TRUE;
  gtk_gl_area_queue_render (GTK_GL_AREA (self));
}

const char *
rw_room_view_get_gl_error (RwRoomView *self)
{
  return self->gl_error;
}

static void
rw_room_view_dispose (GObject *object)
{
  RwRoomView *self = RW_ROOM_VIEW (object);

  if (self->project_signals != NULL)
    g_signal_group_set_target (self->project_signals, NULL);
  g_clear_object (&self->project_signals);
  g_clear_object (&self->project);
  G_OBJECT_CLASS (rw_room_view_parent_class)->dispose (object);
}

static void
rw_room_view_finalize (GObject *object)
{
  RwRoomView *self = RW_ROOM_VIEW (object);

  g_free (self->selected);
  g_free (self->gl_error);
  G_OBJECT_CLASS (rw_room_view_parent_class)->finalize (object);
}

static void
rw_room_view_class_init (RwRoomViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = rw_room_view_dispose;
  object_class->finalize = rw_room_view_finalize;
  widget_class->realize = rw_room_view_realize;
  widget_class->unrealize = rw_room_view_unrealize;
  GTK_GL_AREA_CLASS (klass)->render = rw_room_view_render;

  /* surface id, extend (Ctrl or Shift held: add to the selection) */
  signals[SURFACE_CLICKED] =
    g_signal_new ("surface-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_BOOLEAN);
}

static void
rw_room_view_init (RwRoomView *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

  gtk_gl_area_set_required_version (GTK_GL_AREA (self), 3, 3);
  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (self), TRUE);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  self->distance = 10;
  self->scene_radius = 5;
  self->yaw = -G_PI / 2 - 0.6;
  self->pitch = 0.75;
}
