// Built with -fcf-protection=none: the landing pad of the catch has no ENDBR.
void thrower(int x);

int legacy_catch(int x)
{
	try {
		thrower(x);
	} catch (int e) {
		return e;
	}
	return 0;
}
