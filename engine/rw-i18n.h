/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-i18n.h — gettext for the engine and the programs.
 *
 * Every user-visible string is wrapped in _() (or N_() where it is stored
 * and translated later). The domain is "roomwave"; programs call
 * rw_i18n_init () once at start. */
#pragma once

#include <libintl.h>
#include <locale.h>

#ifndef GETTEXT_PACKAGE
#define GETTEXT_PACKAGE "roomwave"
#endif

#define _(s) dgettext (GETTEXT_PACKAGE, s)
#define N_(s) (s)

/* setlocale + bindtextdomain (installed locale dir, or the build tree's
 * when run uninstalled). */
void rw_i18n_init (void);
