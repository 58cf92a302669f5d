// Built with -fcf-protection=none: the C++ landing pads (a catch and the
// cleanups the throw path runs) lack ENDBR, and libgcc's unwinder reaches
// each with a tracked jmp.  main lacks it too, and _start passes its
// address to __libc_start_main (a code reference).
#include <cstdio>
#include <stdexcept>

__attribute__((noinline)) void thrower(int x)
{
	if (x)
		throw std::runtime_error("thrown");
}

int main(int argc, char **)
{
	try {
		thrower(argc);
	} catch (const std::exception &e) {
		std::puts(e.what());
	}
	return 0;
}
