/* Reading .eh_frame: CIEs and FDEs, with the pointer encodings they declare. */
#include "config.h"

#include "code/eh_frame.h"

#include "util/byteorder.h"
#include "util/sort_address.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define DW_EH_PE_absptr 0x00
#define DW_EH_PE_uleb128 0x01
#define DW_EH_PE_udata2 0x02
#define DW_EH_PE_udata4 0x03
#define DW_EH_PE_udata8 0x04
#define DW_EH_PE_sleb128 0x09
#define DW_EH_PE_sdata2 0x0a
#define DW_EH_PE_sdata4 0x0b
#define DW_EH_PE_sdata8 0x0c
#define DW_EH_PE_pcrel 0x10
#define DW_EH_PE_indirect 0x80

static bool need(struct dw_cursor *cur, uint64_t n)
{
	if (cur->bad || (uint64_t)(cur->end - cur->p) < n) {
		cur->bad = true;
		return false;
	}
	return true;
}

void dw_skip(struct dw_cursor *cur, uint64_t n)
{
	if (need(cur, n)) {
		cur->p += n;
		cur->addr += n;
	}
}

uint8_t dw_u8(struct dw_cursor *cur)
{
	uint8_t v;

	if (!need(cur, 1))
		return 0;
	v = *cur->p;
	dw_skip(cur, 1);
	return v;
}

uint64_t dw_uleb(struct dw_cursor *cur)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		b = dw_u8(cur);
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while ((b & 0x80) && !cur->bad);
	return v;
}

int64_t dw_sleb(struct dw_cursor *cur)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b;

	do {
		b = dw_u8(cur);
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while ((b & 0x80) && !cur->bad);
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << shift;
	return (int64_t)v;
}

static uint64_t fixed(struct dw_cursor *cur, unsigned size, bool sign)
{
	uint64_t v = 0;

	if (!need(cur, size))
		return 0;
	switch (size) {
	case 2:
		v = cur->p[0] | (uint64_t)cur->p[1] << 8;
		if (sign)
			v = (uint64_t)(int64_t)(int16_t)v;
		break;
	case 4:
		v = load_le32(cur->p);
		if (sign)
			v = (uint64_t)(int64_t)(int32_t)v;
		break;
	case 8:
		v = load_le64(cur->p);
		break;
	}
	dw_skip(cur, size);
	return v;
}

uint64_t dw_pointer(struct dw_cursor *cur, uint8_t enc)
{
	uint64_t at = cur->addr, v;

	if (enc == DW_EH_PE_omit)
		return 0;
	switch (enc & 0x0f) {
	case DW_EH_PE_absptr:
		v = fixed(cur, cur->word, false);
		break;
	case DW_EH_PE_uleb128:
		v = dw_uleb(cur);
		break;
	case DW_EH_PE_udata2:
		v = fixed(cur, 2, false);
		break;
	case DW_EH_PE_udata4:
		v = fixed(cur, 4, false);
		break;
	case DW_EH_PE_udata8:
		v = fixed(cur, 8, false);
		break;
	case DW_EH_PE_sleb128:
		v = (uint64_t)dw_sleb(cur);
		break;
	case DW_EH_PE_sdata2:
		v = fixed(cur, 2, true);
		break;
	case DW_EH_PE_sdata4:
		v = fixed(cur, 4, true);
		break;
	case DW_EH_PE_sdata8:
		v = fixed(cur, 8, true);
		break;
	default:
		cur->bad = true;
		return 0;
	}
	switch (enc & 0x70) {
	case 0:
		break;
	case DW_EH_PE_pcrel:
		v += at;
		break;
	default:
		/* textrel/datarel/funcrel do not occur in .eh_frame on x86 Linux. */
		cur->bad = true;
		return 0;
	}
	if (cur->word == 4)
		v &= 0xffffffffu;
	return v;
}

struct cie {
	uint64_t offset;
	uint8_t fde_enc, lsda_enc;
	bool has_aug_data;
};

/* Parses the CIE at CUR (just after its id); false when it cannot be understood. */
static bool parse_cie(struct dw_cursor cur, struct cie *cie)
{
	const char *aug;
	uint8_t version = dw_u8(&cur);
	size_t i;

	cie->fde_enc = DW_EH_PE_absptr;
	cie->lsda_enc = DW_EH_PE_omit;
	aug = (const char *)cur.p;
	if (cur.bad || !memchr(cur.p, '\0', (size_t)(cur.end - cur.p)))
		return false;
	dw_skip(&cur, strlen(aug) + 1);
	if (strstr(aug, "eh"))
		dw_skip(&cur, cur.word);
	if (version >= 4)
		dw_skip(&cur, 2); /* address size, segment size */
	dw_uleb(&cur);		  /* code alignment */
	dw_sleb(&cur);		  /* data alignment */
	if (version == 1)
		dw_u8(&cur);
	else
		dw_uleb(&cur); /* return address register */
	cie->has_aug_data = aug[0] == 'z';
	if (!cie->has_aug_data)
		return !cur.bad;
	dw_uleb(&cur);
	for (i = 1; aug[i] && !cur.bad; i++) {
		switch (aug[i]) {
		case 'L':
			cie->lsda_enc = dw_u8(&cur);
			break;
		case 'R':
			cie->fde_enc = dw_u8(&cur);
			break;
		case 'P': {
			uint8_t penc = dw_u8(&cur);

			dw_pointer(&cur, penc & ~DW_EH_PE_indirect);
			break;
		}
		case 'S':
		case 'B':
			break;
		default:
			return false;
		}
	}
	return !cur.bad;
}

/* Where .eh_frame is: its section, else what PT_GNU_EH_FRAME's header points at. */
static bool locate(const struct elf_model *m, const unsigned char **bytes, uint64_t *size,
		   uint64_t *addr)
{
	const struct elf_section *sec = elf_model_section_named(m, ".eh_frame");
	const GElf_Phdr *hdr;
	uint64_t off, avail;

	if (sec && sec->sh.sh_type == SHT_PROGBITS) {
		*bytes = elf_model_file_bytes(m, sec->sh.sh_offset, sec->sh.sh_size);
		*size = sec->sh.sh_size;
		*addr = sec->sh.sh_addr;
		return *bytes != NULL;
	}
	hdr = elf_model_find_phdr(m, PT_GNU_EH_FRAME);
	if (!hdr || !elf_model_vaddr_to_offset(m, hdr->p_vaddr, &off, &avail))
		return false;
	/* .eh_frame_hdr: version, three encodings, then the pointer to .eh_frame. Its size
	 * is read from the file: only the bytes the file holds there count. */
	if (avail > hdr->p_filesz)
		avail = hdr->p_filesz;
	if (avail < 4 || m->data[off] != 1)
		return false;
	{
		const unsigned char *h = m->data + off;
		struct dw_cursor cur = { h + 4, h + avail, hdr->p_vaddr + 4,
					 m->elf_class == ELFCLASS64 ? 8 : 4, false };

		*addr = dw_pointer(&cur, h[1]);
		if (cur.bad || !elf_model_vaddr_to_offset(m, *addr, &off, &avail))
			return false;
		*bytes = m->data + off;
		*size = avail;
		return true;
	}
}

void eh_frame_load(const struct elf_model *m, struct fde_info **fdes, size_t *count)
{
	unsigned word = m->elf_class == ELFCLASS64 ? 8 : 4;
	const unsigned char *bytes;
	uint64_t size, addr, off = 0;
	struct cie cie = { .offset = UINT64_MAX };
	size_t cap = 0;

	*fdes = NULL;
	*count = 0;
	if (!locate(m, &bytes, &size, &addr))
		return;
	while (off + 4 <= size) {
		uint64_t len = load_le32(bytes + off), hdr = 4, entry_end, id_at;
		uint32_t id;
		struct dw_cursor cur;

		if (len == 0)
			break;
		if (len == 0xffffffffu) {
			if (off + 12 > size)
				break;
			len = load_le64(bytes + off + 4);
			hdr = 12;
		}
		if (len > size - off - hdr || len < 4)
			break;
		entry_end = off + hdr + len;
		id_at = off + hdr;
		id = load_le32(bytes + id_at);
		cur = (struct dw_cursor){ bytes + id_at + 4, bytes + entry_end, addr + id_at + 4,
					  word, false };
		if (id != 0) {
			uint64_t cie_off = id_at - id;

			/* An FDE: find its CIE (usually the one just parsed). */
			if (id <= id_at && cie_off != cie.offset) {
				struct dw_cursor cc = { 0 };
				uint64_t clen = load_le32(bytes + cie_off), chdr = 4;

				if (clen == 0xffffffffu)
					chdr = 12;
				if (cie_off + chdr + 4 <= size)
					cc = (struct dw_cursor){ bytes + cie_off + chdr + 4,
								 bytes + size,
								 addr + cie_off + chdr + 4, word,
								 false };
				if (cie_off + chdr + 4 > size || !parse_cie(cc, &cie)) {
					cie.offset = UINT64_MAX;
					off = entry_end;
					continue;
				}
				cie.offset = cie_off;
			}
			if (id <= id_at && cie.offset == cie_off) {
				struct fde_info f = { 0 };

				f.start = dw_pointer(&cur, cie.fde_enc);
				f.size = dw_pointer(&cur, cie.fde_enc & 0x0f);
				if (cie.has_aug_data) {
					uint64_t alen = dw_uleb(&cur);
					struct dw_cursor aug = cur;

					if (cie.lsda_enc != DW_EH_PE_omit && alen)
						f.lsda = dw_pointer(&aug, cie.lsda_enc);
				}
				if (!cur.bad && f.start) {
					ARRAY_RESERVE(*fdes, cap, *count + 1);
					(*fdes)[(*count)++] = f;
				}
			}
		}
		off = entry_end;
	}
	if (*count)
		sort_by_address(*fdes, *count, sizeof(**fdes));
}
