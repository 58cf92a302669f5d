/* /init of the system-mode plugin test (tests/plugin-system.sh): runs /sys_cases once for
 * each case named on the kernel command line after "--", inside a checking window, says on
 * the console how each ended, and reboots (which -no-reboot turns into QEMU's exit).
 *
 * With one vCPU and no thread identity, the window must hold no user code but the case's:
 * run_marked (sys_init_run.S) forks; the child waits until the parent sleeps in wait4,
 * then execve's with the begin marker right before the syscall; the parent goes straight
 * from fork to wait4 and from wait4 to the end marker without a call, return or indirect
 * branch. Otherwise a parent that returns from fork after the child (a scheduler's
 * choice) runs its own code inside the window, where the plugin takes its first block
 * for the target of the case's interrupted call. This is the recipe for any guest runner
 * that uses the plugin. The child is made to run first after fork
 * (sched_child_runs_first), the order in which the race shows. */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <unistd.h>

long run_marked(const char *path, char *const argv[], char *const envp[], int *status);
void wait_parent_asleep(void);

/* The state letter of /proc/PID/stat, or 0. */
static char proc_state(pid_t pid)
{
	char path[64], line[512], *close_paren;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	close_paren = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
	fclose(f);
	return close_paren && close_paren[1] == ' ' ? close_paren[2] : 0;
}

/* Called by run_marked's child. Between fork and wait4 the parent makes no system call,
 * so a sleeping parent is in wait4. */
void wait_parent_asleep(void)
{
	pid_t parent = getppid();

	while (proc_state(parent) != 'S')
		sched_yield();
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		printf("elfcet-sys-warning: cannot write %s\n", path);
}

int main(int argc, char **argv)
{
	static char *const empty_env[] = { NULL };

	mkdir("/proc", 0555);
	if (mount("proc", "/proc", "proc", 0, NULL) != 0)
		printf("elfcet-sys-warning: cannot mount /proc\n");
	write_file("/proc/sys/kernel/sched_child_runs_first", "1\n");

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
