/* select_host.h: the host backend's selection rules (select_host.c), apart
 * from its code (backend_host.c) so that tests link them alone. */
#ifndef GPUCC_RT_SELECT_HOST_H
#define GPUCC_RT_SELECT_HOST_H

#include "select.h"

extern const struct rt_selection rt_selection_host;

#endif
