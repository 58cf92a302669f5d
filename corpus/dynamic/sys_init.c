/* /init of the system-mode plugin test (tests/plugin-system.sh): runs /sys_cases once for
 * each case named on the kernel command line after "--", inside a checking window, says on
 * the console how each ended, and reboots (which -no-reboot turns into QEMU's exit).
 *
 * With one vCPU and no thread identity, the window must hold no user code but the case's:
 * run_marked (sys_init_run.S) forks, execve's with the begin marker right before the
 * syscall, and in the parent goes straight from fork to wait4 and from wait4 to the end
 * marker without a call, return or indirect branch. This is the recipe for any guest
 * runner that uses the plugin. */
#include <stdio.h>
#include <sys/reboot.h>
#include <unistd.h>

long run_marked(const char *path, char *const argv[], char *const envp[], int *status);

int main(int argc, char **argv)
{
	static char *const empty_env[] = { NULL };

	for (int i = 1; i < argc; i++) {
		char *case_argv[] = { "/sys_cases", argv[i], NULL };
		int status = -1;

		run_marked(case_argv[0], case_argv, empty_env, &status);
		printf("elfcet-sys-case %s status %d\n", argv[i], status);
		fflush(stdout);
	}
	printf("elfcet-sys-done\n");
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
