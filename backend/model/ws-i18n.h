/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* N_() marks a string of the model's for translation (xgettext finds it):
 * the model, its JSON and the CLI keep the English; what shows it in the
 * window translates it there. */
#define N_(String) (String)
