/* Where elfcet finds the files it installs beside itself (the rule catalogue, the QEMU
 * plugin): in the build tree when the program running is the build tree's, else where
 * `make install` put them, also when that was under a DESTDIR or the whole prefix moved. */
#ifndef ELFCET_INSTALL_DIRS_H
#define ELFCET_INSTALL_DIRS_H

#include <stddef.h>

/* Picks the path of one file or directory: BUILD_PATH when the running program is the
 * build tree's; else INSTALLED_PATH under the root the running program was installed
 * into (the program's directory less $(bindir): empty for a normal install, DESTDIR for
 * a staged one) when that exists; else INSTALLED_PATH itself. Writes it to BUF. */
const char *install_path(const char *installed_path, const char *build_path, char *buf, size_t len);

#endif
