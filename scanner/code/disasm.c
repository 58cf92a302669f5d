/* Decoding instructions with Capstone, and the CET instructions it does not know. */
#include "config.h"

#include "code/disasm.h"

#include "code/insn_length.h"

#include <pthread.h>
#include <string.h>

bool is_endbr(const unsigned char *p, size_t n, bool is64)
{
	return n >= 4 && p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e &&
	       p[3] == (is64 ? 0xfa : 0xfb);
}

size_t cet_insn_decode(const unsigned char *p, size_t n, bool is64, enum cet_insn_kind *kind)
{
	size_t i = 0, mlen;
	bool f3 = false, p66 = false;

	*kind = CET_NONE;
	while (i < n && (p[i] == 0xf3 || p[i] == 0x66)) {
		f3 |= p[i] == 0xf3;
		p66 |= p[i] == 0x66;
		i++;
	}
	if (is64 && i < n && (p[i] & 0xf0) == 0x40)
		i++; /* REX */
	if (i + 3 > n || p[i] != 0x0f)
		return 0;
	if (f3 && p[i + 1] == 0x1e) {
		uint8_t m = p[i + 2];

		if (m == 0xfa || m == 0xfb) {
			*kind = m == 0xfa ? CET_ENDBR64 : CET_ENDBR32;
			return i + 3;
		}
		if ((m & 0xf8) == 0xc8) { /* /1, register */
			*kind = CET_RDSSP;
			return i + 3;
		}
		return 0;
	}
	if (f3 && p[i + 1] == 0xae) {
		uint8_t m = p[i + 2];

		if ((m & 0xf8) == 0xe8) { /* /5, register: INCSSP (Capstone: lfence) */
			*kind = CET_INCSSP;
			return i + 3;
		}
		if ((m >> 6) != 3 && ((m >> 3) & 7) == 6) {
			mlen = modrm_operand_length(p + i + 2, n - i - 2);
			if (!mlen)
				return 0;
			*kind = CET_CLRSSBSY;
			return i + 2 + mlen;
		}
		return 0;
	}
	if (f3 && p[i + 1] == 0x01) {
		uint8_t m = p[i + 2];

		if (m == 0xea) {
			*kind = CET_SAVEPREVSSP;
			return i + 3;
		}
		if (m == 0xe8) {
			*kind = CET_SETSSBSY;
			return i + 3;
		}
		if ((m >> 6) != 3 && ((m >> 3) & 7) == 5) {
			mlen = modrm_operand_length(p + i + 2, n - i - 2);
			if (!mlen)
				return 0;
			*kind = CET_RSTORSSP;
			return i + 2 + mlen;
		}
		return 0;
	}
	if (!f3 && i + 4 <= n && p[i + 1] == 0x38 && (p[i + 2] == 0xf6 || p[i + 2] == 0xf5)) {
		bool wruss = p[i + 2] == 0xf5;

		if (wruss != p66 || (p[i + 3] >> 6) == 3)
			return 0;
		mlen = modrm_operand_length(p + i + 3, n - i - 3);
		if (!mlen)
			return 0;
		*kind = wruss ? CET_WRUSS : CET_WRSS;
		return i + 3 + mlen;
	}
	return 0;
}

const char *cet_insn_name(enum cet_insn_kind kind)
{
	static const char *const names[] = {
		[CET_NONE] = "",
		[CET_ENDBR64] = "endbr64",
		[CET_ENDBR32] = "endbr32",
		[CET_RDSSP] = "rdssp",
		[CET_INCSSP] = "incssp",
		[CET_WRSS] = "wrss",
		[CET_WRUSS] = "wruss",
		[CET_RSTORSSP] = "rstorssp",
		[CET_SAVEPREVSSP] = "saveprevssp",
		[CET_SETSSBSY] = "setssbsy",
		[CET_CLRSSBSY] = "clrssbsy",
	};

	return names[kind];
}

/* Debian 12's Capstone (4.0.2) sorts its table of implicit registers on the first
 * instruction it prints, with no lock. Threads decoding at once read the table while
 * another sorts it (a thread preempted mid-sort leaves it half sorted for everyone), and
 * lose the %eax of cmp $imm32,%eax: a jump table's bound, so its entry count and the
 * data scan's findings changed from run to run. One decoding before any other does the
 * sort once. A mutex rather than pthread_once: valgrind's helgrind, which
 * tests/thread-races.sh runs, sees the order a mutex makes. */
static pthread_mutex_t capstone_lock = PTHREAD_MUTEX_INITIALIZER;
static bool capstone_sorted;

static void capstone_sort_tables(void)
{
	static const unsigned char cmp_eax[] = { 0x3d, 0x00, 0x10, 0x00, 0x00 };
	cs_insn *insn;
	csh h;

	pthread_mutex_lock(&capstone_lock);
	if (!capstone_sorted && cs_open(CS_ARCH_X86, CS_MODE_64, &h) == CS_ERR_OK) {
		cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
		if (cs_disasm(h, cmp_eax, sizeof(cmp_eax), 0, 1, &insn) == 1)
			cs_free(insn, 1);
		cs_close(&h);
		capstone_sorted = true;
	}
	pthread_mutex_unlock(&capstone_lock);
}

bool disasm_open(struct disasm *d, bool is64)
{
	capstone_sort_tables();
	memset(d, 0, sizeof(*d));
	d->is64 = is64;
	if (!ZYAN_SUCCESS(ZydisDecoderInit(&d->lengths,
					   is64 ? ZYDIS_MACHINE_MODE_LONG_64
						: ZYDIS_MACHINE_MODE_LEGACY_32,
					   is64 ? ZYDIS_STACK_WIDTH_64 : ZYDIS_STACK_WIDTH_32)) ||
	    !ZYAN_SUCCESS(
		    ZydisDecoderEnableMode(&d->lengths, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE)))
		return false;
	if (cs_open(CS_ARCH_X86, is64 ? CS_MODE_64 : CS_MODE_32, &d->handle) != CS_ERR_OK)
		return false;
	cs_option(d->handle, CS_OPT_DETAIL, CS_OPT_ON);
	d->insn = cs_malloc(d->handle);
	d->ok = d->insn != NULL;
	return d->ok;
}

void disasm_close(struct disasm *d)
{
	if (d->insn)
		cs_free(d->insn, 1);
	if (d->handle)
		cs_close(&d->handle);
	memset(d, 0, sizeof(*d));
}

size_t disasm_length(const struct disasm *d, const unsigned char *p, size_t n)
{
	ZydisDecodedInstruction insn;
	size_t len = quick_length(p, n, d->is64);

	if (len)
		return len;
	if (!ZYAN_SUCCESS(ZydisDecoderDecodeInstruction(&d->lengths, NULL, p, n, &insn)))
		return 0;
	return insn.length;
}

size_t disasm_walk(struct disasm *d, const unsigned char *bytes, size_t n, uint64_t addr,
		   size_t limit, void (*fn)(const struct decoded *di, void *ctx), void *ctx)
{
	const uint8_t *p = bytes;
	size_t left = n;
	uint64_t pc = addr;

	while (left && (size_t)(p - bytes) < limit) {
		struct decoded di = { .addr = pc, .bytes = p };
		size_t len = cet_insn_decode(p, left, d->is64, &di.cet);

		/* Ours first: Capstone 4 misreads INCSSP and rejects the rest. */
		if (len && di.cet != CET_ENDBR64 && di.cet != CET_ENDBR32) {
			di.size = len;
		} else {
			const uint8_t *q = p;
			size_t l = left, measured = len ? len : disasm_length(d, p, left);
			uint64_t a = pc;

			/* The length is Zydis's: Capstone 4 refuses or mismeasures some EVEX
			 * encodings, and stepping over them a byte at a time reads their tails
			 * as other instructions (62 d1 2c 48 57 c3, one vxorps, as push; ret).
			 * Capstone only describes an instruction it measures the same. */
			if (cs_disasm_iter(d->handle, &q, &l, &a, d->insn) &&
			    (!measured || d->insn->size == measured)) {
				di.insn = d->insn;
				di.size = d->insn->size;
			} else {
				di.size = measured ? measured : 1;
			}
		}
		fn(&di, ctx);
		p += di.size;
		left -= di.size;
		pc += di.size;
	}
	return (size_t)(p - bytes);
}
