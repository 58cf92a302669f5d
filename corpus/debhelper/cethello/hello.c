/* A small program for the dh_elfcet test: a function called through a pointer, so that
 * IBT has an indirect-branch target to check beside the entry point. */
#include <stdio.h>

static int greet(const char *who)
{
	return printf("hello from %s\n", who) < 0;
}

int main(int argc, char **argv)
{
	int (*volatile fn)(const char *) = greet;

	return fn(argc > 1 ? argv[1] : "cethello");
}
