/* vsyscall-call and vsyscall-data: code that calls the legacy vsyscall page's time() and
 * a pointer to its gettimeofday() kept in data. A CET kernel emulates neither. */
#include <stddef.h>

typedef long (*vtime_fn)(long *);
typedef int (*vgtod_fn)(void *, void *);

vgtod_fn volatile vgettimeofday = (vgtod_fn)0xffffffffff600000UL;

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 5) /* never, unless asked: the host kernel may not emulate it either */
		return (int)((vtime_fn)0xffffffffff600400UL)(NULL) + vgettimeofday(NULL, NULL);
	return 0;
}
