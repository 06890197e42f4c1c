/* select_vulkan.h: the Vulkan backend's selection rules (select_vulkan.c),
 * apart from its driver code (backend_vulkan.c) so that tests link them
 * alone. */
#ifndef GPUCC_RT_SELECT_VULKAN_H
#define GPUCC_RT_SELECT_VULKAN_H

#include "select.h"

extern const struct rt_selection rt_selection_vulkan;

#endif
