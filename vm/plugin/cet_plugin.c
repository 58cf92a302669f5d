#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

/* elfcet's dynamic CET checker: a QEMU 7.2 TCG plugin for qemu-x86_64 / qemu-i386 that
 * emulates IBT and shadow-stack enforcement and reports each violation as a JSON line.
 *
 * Arguments (comma-separated after the plugin path, key=value):
 *   out=FILE      append JSON lines to FILE (required)
 *   ibt=on|off    check indirect-branch targets      shstk=on|off  check returns
 *   abort=on|off  stop the guest with SIGSEGV at the first violation, like a real fault
 *   verify=PATH   also check branches INTO this file although it is not marked IBT (repeatable)
 *
 * System mode (qemu-system-x86_64, one vCPU): only user-mode code (addresses below the
 * canonical hole) is checked, and only between two marker instructions the guest executes,
 * `nopl 0x43455431(%rax)` (begin: the next exec'd program) and `nopl 0x43455430(%rax)`
 * (end). There is no thread identity, no object map and no syscall view there: one shadow
 * stack for whatever user code runs in the window, IBT checked on every user target, and
 * signal handlers recognised only by their return to a restorer stub. See README.md.
 *
 * Cost model: every translation block gets one callback (it learns where the last transfer
 * went); only CALL/RET/indirect branches get a second one, and only for the features on. */
#include "cet_state.h"
#include "insn_class.h"
#include "object_map.h"
#include "object_marking.h"
#include "qemu_plugin_api.h"
#include "violation_log.h"

#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

ELFCET_PLUGIN_EXPORT int qemu_plugin_version = 1;

#define MAX_THREADS 4096
#define MAX_HANDLERS 128
#define SA_RESTORER_FLAG 0x04000000u

static bool opt_ibt, opt_shstk, opt_abort;
static bool bits64;
static bool system_mode;
static volatile bool window_open; /* system mode: between the begin and end markers */
/* System mode: kernel blocks executed (an inline add, no call), so that a transfer whose
 * target runs only after the kernel did (interrupt, page fault) can be counted. */
static uint64_t kernel_blocks, kernel_blocks_at_branch, window_interrupted;

#define USER_TOP 0x0000800000000000ULL
#define MARKER_BEGIN 0x43455431u
#define MARKER_END 0x43455430u
static bool base_known;
static uint64_t guest_base;

static struct cet_thread *threads[MAX_THREADS];
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t retired_calls, retired_rets, retired_tracked; /* of reset threads */

/* Signal handlers registered with rt_sigaction, and the restorer their frame returns to. */
static struct {
	uint64_t handler, restorer;
} handlers[MAX_HANDLERS];
static size_t n_handlers;
static pthread_mutex_t handlers_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned handlers_gen = 1;

struct block_info {
	struct cet_block blk;
	unsigned handlers_gen; /* is_handler was computed for this generation of the table */
	bool is_handler;
	uint64_t restorer;
	bool closes_window; /* holds the end marker: the runner's code, never the program's */
};

struct branch_info {
	uint64_t src, ret_addr, target;
	enum cet_pending kind;
	bool is_call;
};

static bool report(const struct violation *v)
{
	bool fresh = violation_log_report(v);
	if (opt_abort) {
		char line[160];
		/* The wire format reads as one JSON object: kept as written. */
		/* clang-format off */
		snprintf(line, sizeof(line),
			 "{" WIRE_KEY(WIRE_EVENT) "\"" WIRE_EV_ABORT "\"," WIRE_KEY(WIRE_PID) "%ld,"
			 WIRE_KEY(WIRE_KIND) "\"%s\"}",
			 (long)getpid(), violation_kind_name(v->kind));
		/* clang-format on */
		violation_log_line(line);
		/* Die as a control-protection fault would: SIGSEGV, without QEMU's own handler. */
		struct rlimit no_core = { 0, 0 };
		setrlimit(RLIMIT_CORE, &no_core);
		signal(SIGSEGV, SIG_DFL);
		kill(getpid(), SIGSEGV);
		_exit(128 + SIGSEGV);
	}
	return fresh;
}

static struct cet_thread *thread_of(unsigned int vcpu)
{
	return vcpu < MAX_THREADS ? threads[vcpu] : NULL;
}

static void lookup_handler(struct block_info *b)
{
	pthread_mutex_lock(&handlers_lock);
	b->is_handler = false;
	for (size_t i = 0; i < n_handlers; i++) {
		if (handlers[i].handler == b->blk.pc) {
			b->is_handler = true;
			b->restorer = handlers[i].restorer;
		}
	}
	b->handlers_gen = handlers_gen;
	pthread_mutex_unlock(&handlers_lock);
}

static void on_block(unsigned int vcpu, void *udata)
{
	struct block_info *b = udata;
	struct cet_thread *t = thread_of(vcpu);
	if (!t || (system_mode && !window_open))
		return;
	if (b->handlers_gen != handlers_gen)
		lookup_handler(b);
	if (system_mode && (t->pending == PENDING_TRACKED || t->pending == PENDING_RET) &&
	    kernel_blocks != kernel_blocks_at_branch)
		window_interrupted++;
	if (b->closes_window) {
		/* The program is gone (it died, say on a jump to an unmapped target, which
		 * faults with #PF before any #CP): what it left pending is no transfer. */
		t->pending = PENDING_NONE;
		t->pushed = false;
		return;
	}
	if (b->is_handler && cet_is_signal_entry(t, b->blk.pc)) {
		cet_signal_enter(t, b->restorer);
		return;
	}
	if (t->pending != PENDING_NONE)
		cet_arrive(t, &b->blk, report);
}

static void on_branch(unsigned int vcpu, void *udata)
{
	const struct branch_info *br = udata;
	struct cet_thread *t = thread_of(vcpu);
	if (!t || (system_mode && !window_open))
		return;
	if (br->is_call)
		cet_call(t, br->src, br->ret_addr);
	cet_branch(t, br->kind, br->src, br->target);
	kernel_blocks_at_branch = kernel_blocks;
}

/* System mode: the guest's marker opens or closes the checking window. */
static void on_marker(unsigned int vcpu, void *udata)
{
	bool open = udata != NULL;
	struct cet_thread *t = thread_of(vcpu);
	char line[128];

	if (open && t) {
		/* The program exec'd next starts afresh; its predecessors' counts are kept. */
		pthread_mutex_lock(&threads_lock);
		retired_calls += t->calls, retired_rets += t->rets, retired_tracked += t->tracked;
		cet_thread_reset(t, opt_ibt, opt_shstk);
		pthread_mutex_unlock(&threads_lock);
	}
	window_open = open;
	if (open) {
		window_interrupted = 0;
		/* The wire format reads as one JSON object: kept as written. */
		/* clang-format off */
		snprintf(line, sizeof(line), "{" WIRE_KEY(WIRE_EVENT) "\"" WIRE_EV_WINDOW "\","
			 WIRE_KEY(WIRE_OPEN) "true}");
		/* clang-format on */
	} else {
		/* The wire format reads as one JSON object: kept as written. */
		/* clang-format off */
		snprintf(line, sizeof(line),
			 "{" WIRE_KEY(WIRE_EVENT) "\"" WIRE_EV_WINDOW "\"," WIRE_KEY(WIRE_OPEN) "false,"
			 WIRE_KEY(WIRE_INTERRUPTED) "%" PRIu64 "}",
			 window_interrupted);
		/* clang-format on */
	}
	violation_log_line(line);
}

/* nopl disp32(%rax) = 0F 1F 80 disp32 with the marker's displacement. */
static int marker_of(const uint8_t *bytes, size_t size)
{
	uint32_t disp;

	if (size != 7 || bytes[0] != 0x0f || bytes[1] != 0x1f || bytes[2] != 0x80)
		return -1;
	memcpy(&disp, bytes + 3, 4);
	return disp == MARKER_BEGIN ? 1 : disp == MARKER_END ? 0 : -1;
}

/* glibc's __restore_rt: mov $15,%rax; syscall (rt_sigreturn). */
static bool is_sigreturn_stub(const uint8_t *bytes, size_t size)
{
	static const uint8_t stub[] = { 0x48, 0xc7, 0xc0, 0x0f, 0x00, 0x00, 0x00 };
	return size == sizeof(stub) && memcmp(bytes, stub, sizeof(stub)) == 0;
}

/* Decide which callback, if any, the instruction needs with the features that are on. */
static void instrument_insn(struct qemu_plugin_insn *insn)
{
	const uint8_t *bytes = qemu_plugin_insn_data(insn);
	size_t size = qemu_plugin_insn_size(insn);
	uint64_t pc = qemu_plugin_insn_vaddr(insn);
	struct insn_class c = insn_classify(bytes, size, bits64);
	struct branch_info br = { pc, pc + size, 0, PENDING_NONE, false };

	switch (c.kind) {
	case INSN_CALL_DIRECT:
		if (!opt_shstk)
			return;
		br.is_call = true;
		br.kind = PENDING_DIRECT_CALL;
		if (size >= 5) {
			int32_t rel;
			memcpy(&rel, bytes + size - 4, 4);
			br.target = pc + size + (uint64_t)(int64_t)rel;
			if (!bits64)
				br.target &= 0xffffffffu;
		}
		break;
	case INSN_CALL_INDIRECT:
	case INSN_JMP_INDIRECT:
		br.is_call = c.kind == INSN_CALL_INDIRECT;
		if (!opt_ibt && !(br.is_call && opt_shstk))
			return;
		br.kind = c.notrack ? PENDING_UNTRACKED : PENDING_TRACKED;
		break;
	case INSN_RET:
		if (!opt_shstk)
			return;
		br.kind = PENDING_RET;
		break;
	default:
		return;
	}
	if (!bits64)
		br.ret_addr &= 0xffffffffu;
	struct branch_info *copy = malloc(sizeof(*copy));
	if (!copy)
		return;
	*copy = br;
	qemu_plugin_register_vcpu_insn_exec_cb(insn, on_branch, QEMU_PLUGIN_CB_NO_REGS, copy);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	size_t n = qemu_plugin_tb_n_insns(tb);
	if (n == 0)
		return;
	struct qemu_plugin_insn *first = qemu_plugin_tb_get_insn(tb, 0);
	if (system_mode && qemu_plugin_tb_vaddr(tb) >= USER_TOP) {
		/* Kernel code is never checked: only counted, inline. */
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &kernel_blocks, 1);
		return;
	}
	if (!system_mode && !base_known) {
		/* User mode maps guest memory at a fixed offset: host = guest + base. */
		guest_base = (uint64_t)(uintptr_t)qemu_plugin_insn_haddr(first) -
			     qemu_plugin_insn_vaddr(first);
		object_map_init(guest_base);
		base_known = true;
	}

	struct block_info *b = calloc(1, sizeof(*b));
	if (!b)
		return;
	b->blk.pc = qemu_plugin_tb_vaddr(tb);
	struct insn_class c =
		insn_classify(qemu_plugin_insn_data(first), qemu_plugin_insn_size(first), bits64);
	b->blk.starts_with_endbr = c.kind == (bits64 ? INSN_ENDBR64 : INSN_ENDBR32);
	if (system_mode) {
		b->blk.ibt_in_scope = true;
		b->blk.sigreturn_stub = is_sigreturn_stub(qemu_plugin_insn_data(first),
							  qemu_plugin_insn_size(first));
	} else if (opt_ibt && !b->blk.starts_with_endbr) {
		struct object_ref ref = object_map_lookup(b->blk.pc);
		b->blk.ibt_in_scope = ref.path && ((ref.marking & MARK_IBT) || ref.verified);
	}
	lookup_handler(b);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, b);

	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		if (system_mode) {
			int m = marker_of(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));
			if (m == 0)
				b->closes_window = true;
			if (m >= 0)
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker,
								       QEMU_PLUGIN_CB_NO_REGS,
								       m ? (void *)1 : NULL);
		}
		instrument_insn(insn);
	}
}

static void on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	(void)id;
	if (vcpu >= MAX_THREADS)
		return;
	pthread_mutex_lock(&threads_lock);
	struct cet_thread *t = threads[vcpu];
	if (!t)
		t = calloc(1, sizeof(*t));
	if (t) {
		/* A new guest thread reusing a vCPU index starts with an empty shadow stack. */
		retired_calls += t->calls, retired_rets += t->rets, retired_tracked += t->tracked;
		cet_thread_reset(t, opt_ibt, opt_shstk);
	}
	threads[vcpu] = t;
	pthread_mutex_unlock(&threads_lock);
}

/* Copy guest memory without trusting the pointer: a bad one just fails. */
static bool read_guest(uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len };
	struct iovec remote = { (void *)(uintptr_t)(addr + guest_base), len };
	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)len;
}

static void note_sigaction(uint64_t act)
{
	uint64_t handler, flags, restorer;
	if (bits64) {
		uint64_t k[3];
		if (act == 0 || !read_guest(act, k, sizeof(k)))
			return;
		handler = k[0], flags = k[1], restorer = k[2];
	} else {
		uint32_t k[3];
		if (act == 0 || !read_guest(act, k, sizeof(k)))
			return;
		handler = k[0], flags = k[1], restorer = k[2];
	}
	if (handler <= 1) /* SIG_DFL, SIG_IGN */
		return;
	if (!(flags & SA_RESTORER_FLAG))
		restorer = CET_ANY_RETURN;
	pthread_mutex_lock(&handlers_lock);
	size_t i = 0;
	while (i < n_handlers && handlers[i].handler != handler)
		i++;
	if (i < MAX_HANDLERS) {
		handlers[i].handler = handler;
		handlers[i].restorer = restorer;
		if (i == n_handlers)
			n_handlers++;
		handlers_gen++;
	}
	pthread_mutex_unlock(&handlers_lock);
}

static void note_exec(uint64_t path_addr)
{
	char path[4096] = ""; /* PATH_MAX: the kernel takes no longer path */
	for (size_t i = 0; i + 1 < sizeof(path); i++) {
		if (!read_guest(path_addr + i, path + i, 1) || path[i] == '\0')
			break;
	}
	/* every byte of the path escaped (6 for a control byte), the record around it */
	char line[sizeof(path) * 6 + 64];
	/* The wire format reads as one JSON object: kept as written. */
	/* clang-format off */
	size_t len = (size_t)snprintf(line, sizeof(line), "{" WIRE_KEY(WIRE_EVENT) "\"" WIRE_EV_EXEC "\","
				      WIRE_KEY(WIRE_PID) "%ld," WIRE_KEY(WIRE_PATH) "\"",
				      (long)getpid());
	/* clang-format on */
	len = violation_log_escape(line, sizeof(line), len, path);
	snprintf(line + len, sizeof(line) - len, "\"}");
	violation_log_line(line);
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num, uint64_t a1,
		       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
		       uint64_t a8)
{
	(void)id, (void)a1, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7, (void)a8;
	struct cet_thread *t = thread_of(vcpu);
	if (bits64) {
		switch (num) {
		case 13: /* rt_sigaction */
			note_sigaction(a2);
			break;
		case 15: /* rt_sigreturn */
			if (t)
				cet_sigreturn(t);
			break;
		case 9:
		case 11:
		case 25: /* mmap, munmap, mremap */
			object_map_invalidate();
			break;
		case 59: /* execve */
			note_exec(a1);
			break;
		}
	} else {
		switch (num) {
		case 174: /* rt_sigaction */
			note_sigaction(a2);
			break;
		case 173:
		case 119: /* rt_sigreturn, sigreturn */
			if (t)
				cet_sigreturn(t);
			break;
		case 90:
		case 192:
		case 91:
		case 163: /* mmap, mmap2, munmap, mremap */
			object_map_invalidate();
			break;
		case 11: /* execve */
			note_exec(a1);
			break;
		}
	}
}

static void on_exit_guest(qemu_plugin_id_t id, void *udata)
{
	(void)id, (void)udata;
	uint64_t calls = retired_calls, rets = retired_rets, tracked = retired_tracked;
	for (size_t i = 0; i < MAX_THREADS; i++) {
		if (threads[i]) {
			calls += threads[i]->calls;
			rets += threads[i]->rets;
			tracked += threads[i]->tracked;
		}
	}
	uint64_t total[VIOL_KINDS], distinct[VIOL_KINDS];
	violation_log_counts(total, distinct);
	char line[512];
	/* The wire format reads as one JSON object: kept as written. */
	/* clang-format off */
	snprintf(line, sizeof(line),
		 "{" WIRE_KEY(WIRE_EVENT) "\"" WIRE_EV_SUMMARY "\"," WIRE_KEY(WIRE_PID) "%ld,"
		 WIRE_KEY(WIRE_CALLS) "%" PRIu64 "," WIRE_KEY(WIRE_RETURNS) "%" PRIu64 ","
		 WIRE_KEY(WIRE_TRACKED) "%" PRIu64 "," WIRE_KEY(WIRE_IBT) "%" PRIu64 ","
		 WIRE_KEY(WIRE_SHSTK) "%" PRIu64 "," WIRE_KEY(WIRE_SHSTK_UNWIND) "%" PRIu64 ","
		 WIRE_KEY(WIRE_IBT WIRE_DISTINCT) "%" PRIu64 ","
		 WIRE_KEY(WIRE_SHSTK WIRE_DISTINCT) "%" PRIu64 ","
		 WIRE_KEY(WIRE_SHSTK_UNWIND WIRE_DISTINCT) "%" PRIu64 "}",
		 (long)getpid(), calls, rets, tracked, total[VIOL_IBT], total[VIOL_SHSTK],
		 total[VIOL_SHSTK_UNWIND], distinct[VIOL_IBT], distinct[VIOL_SHSTK],
		 distinct[VIOL_SHSTK_UNWIND]);
	/* clang-format on */
	violation_log_line(line);
}

static int parse_switch(const char *arg, const char *key, bool *out)
{
	size_t klen = strlen(key);
	if (strncmp(arg, key, klen) != 0 || arg[klen] != '=')
		return 0;
	const char *v = arg + klen + 1;
	if (!strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1"))
		*out = true;
	else if (!strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0"))
		*out = false;
	else
		return -1;
	return 1;
}

static int fail(const char *msg, const char *arg)
{
	fprintf(stderr, "elfcet plugin: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	return -1;
}

ELFCET_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
					     char **argv)
{
	const char *out = NULL;
	system_mode = info->system_emulation;
	if (system_mode && info->system.smp_vcpus != 1)
		return fail("system mode needs exactly one vCPU (-smp 1): no thread identity",
			    NULL);
	if (!strcmp(info->target_name, "x86_64"))
		bits64 = true;
	else if (strcmp(info->target_name, "i386") != 0)
		return fail("guest is not x86", info->target_name);

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int r;
		if ((r = parse_switch(a, "ibt", &opt_ibt)) ||
		    (r = parse_switch(a, "shstk", &opt_shstk)) ||
		    (r = parse_switch(a, "abort", &opt_abort))) {
			if (r < 0)
				return fail("expected on or off", a);
		} else if (!strncmp(a, "out=", 4)) {
			out = a + 4;
		} else if (!strncmp(a, "verify=", 7)) {
			if (system_mode)
				return fail("verify= needs user mode (no object map in system mode)",
					    a);
			if (object_map_add_verified(a + 7) != 0)
				return fail("cannot stat file to verify", a + 7);
		} else {
			return fail("unknown argument", a);
		}
	}
	if (!out)
		return fail("missing out=FILE", NULL);
	if (violation_log_open(out) != 0)
		return fail("cannot open output file", out);

	char line[200];
	/* The wire format reads as one JSON object: kept as written. */
	/* clang-format off */
	snprintf(line, sizeof(line),
		 "{" WIRE_KEY(WIRE_EVENT) "\"" WIRE_EV_START "\"," WIRE_KEY(WIRE_PID) "%ld,"
		 WIRE_KEY(WIRE_TARGET) "\"%s\"," WIRE_KEY(WIRE_MODE) "\"%s\","
		 WIRE_KEY(WIRE_IBT) "%s," WIRE_KEY(WIRE_SHSTK) "%s}",
		 (long)getpid(), info->target_name, system_mode ? "system" : "user",
		 opt_ibt ? "true" : "false", opt_shstk ? "true" : "false");
	/* clang-format on */
	violation_log_line(line);

	violation_log_name_objects(!system_mode);
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
	if (opt_ibt || opt_shstk) {
		qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
		if (!system_mode)
			qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
	}
	qemu_plugin_register_atexit_cb(id, on_exit_guest, NULL);
	return 0;
}
