/* Auditing the programs and libraries of a Debian package read as it is (deb_input). */
#ifndef ELFCET_AUDIT_PACKAGE_H
#define ELFCET_AUDIT_PACKAGE_H

#include "audit.h"

struct report_batch {
	struct file_report *items;
	size_t count, cap;
};

/* Audits every ELF file of the package at PATH into OUT, in archive order, each report
 * naming the file as installed and the package's name and version; a package that cannot
 * be read ends OUT with an error report for PATH. */
void audit_package(const char *path, const struct audit_options *opt, struct report_batch *out);
void report_batch_free(struct report_batch *b);

#endif
