/* Built with -fcf-protection=none: a tracked jmp through the switch's table. The cases
 * compute different things, so the compiler cannot turn the switch into a value table. */
int legacy_switch(int x, int y)
{
	switch (x) {
	case 0: return y * 3 + 1;
	case 1: return y ^ 0x55;
	case 2: return y << 3;
	case 3: return y - 17;
	case 4: return y / 7;
	case 5: return y % 11;
	case 6: return ~y;
	default: return y;
	}
}
