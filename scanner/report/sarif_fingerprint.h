/* Fingerprints of SARIF results: what identifies a finding from one build to the next, so
 * a code-scanning service keeps tracking an alert when unrelated code moves. */
#ifndef ELFCET_SARIF_FINGERPRINT_H
#define ELFCET_SARIF_FINGERPRINT_H

#include "problem.h"

/* One fingerprint per finding of a file, "HEX:N": the SHA-256 of the rule, the file's URI,
 * the function, the offset in it and the evidence kind; N counts findings that share all
 * of these (local functions of the same name), in address order, from 1. Unnamed code
 * ("sub_ADDR") has only its address to go by. Free with sarif_fingerprints_free. */
char **sarif_finding_fingerprints(const char *uri, const struct finding_list *findings);
void sarif_fingerprints_free(char **prints, size_t count);

/* A problem of the note: one per rule and file. */
char *sarif_problem_fingerprint(const char *uri, const char *rule);

#endif
