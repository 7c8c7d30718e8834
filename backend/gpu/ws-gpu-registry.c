/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The registry of real kernels: ids, parameters and standard sweeps, read
 * from the catalogue of presets (ws-presets.c), which declares each kernel
 * once for the model and the GPU. Plain data, in every build, so that a
 * build or a machine without CUDA can still list the kernels and read
 * recordings of them. */
#include "ws-gpu.h"

#include <string.h>

/* Kernels with no pattern to show: references the others are compared with. */
static const WsGpuKernelParam memcpy_params[] = {
  { "N", 1 << 25, 1, 1 << 28, "elements" },
};

static const WsKernelInfo references[] = {
  { "reference/memcpy", "cudaMemcpy device to device of N words (the copy bound)",
    memcpy_params, G_N_ELEMENTS (memcpy_params), NULL, NULL, NULL },
};

static void
add_kernel (GArray         *kernels,
            const WsPreset *preset)
{
  WsGpuKernelParam *params = g_new0 (WsGpuKernelParam, WS_PRESET_MAX_PARAMS);
  WsKernelInfo info = { preset->id, preset->kernel, params, 0, NULL, NULL, preset };

  for (guint i = 0; i < WS_PRESET_MAX_PARAMS && preset->params[i].name; i++)
    {
      const WsPresetParam *p = &preset->params[i];

      if (p->use == WS_PARAM_MODEL_ONLY)
        continue;
      params[info.n_params++] = (WsGpuKernelParam) { p->name, p->value, p->min, p->max, p->description };
      /* a sweep of what only the model reads is not the kernel's */
      if (g_strcmp0 (p->name, preset->sweep_param) == 0)
        {
          info.sweep_param = preset->sweep_param;
          info.sweep_values = preset->sweep_values;
        }
    }
  g_array_append_val (kernels, info);
}

static GArray *
build_registry (void)
{
  GArray *kernels = g_array_new (FALSE, TRUE, sizeof (WsKernelInfo));
  guint n;
  const WsPreset *presets = ws_presets_get_all (&n);

  for (guint i = 0; i < n; i++)
    if (presets[i].kernel)
      add_kernel (kernels, &presets[i]);
  g_array_append_vals (kernels, references, G_N_ELEMENTS (references));
  return kernels;
}

/* Built once, kept for the life of the program. */
static GArray *
registry (void)
{
  static GArray *kernels;

  if (g_once_init_enter (&kernels))
    g_once_init_leave (&kernels, build_registry ());
  return kernels;
}

const WsKernelInfo *
ws_gpu_kernels (guint *n_kernels)
{
  GArray *kernels = registry ();

  g_return_val_if_fail (n_kernels != NULL, NULL);
  *n_kernels = kernels->len;
  return (const WsKernelInfo *) kernels->data;
}

const WsKernelInfo *
ws_gpu_kernel_lookup (const char *id)
{
  GArray *kernels = registry ();

  g_return_val_if_fail (id != NULL, NULL);
  for (guint i = 0; i < kernels->len; i++)
    if (strcmp (g_array_index (kernels, WsKernelInfo, i).id, id) == 0)
      return &g_array_index (kernels, WsKernelInfo, i);
  return NULL;
}

const WsGpuKernelParam *
ws_kernel_info_get_param (const WsKernelInfo *info,
                          const char         *name)
{
  g_return_val_if_fail (info != NULL && name != NULL, NULL);
  for (guint i = 0; i < info->n_params; i++)
    if (strcmp (info->params[i].name, name) == 0)
      return &info->params[i];
  return NULL;
}
