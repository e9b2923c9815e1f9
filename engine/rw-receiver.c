/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-receiver.c — receiver types, their names and syntax (rw-receiver.h). */
#include "rw-receiver.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rw-ambisonics.h"
#include "rw-i18n.h"

static const char *const type_names[RW_RECEIVER_N_TYPES] = { "omni", "binaural", "ambisonic" };

const char *
rw_receiver_type_name (RwReceiverType type)
{
  return (unsigned) type < RW_RECEIVER_N_TYPES ? type_names[type] : NULL;
}

bool
rw_receiver_type_from_name (const char *name, RwReceiverType *type)
{
  for (int t = 0; name != NULL && t < RW_RECEIVER_N_TYPES; t++)
    if (strcmp (name, type_names[t]) == 0)
      {
        *type = (RwReceiverType) t;
        return true;
      }
  return false;
}

const char *
rw_receiver_type_label (RwReceiverType type)
{
  switch (type)
    {
    case RW_RECEIVER_OMNI:
      return _("Omnidirectional");
    case RW_RECEIVER_BINAURAL:
      return _("Binaural (head)");
    case RW_RECEIVER_AMBISONIC:
      return _("Ambisonic");
    default:
      return NULL;
    }
}

bool
rw_receiver_check (const RwReceiverSpec *spec, const char *what, RwError *err)
{
  if ((unsigned) spec->type >= RW_RECEIVER_N_TYPES)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: unknown receiver type %d"), what, (int) spec->type);
  if (spec->type == RW_RECEIVER_AMBISONIC
      && (spec->order < RW_AMBI_MIN_ORDER || spec->order > RW_AMBI_MAX_ORDER))
    return rw_fail (err, RW_ERROR_INPUT, _("%s: ambisonic order %d: must be between %d and %d"),
                    what, spec->order, RW_AMBI_MIN_ORDER, RW_AMBI_MAX_ORDER);
  if (spec->type != RW_RECEIVER_AMBISONIC && spec->order != 0)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: only an ambisonic receiver has an order"), what);
  if (!isfinite (spec->yaw_deg) || fabs (spec->yaw_deg) > RW_RECEIVER_MAX_YAW_DEG)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: yaw %g°: must be between −360° and 360°"), what,
                    spec->yaw_deg);
  if (!isfinite (spec->pitch_deg) || fabs (spec->pitch_deg) > RW_RECEIVER_MAX_PITCH_DEG)
    return rw_fail (err, RW_ERROR_INPUT, _("%s: pitch %g°: must be between −90° and 90°"), what,
                    spec->pitch_deg);
  if (spec->type == RW_RECEIVER_OMNI && (spec->yaw_deg != 0.0 || spec->pitch_deg != 0.0))
    return rw_fail (err, RW_ERROR_INPUT,
                    _("%s: an omnidirectional receiver has no orientation (yaw, pitch)"), what);
  return true;
}

/* A whole finite number from [s, s + len). */
static bool
parse_number (const char *s, size_t len, double *v)
{
  char buf[64];
  if (len == 0 || len >= sizeof buf)
    return false;
  memcpy (buf, s, len);
  buf[len] = '\0';
  char *end = NULL;
  errno = 0;
  *v = strtod (buf, &end);
  return errno == 0 && end == buf + len && isfinite (*v);
}

static bool
bad (RwError *err, const char *text, const char *why)
{
  return rw_fail (err, RW_ERROR_INPUT,
                  _("receiver '%s': %s (expected X,Y,Z[:binaural[,yaw=DEG][,pitch=DEG]|"
                    ":ambisonic=N[,yaw=DEG][,pitch=DEG]])"),
                  text, why);
}

bool
rw_receiver_parse (const char *text, double pos[3], RwReceiverSpec *spec, RwError *err)
{
  memset (spec, 0, sizeof *spec);
  if (text == NULL)
    return bad (err, "", _("empty"));
  const char *colon = strchr (text, ':');
  const size_t pos_len = colon ? (size_t) (colon - text) : strlen (text);
  /* X,Y,Z: exactly three fields */
  const char *field = text;
  for (int i = 0; i < 3; i++)
    {
      const char *end = text + pos_len;
      const char *comma = memchr (field, ',', (size_t) (end - field));
      const size_t len = comma ? (size_t) (comma - field) : (size_t) (end - field);
      if ((i < 2) != (comma != NULL) || !parse_number (field, len, &pos[i]))
        return bad (err, text, _("the position must be three numbers in metres"));
      field = comma ? comma + 1 : end;
    }
  if (colon == NULL)
    return true;

  /* type[=order] then key=value options, comma-separated */
  const char *p = colon + 1;
  bool first = true, have_yaw = false, have_pitch = false;
  while (true)
    {
      const char *comma = strchr (p, ',');
      const size_t len = comma ? (size_t) (comma - p) : strlen (p);
      const char *eq = memchr (p, '=', len);
      const size_t key_len = eq ? (size_t) (eq - p) : len;
      double v = 0;
      const bool has_value = eq != NULL && parse_number (eq + 1, len - key_len - 1, &v);
      if (first)
        {
          if (key_len == 4 && strncmp (p, "omni", 4) == 0 && eq == NULL)
            spec->type = RW_RECEIVER_OMNI;
          else if (key_len == 8 && strncmp (p, "binaural", 8) == 0 && eq == NULL)
            spec->type = RW_RECEIVER_BINAURAL;
          else if (key_len == 9 && strncmp (p, "ambisonic", 9) == 0)
            {
              if (!has_value || v != floor (v))
                return bad (err, text, _("an ambisonic receiver needs its order, ambisonic=N"));
              spec->type = RW_RECEIVER_AMBISONIC;
              spec->order = v >= -1e6 && v <= 1e6 ? (int) v : -1;
            }
          else
            return bad (err, text, _("unknown receiver type"));
          first = false;
        }
      else if (key_len == 3 && strncmp (p, "yaw", 3) == 0 && has_value && !have_yaw)
        {
          spec->yaw_deg = v;
          have_yaw = true;
        }
      else if (key_len == 5 && strncmp (p, "pitch", 5) == 0 && has_value && !have_pitch)
        {
          spec->pitch_deg = v;
          have_pitch = true;
        }
      else
        return bad (err, text, _("unknown or repeated option; give yaw=DEG and pitch=DEG at most once each"));
      if (comma == NULL)
        break;
      p = comma + 1;
    }
  char what[300];
  snprintf (what, sizeof what, _("receiver '%s'"), text);
  return rw_receiver_check (spec, what, err);
}

void
rw_receiver_format (const double pos[3], const RwReceiverSpec *spec, char *buf, size_t len)
{
  int k = snprintf (buf, len, "%.17g,%.17g,%.17g", pos[0], pos[1], pos[2]);
  if (k < 0 || (size_t) k >= len || spec->type == RW_RECEIVER_OMNI)
    return;
  if (spec->type == RW_RECEIVER_BINAURAL)
    snprintf (buf + k, len - (size_t) k, ":binaural,yaw=%.17g,pitch=%.17g", spec->yaw_deg,
              spec->pitch_deg);
  else
    snprintf (buf + k, len - (size_t) k, ":ambisonic=%d,yaw=%.17g,pitch=%.17g", spec->order,
              spec->yaw_deg, spec->pitch_deg);
}

int
rw_receiver_channels (const RwReceiverSpec *spec)
{
  switch (spec->type)
    {
    case RW_RECEIVER_BINAURAL:
      return 2;
    case RW_RECEIVER_AMBISONIC:
      return RW_AMBI_CHANNELS (spec->order);
    default:
      return 1;
    }
}

int
rw_receiver_ambi_order (const RwReceiverSpec *spec)
{
  switch (spec->type)
    {
    case RW_RECEIVER_BINAURAL:
      return RW_RECEIVER_BINAURAL_AMBI_ORDER;
    case RW_RECEIVER_AMBISONIC:
      return spec->order;
    default:
      return 0;
    }
}

void
rw_receiver_binaural_name (size_t r, char *buf, size_t len)
{
  snprintf (buf, len, "receiver-%zu-binaural.wav", r + 1);
}

void
rw_receiver_ambix_name (size_t r, char *buf, size_t len)
{
  snprintf (buf, len, "receiver-%zu-ambix.wav", r + 1);
}
