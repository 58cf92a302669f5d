/* The part of QEMU 7.2's TCG plugin ABI (API version 1) this checker uses.
 *
 * Debian ships no qemu-plugin.h, so the few types and entry points are declared here from
 * the ABI that qemu-x86_64 / qemu-i386 7.2 export (nm -D shows the symbols).  Only what the
 * checker calls is declared; anything else would be an untested promise. */
#ifndef ELFCET_QEMU_PLUGIN_API_H
#define ELFCET_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ELFCET_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

/* What QEMU tells a plugin about the guest when it installs it. */
typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* Callback flags: the checker never touches guest registers. */
enum { QEMU_PLUGIN_CB_NO_REGS = 0 };

typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_syscall_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index,
					      int64_t num, uint64_t a1, uint64_t a2, uint64_t a3,
					      uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
					      uint64_t a8);

void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  int flags, void *userdata);
/* Inline operations: the only one in API version 1 adds imm to *ptr, without a call. */
enum { QEMU_PLUGIN_INLINE_ADD_U64 = 0 };
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, int op, void *ptr,
					      uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb, int flags,
					    void *userdata);
void qemu_plugin_register_vcpu_syscall_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_syscall_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void *qemu_plugin_insn_haddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);
bool qemu_plugin_bool_parse(const char *name, const char *val, bool *ret);

#endif
