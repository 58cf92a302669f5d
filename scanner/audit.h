/* Auditing one file: the model, its property note, the code checks, the verdicts. */
#ifndef ELFCET_AUDIT_H
#define ELFCET_AUDIT_H

#include "elf/elf_model.h"
#include "problem.h"
#include "property/property_note.h"
#include "verdict.h"

#include <stdbool.h>

struct rule_set;
struct deb_limits;

struct audit_options {
	const struct rule_set *rules;
	const struct deb_limits *deb_limits; /* for packages; NULL: the defaults */
};

enum report_status {
	REPORT_AUDITED,
	REPORT_NOT_ELF, /* not reported when found while walking a directory */
	REPORT_SKIPPED, /* ELF, but not an x86 program or library */
	REPORT_ERROR,	/* could not be read: MESSAGE says why */
};

struct file_report {
	char *path;
	char *package, *package_version; /* the .deb the file came from, or NULL */
	char *package_file;		 /* that .deb's path, for messages */
	enum report_status status;
	char *message; /* for SKIPPED and ERROR */
	int elf_class; /* 32 or 64 */
	uint16_t machine;
	enum elf_kind kind;
	char *interp;
	struct property_report props;
	struct problem_list problems;
	struct finding_list findings;
	enum verdict ibt, shstk;
};

/* Audits PATH into REP (always filled; free it with file_report_free). */
void audit_file(const char *path, const struct audit_options *opt, struct file_report *rep);
/* Audits the open model M into REP (its path is M's). */
void audit_model(const struct elf_model *m, const struct audit_options *opt,
		 struct file_report *rep);
/* The same for a file in memory (a package member), reported as NAME. */
void audit_image(const char *name, const unsigned char *image, size_t size,
		 const struct audit_options *opt, struct file_report *rep);
void file_report_free(struct file_report *rep);

/* The most severe problem or finding, or -1 when there are none. */
int file_report_worst_severity(const struct file_report *rep);

#endif
