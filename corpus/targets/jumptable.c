/* jump-table: legacy code (jumptable_legacy.c, no -fcf-protection) dispatches a switch
 * through a table with a tracked jmp to case labels without ENDBR. The same switch here
 * is built with CET: the compiler uses notrack jmp, which is fine. */
int legacy_switch(int x, int y);

__attribute__((noinline)) static int cet_switch(int x, int y)
{
	switch (x) {
	case 0: return y * 5 + 2;
	case 1: return y ^ 0x66;
	case 2: return y << 4;
	case 3: return y - 19;
	case 4: return y / 9;
	case 5: return y % 13;
	case 6: return -y;
	default: return y;
	}
}

int main(int argc, char **argv)
{
	(void)argv;
	return cet_switch(argc, argc * 7) + legacy_switch(argc, argc * 5) == 0;
}
