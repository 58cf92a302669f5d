/* labeloffs: computed gotos through tables of label offsets, the way a printf-style
 * parser dispatches (a byte table turns a character into a class, a table per state
 * turns the class into the offset of a label from a base label; goto *(&&base + off)).
 * Built with -fcf-protection, GCC puts ENDBR at every label whose address is taken, so
 * the tracked jmp *%reg of each dispatch is fine: no finding. The offset tables hold
 * fewer entries than the character range the code bounds the byte table by, and the
 * tables of the next function follow them: a reader that took that bound for the offset
 * table would run into them. corpus/targets/build also assembles this code with the
 * ENDBR of one label removed (labeloffs-patched): a finding naming that label alone. */
#include <stddef.h>

/* The class of each character from ' ' to 'z': 0 other, 1 digit, 2 sign, 3 letter,
 * 4 '.', 5 ','. */
static const unsigned char char_class[] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 5, 2, 4, 0, /* ' ' .. '/' */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, /* '0' .. '?' */
	0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, /* '@' .. 'O' */
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 0, /* 'P' .. '_' */
	0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, /* '`' .. 'o' */
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,		/* 'p' .. 'z' */
};

#define IN_RANGE(ch) ((ch) >= ' ' && (ch) <= 'z')
#define OFFSET(label) (int)(&&label - &&finish)
#define DISPATCH(ch, table)                                                                  \
	do {                                                                                 \
		unsigned char c_ = (unsigned char)(ch);                                      \
		goto *(&&finish +                                                            \
		       (IN_RANGE(c_) ? table[char_class[c_ - ' ']] : OFFSET(finish)));       \
	} while (0)

/* Sums the numbers of a comma-separated list ("12,-4.5,x"): a fraction is skipped, a
 * word counts its letters. */
__attribute__((noinline)) long sum_list(const char *p)
{
	static const int at_start[6] = { OFFSET(finish), OFFSET(digit),	 OFFSET(sign),
					 OFFSET(word),	 OFFSET(finish), OFFSET(comma) };
	static const int in_number[6] = { OFFSET(finish), OFFSET(digit),  OFFSET(finish),
					  OFFSET(finish), OFFSET(fraction), OFFSET(comma) };
	static const int in_fraction[6] = { OFFSET(finish), OFFSET(fraction), OFFSET(finish),
					    OFFSET(finish), OFFSET(finish),   OFFSET(comma) };
	long total = 0, value = 0, negative = 0;

	DISPATCH(*p, at_start);
digit:
	value = value * 10 + (*p - '0');
	DISPATCH(*++p, in_number);
sign:
	negative = *p == '-';
	DISPATCH(*++p, in_number);
fraction:
	DISPATCH(*++p, in_fraction);
word:
	value += 1;
	DISPATCH(*++p, at_start);
comma:
	total += negative ? -value : value;
	value = negative = 0;
	DISPATCH(*++p, at_start);
finish:
	return total + (negative ? -value : value);
}

#undef OFFSET
#define OFFSET(label) (int)(&&label - &&finish)

/* Counts the words and the digits of P, a different machine over the same classes. */
__attribute__((noinline)) long count_tokens(const char *p)
{
	static const int outside[6] = { OFFSET(blank), OFFSET(number), OFFSET(blank),
					OFFSET(letter), OFFSET(blank), OFFSET(blank) };
	static const int inside[6] = { OFFSET(blank), OFFSET(letter), OFFSET(letter),
				       OFFSET(letter), OFFSET(letter), OFFSET(blank) };
	long words = 0, digits = 0;

	DISPATCH(*p, outside);
blank:
	if (!*p)
		goto finish;
	DISPATCH(*++p, outside);
number:
	digits++;
	DISPATCH(*++p, outside);
letter:
	words += p[-1] == ' ' || p[-1] == ',';
	DISPATCH(*++p, inside);
finish:
	return words * 1000 + digits;
}

#ifndef NO_MAIN
int main(int argc, char **argv)
{
	const char *text = argc > 1 ? argv[1] : "12,-4.5,abc,7";

	return (int)((sum_list(text) + count_tokens(text)) & 0x7f);
}
#endif
