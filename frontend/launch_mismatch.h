/* launch_mismatch.h: the types behind MLIR's "'gpu.launch_func' op type of
 * function argument N does not match" (launch_mismatch.c says how). */
#ifndef GPUCC_LAUNCH_MISMATCH_H
#define GPUCC_LAUNCH_MISMATCH_H

/* message: the diagnostic's text; op_note: its "see current operation: ..."
 * note (NULL when it has none); source: the file its location names.
 * Returns the message with ": expected T, got U" added (or ": got U" when
 * the kernel's signature is not found in the source), malloc'ed; NULL when
 * the message is another one or the types cannot be told. */
char *frontend_launch_mismatch_explained(const char *message, const char *op_note, const char *source);

#endif
