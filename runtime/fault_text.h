/* fault_text.h: how every backend words a kernel that failed.
 *
 * One line on stderr, whoever noticed:
 *
 *   gpucc: kernel 'k' (module m): illegal memory access[ more]
 *
 * The host backend's signal handler (host_fault.c) adds the address, the
 * block and the thread it knows; the CUDA and HIP backends (kernel_fault.c)
 * turn the driver's sticky launch errors into the same words and add
 * nothing, since the driver says no more. Header-only and free of stdio, so
 * that the signal handler can use it and the test engine that links
 * host_fault.c alone needs nothing else. */
#ifndef GPUCC_RT_FAULT_TEXT_H
#define GPUCC_RT_FAULT_TEXT_H

#include <stddef.h>

enum rt_fault {
  RT_FAULT_MEMORY,      /* SIGSEGV/SIGBUS; CUDA 700, HIP 700 */
  RT_FAULT_MISALIGNED,  /* CUDA 716 */
  RT_FAULT_TRAP,        /* SIGILL/SIGTRAP (llvm.trap) */
  RT_FAULT_ARITHMETIC,  /* SIGFPE: an integer division by zero */
  RT_FAULT_INSTRUCTION, /* CUDA 715, 718 */
  RT_FAULT_ASSERT,      /* CUDA 710, HIP 710 */
  RT_FAULT_STACK,       /* CUDA 714 */
  RT_FAULT_UNSPECIFIED, /* CUDA 719, HIP 719: a trap, or a fault the driver does not name */
};

static inline const char *rt_fault_text(enum rt_fault kind) {
  static const char *const text[] = {
      [RT_FAULT_MEMORY] = "illegal memory access",
      [RT_FAULT_MISALIGNED] = "misaligned memory access",
      [RT_FAULT_TRAP] = "trap",
      [RT_FAULT_ARITHMETIC] = "arithmetic fault",
      [RT_FAULT_INSTRUCTION] = "illegal instruction",
      [RT_FAULT_ASSERT] = "assertion failed in the kernel",
      [RT_FAULT_STACK] = "stack overflow",
      [RT_FAULT_UNSPECIFIED] = "trap or unspecified fault",
  };
  return (size_t)kind < sizeof text / sizeof text[0] ? text[kind] : "fault";
}

static inline size_t rt_fault_put(char *buf, size_t size, size_t len, const char *s) {
  while (*s && len + 1 < size)
    buf[len++] = *s++;
  buf[len] = '\0';
  return len;
}

/* Writes "gpucc: kernel 'k' (module m): <what>" into buf (NUL-terminated,
 * cut to size - 1 bytes; size > 0) and returns its length. kernel NULL is
 * "?"; module NULL or "" leaves the module out. Async-signal-safe. */
static inline size_t rt_fault_line(char *buf, size_t size, const char *kernel,
                                   const char *module, enum rt_fault kind) {
  size_t n = rt_fault_put(buf, size, 0, "gpucc: kernel '");
  n = rt_fault_put(buf, size, n, kernel ? kernel : "?");
  n = rt_fault_put(buf, size, n, "'");
  if (module && *module) {
    n = rt_fault_put(buf, size, n, " (module ");
    n = rt_fault_put(buf, size, n, module);
    n = rt_fault_put(buf, size, n, ")");
  }
  n = rt_fault_put(buf, size, n, ": ");
  return rt_fault_put(buf, size, n, rt_fault_text(kind));
}

#endif
