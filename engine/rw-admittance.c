/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rw-admittance.c — the passive admittance model of rw-admittance.h. */
#include "rw-admittance.h"

#include <math.h>
#include "rw-i18n.h"

RwAdmittance
rw_admittance_real (double R)
{
  RwAdmittance a = { 0 };
  a.Y0 = R > -1.0 ? (1.0 - R) / (1.0 + R) : INFINITY;
  return a;
}

bool
rw_admittance_is_frequency_dependent (const RwAdmittance *a)
{
  return a != NULL && a->n_branches > 0;
}

bool
rw_admittance_check (const RwAdmittance *a, RwError *err)
{
  if (!(isfinite (a->Y0) && a->Y0 >= 0.0))
    return rw_fail (err, RW_ERROR_INPUT, _("The conductance %g is not a finite number ≥ 0"), a->Y0);
  if (a->n_branches < 0 || a->n_branches > RW_ADM_MAX_BRANCHES)
    return rw_fail (err, RW_ERROR_INPUT, _("%d branches: the model takes 0 to %d"),
                    a->n_branches, RW_ADM_MAX_BRANCHES);
  for (int m = 0; m < a->n_branches; m++)
    {
      const RwBranch *b = &a->branch[m];
      if (!(isfinite (b->D) && isfinite (b->E) && isfinite (b->F)
            && b->D >= 0.0 && b->E >= 0.0 && b->F >= 0.0))
        return rw_fail (err, RW_ERROR_INPUT,
                        _("Branch %d (D %g, E %g, F %g) has an element that is negative or not finite"),
                        m + 1, b->D, b->E, b->F);
      if (b->D == 0.0 && b->E == 0.0 && b->F == 0.0)
        return rw_fail (err, RW_ERROR_INPUT, _("Branch %d has no element"), m + 1);
    }
  return true;
}
