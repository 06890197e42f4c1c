/* backend_list.c: the backends this runtime knows, in the order they are
 * tried (init.c): the GPUs' first, the host CPU last, as it always finds its
 * device. Adding a backend is adding its file and a line here. Kept apart
 * so that a test build can link a list of its own. */
#include "backend_rows.h"

const struct rt_backend *const rt_backends[] = {
    &rt_backend_cuda,
    &rt_backend_hip,
    /* Any Vulkan GPU; never a CPU device, unless asked (backend_vulkan.c). */
    &rt_backend_vulkan,
    &rt_backend_host, /* always finds its device: the CPU, last resort */
    NULL,
};
