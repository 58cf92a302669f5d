/* The code audit, in the order the evidence depends on itself: relocations first (the
 * others read relocated words), then every other source of targets, the code sweep,
 * the data scan (which must know the jump tables the sweep found), and last ENDBR at
 * every target. */
#include "config.h"

#include "code/code_audit.h"

#include "code/check_endbr.h"
#include "code/code_context.h"
#include "code/code_sweep.h"
#include "util/sort_address.h"
#include "code/targets.h"

void code_audit(const struct elf_model *m, const struct rule_set *rules, struct finding_list *out)
{
	struct code_ctx c;
	size_t first = out->count;

	code_ctx_init(&c, m, rules, out);
	targets_relocs(&c);
	targets_entry(&c);
	targets_exports(&c);
	targets_plt(&c);
	targets_landing_pads(&c);
	targets_returns_twice_prepare(&c);
	code_sweep(&c);
	targets_data_pointers(&c);
	check_endbr(&c);
	code_ctx_free(&c);
	/* Findings in address order, whatever check found them. */
	if (out->count > first)
		sort_by_address(out->items + first, out->count - first, sizeof(*out->items));
}
