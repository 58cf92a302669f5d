/* C++ landing pads: libgcc's unwinder installs the context of a landing pad and reaches
 * it with a tracked jmp *%rcx, so each needs ENDBR. They are listed in each function's
 * LSDA in .gcc_except_table, which the function's FDE points at. */
#include "config.h"

#include "code/targets.h"

#include "code/eh_frame.h"

static void lsda_landing_pads(struct code_ctx *c, const struct fde_info *f)
{
	uint64_t off, avail, lpstart, table_len;
	struct dw_cursor cur;
	uint8_t enc, cs_enc;
	const unsigned char *end;

	if (!elf_model_vaddr_to_offset(c->m, f->lsda, &off, &avail))
		return;
	cur = (struct dw_cursor){ c->m->data + off, c->m->data + off + avail, f->lsda, c->word,
				  false };
	enc = dw_u8(&cur);
	lpstart = enc == DW_EH_PE_omit ? f->start : dw_pointer(&cur, enc);
	enc = dw_u8(&cur);
	if (enc != DW_EH_PE_omit)
		dw_uleb(&cur); /* type table offset */
	cs_enc = dw_u8(&cur);
	table_len = dw_uleb(&cur);
	if (cur.bad || table_len > (uint64_t)(cur.end - cur.p))
		return;
	end = cur.p + table_len;
	cur.end = end;
	while (cur.p < end && !cur.bad) {
		uint64_t lp;

		dw_pointer(&cur, cs_enc & 0x0f); /* call-site start, relative to the function */
		dw_pointer(&cur, cs_enc & 0x0f); /* its length */
		lp = dw_pointer(&cur, cs_enc & 0x0f);
		dw_uleb(&cur); /* action */
		if (!cur.bad && lp && code_range_of(c, lpstart + lp))
			code_add_target(c, lpstart + lp, VIA_LANDING_PAD, f->start);
	}
}

void targets_landing_pads(struct code_ctx *c)
{
	size_t i;

	for (i = 0; i < c->nfdes; i++)
		if (c->fdes[i].lsda)
			lsda_landing_pads(c, &c->fdes[i]);
}
