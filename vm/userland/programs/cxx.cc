// A C++ program: a std::map of std::string, an exception thrown and caught (the
// unwinder of libgcc_s, libstdc++'s personality routine), iostream output. Built with
// -fcf-protection against the CET glibc, it is marked; Debian 12's libstdc++.so.6 and
// libgcc_s.so.1 it needs are not (no note), so the CET ld.so turns IBT and SHSTK off
// at start-up. Prints "cxx ok: thrown, shadow=2".
#include <exception>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

int main()
{
	std::map<std::string, int> counts;
	for (const char *word : { "shadow", "stack", "shadow" })
		counts[word]++;
	try {
		throw std::runtime_error("thrown");
	} catch (const std::exception &e) {
		std::cout << "cxx ok: " << e.what() << ", shadow=" << counts["shadow"] << std::endl;
	}
	return 0;
}
