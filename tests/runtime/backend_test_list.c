/* backend_test_list.c: runtime/backend_list.c with the test-only backend
 * (backend_test.c) added before the host CPU: adding a backend is one line
 * here and its file. */
#include "backend_rows.h"

extern const struct rt_backend rt_backend_test;

const struct rt_backend *const rt_backends[] = {
    &rt_backend_cuda,
    &rt_backend_hip,
    &rt_backend_test,
    &rt_backend_host,
    NULL,
};
