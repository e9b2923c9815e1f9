/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "rw-i18n.h"
#include "rw-config.h"

#include <stdlib.h>

void
rw_i18n_init (void)
{
  setlocale (LC_ALL, "");
  /* Numbers in JSON, CSV and on the command line are always written and
   * parsed with a decimal point, whatever the user's locale. */
  setlocale (LC_NUMERIC, "C");
  const char *dir = getenv ("ROOMWAVE_LOCALE_DIR");
  bindtextdomain (GETTEXT_PACKAGE, dir ? dir : RW_LOCALE_DIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}
