/* SPDX-License-Identifier: GPL-3.0-or-later */
/* roomwave — the GTK application's entry point (ui/rw-application.c does
 * the work). `roomwave [FILE…]`: meshes or .roomwave projects; none opens
 * the bundled demo room. */
#include <gtk/gtk.h>

#include "rw-application.h"
#include "rw-i18n.h"

int
main (int argc, char **argv)
{
  /* rw_i18n_init sets the locale with numbers in the C locale (JSON, CSV);
   * GTK must not set it again. */
  gtk_disable_setlocale ();
  rw_i18n_init ();

  g_autoptr (RwApplication) app = rw_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
