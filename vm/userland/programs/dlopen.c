/* dlopen [--permissive] PLUGIN: loads the shared object, calls plugin_entry through the
 * pointer dlsym gives (an indirect call into the plugin) and prints "dlopen ok"; when the
 * loader refuses the object it prints "dlopen refused: " and dlerror()'s reason. Either
 * way it exits 0: the first line says what happened.
 * --permissive re-executes the program with glibc's CET tunables set to permissive,
 * under which ld.so turns a feature off rather than refuse an object without it. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	void *handle;
	int (*entry)(int);

	if (argc == 3 && strcmp(argv[1], "--permissive") == 0) {
		char *again[] = { argv[0], argv[2], NULL };

		setenv("GLIBC_TUNABLES", "glibc.cpu.x86_ibt=permissive:glibc.cpu.x86_shstk=permissive", 1);
		execv("/proc/self/exe", again);
		perror("execv /proc/self/exe");
		return 1;
	}
	if (argc != 2) {
		fputs("usage: dlopen [--permissive] PLUGIN\n", stderr);
		return 2;
	}
	handle = dlopen(argv[1], RTLD_NOW);
	if (!handle) {
		printf("dlopen refused: %s\n", dlerror());
		return 0;
	}
	entry = (int (*)(int))dlsym(handle, "plugin_entry");
	if (!entry || entry(4) != 13) {
		puts("dlopen: plugin_entry missing or wrong");
		return 1;
	}
	puts("dlopen ok");
	return 0;
}
