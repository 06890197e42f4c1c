/* hello.c: the baseline of bench_startup, a C program that prints a line. */
#include <stdio.h>

int main(void) {
  puts("hello, world");
  return 0;
}
