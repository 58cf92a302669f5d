// A C++ exception thrown two frames down and caught in main: libgcc's unwinder reaches the
// landing pad with a tracked jmp, and g++ -fcf-protection gives landing pads ENDBR.
#include <cstdio>
#include <stdexcept>

__attribute__((noinline)) static void thrower(int n)
{
	if (n > 0)
		throw std::runtime_error("boom");
}

__attribute__((noinline)) static int middle(int n)
{
	thrower(n);
	return 1;
}

int main()
{
	int caught = 0;
	for (int i = 1; i <= 3; i++) {
		try {
			middle(i);
		} catch (const std::exception &e) {
			caught++;
		}
	}
	std::printf("caught %d\n", caught);
	return 0;
}
