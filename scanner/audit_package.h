/* Auditing the programs and libraries of a Debian package read as it is (deb_input). */
#ifndef ELFCET_AUDIT_PACKAGE_H
#define ELFCET_AUDIT_PACKAGE_H

#include "audit.h"

/* Takes REP: its contents are the callee's to free (file_report_free). */
typedef void (*audit_sink_fn)(struct file_report *rep, void *ctx);

/* Audits every ELF file of the package at PATH, handing each report to SINK as soon as
 * it is made, in archive order, each naming the file as installed and the package's
 * name, version and path; a package that cannot be read ends with an error report for
 * PATH saying why (nothing at all for a package without ELF files). */
void audit_package(const char *path, const struct audit_options *opt, audit_sink_fn sink,
		   void *ctx);

#endif
