/* native.h: --offload-arch=native, the GPUs of this machine. */
#ifndef GPUCC_NATIVE_H
#define GPUCC_NATIVE_H

/* Asks the vendor drivers, in a child process so that no vendor library is
 * ever loaded into gpucc itself, which GPUs this machine has. Returns their
 * targets, comma separated and deduplicated ("sm_90,gfx942"), malloc'ed; or
 * NULL after reporting an error that says what was looked for. The driver
 * libraries can be overridden with GPUCC_CUDA_LIBRARY / GPUCC_HIP_LIBRARY,
 * as for the runtime. */
char *native_arch_list(void);

#endif
