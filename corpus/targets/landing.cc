// landing-pad: legacy code (landing_legacy.cc, no -fcf-protection) catches an exception;
// the unwinder enters its landing pad with a tracked jmp, and the pad has no ENDBR.
int legacy_catch(int x);

__attribute__((noinline)) void thrower(int x)
{
	if (x > 0)
		throw x;
}

int main(int argc, char **)
{
	return legacy_catch(argc) != argc;
}
