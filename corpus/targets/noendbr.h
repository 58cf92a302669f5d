/* The corpus' one tool: NOENDBR makes the compiler leave ENDBR out of one function
 * (nocf_check) in a file otherwise built with -fcf-protection=full, and keeps it a
 * function of its own (not inlined) so the finding lands on its symbol. */
#ifndef CORPUS_TARGETS_NOENDBR_H
#define CORPUS_TARGETS_NOENDBR_H

#define NOENDBR __attribute__((nocf_check, noinline, used))
/* A nocf_check function's type differs from a plain one's: the casts say it is meant. */
#define PLAIN_FN(f) ((void (*)(void))(f))
#define PLAIN_INT_FN(f) ((int (*)(int))(f))

#endif
