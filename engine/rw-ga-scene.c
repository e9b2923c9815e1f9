/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-ga-scene.c — Embree scene of a room mesh (see rw-ga-scene.h). */
#include "rw-ga-scene.h"

#include <embree3/rtcore.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rw-i18n.h"

struct RwGaScene {
  const RwMesh *mesh;
  RTCDevice device;
  RTCScene scene;
  int8_t *sign;          /* per triangle: its shell's orientation (±1) */
  char embree_message[256];
};

static const char *
embree_error_name (enum RTCError code)
{
  switch (code)
    {
    case RTC_ERROR_NONE: return "RTC_ERROR_NONE";
    case RTC_ERROR_INVALID_ARGUMENT: return "RTC_ERROR_INVALID_ARGUMENT";
    case RTC_ERROR_INVALID_OPERATION: return "RTC_ERROR_INVALID_OPERATION";
    case RTC_ERROR_OUT_OF_MEMORY: return "RTC_ERROR_OUT_OF_MEMORY";
    case RTC_ERROR_UNSUPPORTED_CPU: return "RTC_ERROR_UNSUPPORTED_CPU";
    case RTC_ERROR_CANCELLED: return "RTC_ERROR_CANCELLED";
    default: return "RTC_ERROR_UNKNOWN";
    }
}

/* Embree calls this on the thread that made the failing call; only the
 * build (one thread) can fail, so the first message is kept as it is. */
static void
on_embree_error (void *user, enum RTCError code, const char *str)
{
  RwGaScene *s = user;
  if (s->embree_message[0] == '\0')
    snprintf (s->embree_message, sizeof s->embree_message, "%s%s%s", embree_error_name (code),
              str ? ": " : "", str ? str : "");
}

/* Embree's own message about the last failure, and the error code it
 * maps to. */
static const char *
embree_failure (const RwGaScene *s, RwErrorCode *code)
{
  enum RTCError e = s && s->device ? rtcGetDeviceError (s->device) : rtcGetDeviceError (NULL);
  *code = e == RTC_ERROR_OUT_OF_MEMORY ? RW_ERROR_MEMORY : RW_ERROR_INTERNAL;
  return s && s->embree_message[0] ? s->embree_message : embree_error_name (e);
}

void
rw_ga_scene_free (RwGaScene *s)
{
  if (s == NULL)
    return;
  if (s->scene)
    rtcReleaseScene (s->scene);
  if (s->device)
    rtcReleaseDevice (s->device);
  free (s->sign);
  free (s);
}

const RwMesh *
rw_ga_scene_mesh (const RwGaScene *s)
{
  return s->mesh;
}

static const char *
mesh_name (const RwMesh *m)
{
  return m && m->path ? m->path : _("the room model");
}

RwGaScene *
rw_ga_scene_new (const RwMesh *mesh, RwError *err)
{
  if (mesh == NULL || mesh->n_triangles == 0 || mesh->n_vertices == 0)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s: no triangles to trace rays against"), mesh_name (mesh));
      return NULL;
    }
  if (mesh->n_triangles > UINT32_MAX / 3 || mesh->n_vertices > UINT32_MAX)
    {
      rw_fail (err, RW_ERROR_INPUT, _("%s: too many triangles for the ray tracer (%zu)"),
               mesh_name (mesh), mesh->n_triangles);
      return NULL;
    }
  for (size_t v = 0; v < 3 * mesh->n_vertices; v++)
    if (!isfinite (mesh->xyz[v]))
      {
        rw_fail (err, RW_ERROR_INPUT, _("%s: vertex %zu has a coordinate that is not a finite number"),
                 mesh_name (mesh), v / 3);
        return NULL;
      }
  for (size_t t = 0; t < 3 * mesh->n_triangles; t++)
    if (mesh->tri[t] >= mesh->n_vertices)
      {
        rw_fail (err, RW_ERROR_INPUT, _("%s: triangle %zu uses vertex %u, but there are only %zu"),
                 mesh_name (mesh), t / 3, mesh->tri[t], mesh->n_vertices);
        return NULL;
      }

  RwGaScene *s = calloc (1, sizeof *s);
  if (s == NULL)
    {
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory building the ray tracing scene"));
      return NULL;
    }
  s->mesh = mesh;
  s->sign = rw_mesh_shell_signs (mesh);
  if (s->sign == NULL)
    {
      rw_ga_scene_free (s);
      rw_fail (err, RW_ERROR_MEMORY, _("out of memory building the ray tracing scene"));
      return NULL;
    }
  s->device = rtcNewDevice (NULL);
  if (s->device == NULL)
    {
      RwErrorCode code;
      const char *msg = embree_failure (NULL, &code);
      rw_fail (err, code, _("the ray tracing library Embree could not start: %s"), msg);
      rw_ga_scene_free (s);
      return NULL;
    }
  rtcSetDeviceErrorFunction (s->device, on_embree_error, s);
  s->scene = rtcNewScene (s->device);
  RTCGeometry g = s->scene ? rtcNewGeometry (s->device, RTC_GEOMETRY_TYPE_TRIANGLE) : NULL;
  float *vb = g ? rtcSetNewGeometryBuffer (g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                           3 * sizeof (float), mesh->n_vertices)
                : NULL;
  unsigned *ib = g ? rtcSetNewGeometryBuffer (g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                              3 * sizeof (unsigned), mesh->n_triangles)
                   : NULL;
  if (vb == NULL || ib == NULL)
    {
      if (g)
        rtcReleaseGeometry (g);
      RwErrorCode code;
      const char *msg = embree_failure (s, &code);
      rw_fail (err, code, _("the ray tracing library Embree could not store the room's triangles: %s"),
               msg);
      rw_ga_scene_free (s);
      return NULL;
    }
  for (size_t v = 0; v < 3 * mesh->n_vertices; v++)
    vb[v] = (float) mesh->xyz[v];
  for (size_t t = 0; t < 3 * mesh->n_triangles; t++)
    ib[t] = mesh->tri[t];
  rtcCommitGeometry (g);
  rtcAttachGeometryByID (s->scene, g, 0);
  rtcReleaseGeometry (g);
  rtcSetSceneFlags (s->scene, RTC_SCENE_FLAG_ROBUST);
  rtcSetSceneBuildQuality (s->scene, RTC_BUILD_QUALITY_HIGH);
  rtcCommitScene (s->scene);
  if (rtcGetDeviceError (s->device) != RTC_ERROR_NONE || s->embree_message[0] != '\0')
    {
      RwErrorCode code;
      const char *msg = embree_failure (s, &code);
      rw_fail (err, code,
               _("the ray tracing library Embree could not build its search structure over the "
                 "room's triangles: %s"), msg);
      rw_ga_scene_free (s);
      return NULL;
    }
  return s;
}

bool
rw_ga_scene_triangle_normal (const RwGaScene *s, uint32_t t, double n[3])
{
  const RwMesh *m = s->mesh;
  const double *a = m->xyz + 3 * (size_t) m->tri[3 * (size_t) t];
  const double *b = m->xyz + 3 * (size_t) m->tri[3 * (size_t) t + 1];
  const double *c = m->xyz + 3 * (size_t) m->tri[3 * (size_t) t + 2];
  double ab[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
  double ac[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
  rw_cross3 (ab, ac, n);
  double len = sqrt (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(len > 0.0))
    {
      n[0] = n[1] = n[2] = 0.0;
      return false;
    }
  double k = s->sign[t] / len;
  for (int i = 0; i < 3; i++)
    n[i] *= k;
  return true;
}

static bool
unit (const double d[3], double u[3], double *len)
{
  double l = sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (!(l > 0.0) || !isfinite (l))
    return false;
  for (int i = 0; i < 3; i++)
    u[i] = d[i] / l;
  if (len)
    *len = l;
  return true;
}

bool
rw_ga_scene_first_hit (const RwGaScene *s, const double o[3], const double dir[3],
                       double t_near, double t_far, RwGaHit *hit)
{
  double u[3];
  if (!unit (dir, u, NULL) || !(t_far > t_near))
    return false;
  struct RTCIntersectContext ctx;
  rtcInitIntersectContext (&ctx);
  struct RTCRayHit rh;
  memset (&rh, 0, sizeof rh);
  rh.ray.org_x = (float) o[0];
  rh.ray.org_y = (float) o[1];
  rh.ray.org_z = (float) o[2];
  rh.ray.dir_x = (float) u[0];
  rh.ray.dir_y = (float) u[1];
  rh.ray.dir_z = (float) u[2];
  rh.ray.tnear = (float) (t_near > 0.0 ? t_near : 0.0);
  rh.ray.tfar = isfinite (t_far) ? (float) t_far : INFINITY;
  rh.ray.mask = UINT32_MAX;
  rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
  rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
  rtcIntersect1 (s->scene, &ctx, &rh);
  if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID)
    return false;
  if (hit)
    {
      hit->distance = rh.ray.tfar;
      hit->triangle = rh.hit.primID;
      hit->surface = s->mesh->tri_surface[rh.hit.primID];
      rw_ga_scene_triangle_normal (s, rh.hit.primID, hit->normal);
      hit->front = u[0] * hit->normal[0] + u[1] * hit->normal[1] + u[2] * hit->normal[2] < 0.0;
    }
  return true;
}

bool
rw_ga_scene_segment_clear (const RwGaScene *s, const double a[3], const double b[3], double eps)
{
  double d[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, u[3], len;
  if (!unit (d, u, &len))
    return true;   /* a point does not occlude itself */
  if (len <= 2.0 * eps)
    return true;
  struct RTCIntersectContext ctx;
  rtcInitIntersectContext (&ctx);
  struct RTCRay ray;
  memset (&ray, 0, sizeof ray);
  ray.org_x = (float) a[0];
  ray.org_y = (float) a[1];
  ray.org_z = (float) a[2];
  ray.dir_x = (float) u[0];
  ray.dir_y = (float) u[1];
  ray.dir_z = (float) u[2];
  ray.tnear = (float) eps;
  ray.tfar = (float) (len - eps);
  ray.mask = UINT32_MAX;
  rtcOccluded1 (s->scene, &ctx, &ray);
  /* Embree marks an occluded ray by setting tfar to −∞. */
  return ray.tfar >= 0.0f;
}
