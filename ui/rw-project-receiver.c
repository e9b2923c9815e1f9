/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-project-receiver.c — one receiver slot's type and orientation
 * (rw-project-receiver.h). */
#include "rw-project-receiver.h"

#include "rw-ambisonics.h"

struct _RwProjectReceiver
{
  GObject parent_instance;

  RwReceiverType type;
  guint order;                  /* kept for any type; used by an ambisonic one */
  double yaw_deg, pitch_deg;    /* kept for any type; used unless omni */
};

G_DEFINE_TYPE (RwProjectReceiver, rw_project_receiver, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TYPE,
  PROP_ORDER,
  PROP_YAW_DEG,
  PROP_PITCH_DEG,
  PROP_ORIENTED,
  PROP_AMBISONIC,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

static void
rw_project_receiver_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  RwProjectReceiver *self = RW_PROJECT_RECEIVER (object);

  switch (prop_id)
    {
    case PROP_TYPE:
      g_value_set_uint (value, self->type);
      break;
    case PROP_ORDER:
      g_value_set_uint (value, self->order);
      break;
    case PROP_YAW_DEG:
      g_value_set_double (value, self->yaw_deg);
      break;
    case PROP_PITCH_DEG:
      g_value_set_double (value, self->pitch_deg);
      break;
    case PROP_ORIENTED:
      g_value_set_boolean (value, self->type != RW_RECEIVER_OMNI);
      break;
    case PROP_AMBISONIC:
      g_value_set_boolean (value, self->type == RW_RECEIVER_AMBISONIC);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Stores a double property, notifying only a change. */
static void
set_double (RwProjectReceiver *self, double *field, double v, guint prop)
{
  if (*field == v)
    return;
  *field = v;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
set_type (RwProjectReceiver *self, RwReceiverType type)
{
  if (self->type == type)
    return;
  self->type = type;
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TYPE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ORIENTED]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AMBISONIC]);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
set_order (RwProjectReceiver *self, guint order)
{
  if (self->order == order)
    return;
  self->order = order;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ORDER]);
}

static void
rw_project_receiver_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  RwProjectReceiver *self = RW_PROJECT_RECEIVER (object);

  switch (prop_id)
    {
    case PROP_TYPE:
      set_type (self, (RwReceiverType) g_value_get_uint (value));
      break;
    case PROP_ORDER:
      set_order (self, g_value_get_uint (value));
      break;
    case PROP_YAW_DEG:
      set_double (self, &self->yaw_deg, g_value_get_double (value), PROP_YAW_DEG);
      break;
    case PROP_PITCH_DEG:
      set_double (self, &self->pitch_deg, g_value_get_double (value), PROP_PITCH_DEG);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rw_project_receiver_class_init (RwProjectReceiverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->get_property = rw_project_receiver_get_property;
  object_class->set_property = rw_project_receiver_set_property;
  /* The ranges of rw_receiver_check: what a slot holds, a run accepts. */
  properties[PROP_TYPE] = g_param_spec_uint ("type", NULL, NULL, 0, RW_RECEIVER_N_TYPES - 1, RW_RECEIVER_OMNI, rw);
  properties[PROP_ORDER] = g_param_spec_uint ("order", NULL, NULL, RW_AMBI_MIN_ORDER, RW_AMBI_MAX_ORDER,
                                              RW_AMBI_MIN_ORDER, rw);
  properties[PROP_YAW_DEG] = g_param_spec_double ("yaw-deg", NULL, NULL, -RW_RECEIVER_MAX_YAW_DEG,
                                                  RW_RECEIVER_MAX_YAW_DEG, 0, rw);
  properties[PROP_PITCH_DEG] = g_param_spec_double ("pitch-deg", NULL, NULL, -RW_RECEIVER_MAX_PITCH_DEG,
                                                    RW_RECEIVER_MAX_PITCH_DEG, 0, rw);
  properties[PROP_ORIENTED] = g_param_spec_boolean ("oriented", NULL, NULL, FALSE, ro);
  properties[PROP_AMBISONIC] = g_param_spec_boolean ("ambisonic", NULL, NULL, FALSE, ro);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
rw_project_receiver_init (RwProjectReceiver *self)
{
  self->type = RW_RECEIVER_OMNI;
  self->order = RW_AMBI_MIN_ORDER;
}

RwProjectReceiver *
rw_project_receiver_new (void)
{
  return g_object_new (RW_TYPE_PROJECT_RECEIVER, NULL);
}

void
rw_project_receiver_get_spec (RwProjectReceiver *self, RwReceiverSpec *spec)
{
  g_return_if_fail (RW_IS_PROJECT_RECEIVER (self) && spec != NULL);
  spec->type = self->type;
  spec->order = self->type == RW_RECEIVER_AMBISONIC ? (int) self->order : 0;
  spec->yaw_deg = self->type == RW_RECEIVER_OMNI ? 0.0 : self->yaw_deg;
  spec->pitch_deg = self->type == RW_RECEIVER_OMNI ? 0.0 : self->pitch_deg;
}

void
rw_project_receiver_set_spec (RwProjectReceiver *self, const RwReceiverSpec *spec)
{
  g_return_if_fail (RW_IS_PROJECT_RECEIVER (self) && spec != NULL);
  g_return_if_fail (rw_receiver_check (spec, "receiver", NULL));
  g_object_freeze_notify (G_OBJECT (self));
  set_type (self, spec->type);
  if (spec->type == RW_RECEIVER_AMBISONIC)
    set_order (self, (guint) spec->order);
  set_double (self, &self->yaw_deg, spec->yaw_deg, PROP_YAW_DEG);
  set_double (self, &self->pitch_deg, spec->pitch_deg, PROP_PITCH_DEG);
  g_object_thaw_notify (G_OBJECT (self));
}
