/* Inside deb_input: the data archive's files, each ELF file handed on as an image. */
#ifndef ELFCET_DEB_DATA_H
#define ELFCET_DEB_DATA_H

#include "deb_stream.h"

/* Reads the data archive A (the package's member MEMBER) to its end, calling FN for
 * each ELF file as deb_read documents. 0, or -1 with ERR ("MEMBER: ENTRY: problem"). */
int deb_read_data(struct deb_reader *r, struct archive *a, const char *member,
		  const struct deb_package *pkg, deb_file_fn fn, void *ctx,
		  struct elfcet_error *err);

#endif
