/* The ELF model: mapping, header checks, program headers, interpreter and dynamic tags. */
#include "config.h"

#include "elf/elf_model.h"

#include "elf/elf_header.h"
#include "util/byteorder.h"
#include "util/sort_address.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_once_t libelf_once = PTHREAD_ONCE_INIT;

static void libelf_init(void)
{
	elf_version(EV_CURRENT);
}

/* Status ST, with ERR saying why. */
static enum elf_open_status fail(struct elfcet_error *err, enum elf_open_status st, const char *fmt,
				 ...) __attribute__((format(printf, 3, 4)));

static enum elf_open_status fail(struct elfcet_error *err, enum elf_open_status st, const char *fmt,
				 ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_setv(err, fmt, ap);
	va_end(ap);
	return st;
}

static const char *elf_type_problem(uint16_t e_type)
{
	switch (e_type) {
	case ET_REL:
		return "relocatable object (not linked): skipped";
	case ET_CORE:
		return "core dump: skipped";
	case ET_EXEC:
	case ET_DYN:
		return NULL;
	default:
		return "unknown ELF type: skipped";
	}
}

/* Reads the interpreter path of PT_INTERP, which must be NUL-terminated inside the file. */
static const char *read_interp(const struct elf_model *m, const GElf_Phdr *ph)
{
	const unsigned char *p;

	if (ph->p_filesz == 0)
		return NULL;
	p = elf_model_file_bytes(m, ph->p_offset, ph->p_filesz);
	if (!p || memchr(p, '\0', ph->p_filesz) == NULL)
		return NULL;
	return (const char *)p;
}

static enum elf_kind classify(const struct elf_model *m)
{
	uint64_t flags1 = 0;

	if (m->e_type == ET_EXEC)
		return m->interp ? ELF_KIND_EXEC : ELF_KIND_STATIC;
	if (m->interp)
		return ELF_KIND_PIE;
	if (elf_model_dynamic_value(m, DT_FLAGS_1, &flags1) && (flags1 & DF_1_PIE))
		return ELF_KIND_STATIC_PIE;
	return ELF_KIND_SHARED;
}

/* Reads the section headers once, so that the analyses look sections up instead of
 * each walking the table through libelf. False only when out of memory. */
static bool index_sections(struct elf_model *m)
{
	Elf_Scn *scn = NULL;

	/* Never NULL, even without sections: the analyses walk it as an empty array. */
	m->sections = calloc(m->shnum ? m->shnum : 1, sizeof(*m->sections));
	if (!m->sections)
		return false;
	if (m->shnum == 0)
		return true;
	while ((scn = elf_nextscn(m->elf, scn)) != NULL && m->nsections < m->shnum) {
		struct elf_section *sec = &m->sections[m->nsections];

		if (!gelf_getshdr(scn, &sec->sh))
			continue;
		sec->scn = scn;
		sec->name = elf_strptr(m->elf, m->shstrndx, sec->sh.sh_name);
		sec->index = elf_ndxscn(scn);
		sec->header_offset = m->shoff + (uint64_t)sec->index * m->shentsize;
		m->nsections++;
	}
	return true;
}

/* Entries in the symbol table SEC, as libelf reads them. */
static size_t symbol_count(const struct elf_section *sec, Elf_Data **data)
{
	if ((sec->sh.sh_type != SHT_SYMTAB && sec->sh.sh_type != SHT_DYNSYM) || !sec->sh.sh_entsize)
		return 0;
	*data = elf_getdata(sec->scn, NULL);
	return *data ? sec->sh.sh_size / sec->sh.sh_entsize : 0;
}

/* Decodes every symbol table once, in table order, and a copy sorted by address for the
 * lookups. False only when out of memory. */
static bool index_symbols(struct elf_model *m)
{
	const struct elf_section *sec;
	size_t total = 0, i, n;
	Elf_Data *data;

	for (sec = m->sections; sec < m->sections + m->nsections; sec++)
		if ((n = symbol_count(sec, &data)) > 1)
			total += n - 1;
	m->symbols = malloc((total ? total : 1) * sizeof(*m->symbols));
	m->symbols_by_addr = malloc((total ? total : 1) * sizeof(*m->symbols_by_addr));
	if (!m->symbols || !m->symbols_by_addr)
		return false;
	for (sec = m->sections; sec < m->sections + m->nsections; sec++) {
		n = symbol_count(sec, &data);
		/* Entry 0 is the null symbol. */
		for (i = 1; i < n && m->nsymbols < total; i++) {
			struct elf_symbol *s = &m->symbols[m->nsymbols];
			GElf_Sym sym;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			*s = (struct elf_symbol){
				.value = sym.st_value,
				.size = sym.st_size,
				.name = elf_strptr(m->elf, sec->sh.sh_link, sym.st_name),
				.table = sec,
				.index = (uint32_t)i,
				.shndx = sym.st_shndx,
				.type = GELF_ST_TYPE(sym.st_info),
				.bind = GELF_ST_BIND(sym.st_info),
				.visibility = GELF_ST_VISIBILITY(sym.st_other),
			};
			m->nsymbols++;
		}
	}
	memcpy(m->symbols_by_addr, m->symbols, m->nsymbols * sizeof(*m->symbols));
	sort_by_address(m->symbols_by_addr, m->nsymbols, sizeof(*m->symbols_by_addr));
	return true;
}

const struct elf_section *elf_model_section_named(const struct elf_model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nsections; i++)
		if (m->sections[i].name && strcmp(m->sections[i].name, name) == 0)
			return &m->sections[i];
	return NULL;
}

const struct elf_section *elf_model_next_section(const struct elf_model *m,
						 const struct elf_section *prev, uint32_t type)
{
	const struct elf_section *sec = prev ? prev + 1 : m->sections;

	for (; sec < m->sections + m->nsections; sec++)
		if (sec->sh.sh_type == type)
			return sec;
	return NULL;
}

const struct elf_section *elf_model_section_at(const struct elf_model *m, uint64_t addr,
					       const struct elf_section *prev)
{
	const struct elf_section *sec = prev ? prev + 1 : m->sections;

	for (; sec < m->sections + m->nsections; sec++)
		if ((sec->sh.sh_flags & SHF_ALLOC) && addr >= sec->sh.sh_addr &&
		    addr - sec->sh.sh_addr < sec->sh.sh_size)
			return sec;
	return NULL;
}

const struct elf_section *elf_model_section_by_index(const struct elf_model *m, size_t ndx)
{
	size_t i;

	/* Sections are in index order: a readable table puts NDX at NDX - 1. */
	if (ndx >= 1 && ndx - 1 < m->nsections && m->sections[ndx - 1].index == ndx)
		return &m->sections[ndx - 1];
	for (i = 0; i < m->nsections; i++)
		if (m->sections[i].index == ndx)
			return &m->sections[i];
	return NULL;
}

/* Orders entries by tag, then by place in the table, so that a search finds a tag's
 * first entry as a walk of the table would. */
static int compare_dynamic(const void *a, const void *b)
{
	const struct elf_dynamic_entry *x = a, *y = b;

	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	return x->value_at < y->value_at ? -1 : x->value_at > y->value_at;
}

/* Decodes the first PT_DYNAMIC's entries up to DT_NULL once, as far as the file holds
 * them. False only when out of memory. */
static bool index_dynamic(struct elf_model *m)
{
	const GElf_Phdr *dyn = elf_model_find_phdr(m, PT_DYNAMIC);
	bool is64 = m->elf_class == ELFCLASS64;
	uint64_t entry = is64 ? 16 : 8, n = 0, i;
	const unsigned char *p = NULL;

	if (dyn) {
		p = elf_model_file_bytes(m, dyn->p_offset, dyn->p_filesz);
		n = p ? dyn->p_filesz / entry : 0;
	}
	m->dynamic = malloc((n ? n : 1) * sizeof(*m->dynamic));
	m->dynamic_by_tag = malloc((n ? n : 1) * sizeof(*m->dynamic_by_tag));
	if (!m->dynamic || !m->dynamic_by_tag)
		return false;
	for (i = 0; i < n; i++) {
		struct elf_dynamic_entry *e = &m->dynamic[m->ndynamic];

		elf_dyn_decode(p + i * entry, is64, &e->tag, &e->value);
		if (e->tag == DT_NULL)
			break;
		e->value_at = dyn->p_offset + i * entry + entry / 2;
		m->ndynamic++;
	}
	memcpy(m->dynamic_by_tag, m->dynamic, m->ndynamic * sizeof(*m->dynamic));
	qsort(m->dynamic_by_tag, m->ndynamic, sizeof(*m->dynamic_by_tag), compare_dynamic);
	return true;
}

static void free_index(struct elf_model *m)
{
	free(m->phdrs);
	free(m->sections);
	free(m->symbols);
	free(m->symbols_by_addr);
	free(m->dynamic);
	free(m->dynamic_by_tag);
	m->phdrs = NULL;
	m->sections = NULL;
	m->symbols = NULL;
	m->symbols_by_addr = NULL;
	m->dynamic = NULL;
	m->dynamic_by_tag = NULL;
}

static enum elf_open_status load_headers(struct elf_model *m, struct elfcet_error *err)
{
	GElf_Ehdr eh;
	const char *why;
	size_t i;

	if (elf_kind(m->elf) != ELF_K_ELF)
		return fail(err, ELF_OPEN_ERROR, "damaged ELF header");
	if (!gelf_getehdr(m->elf, &eh))
		return fail(err, ELF_OPEN_ERROR, "damaged ELF header: %s", elf_errmsg(-1));
	m->elf_class = gelf_getclass(m->elf);
	m->machine = eh.e_machine;
	m->e_type = eh.e_type;
	m->entry = eh.e_entry;
	m->phoff = eh.e_phoff;
	m->shoff = eh.e_shoff;
	m->phentsize = eh.e_phentsize;
	m->shentsize = eh.e_shentsize;
	if (eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return fail(err, ELF_OPEN_SKIPPED, "big-endian ELF: not x86, skipped");
	if (!(m->elf_class == ELFCLASS64 && m->machine == EM_X86_64) &&
	    !(m->elf_class == ELFCLASS32 && m->machine == EM_386)) {
		if (m->elf_class == ELFCLASS32 && m->machine == EM_X86_64)
			return fail(err, ELF_OPEN_SKIPPED, "x32 ABI: skipped");
		return fail(err, ELF_OPEN_SKIPPED, "machine %s (%u), ELFCLASS%d: not x86, skipped",
			    elf_machine_name(m->machine), m->machine,
			    m->elf_class == ELFCLASS64 ? 64 : 32);
	}
	why = elf_type_problem(m->e_type);
	if (why)
		return fail(err, ELF_OPEN_SKIPPED, "%s", why);

	if (elf_getphdrnum(m->elf, &m->phnum) != 0)
		return fail(err, ELF_OPEN_ERROR, "damaged program header table: %s",
			    elf_errmsg(-1));
	if (m->phnum) {
		m->phdrs = calloc(m->phnum, sizeof(*m->phdrs));
		if (!m->phdrs)
			return fail(err, ELF_OPEN_ERROR, "out of memory");
	}
	for (i = 0; i < m->phnum; i++) {
		if (!gelf_getphdr(m->elf, (int)i, &m->phdrs[i]))
			return fail(err, ELF_OPEN_ERROR,
				    "program header table lies outside the file");
	}
	/* A damaged section header table is reported by the analyses that need it;
	 * the program headers are what the kernel and the loader use. */
	if (elf_getshdrnum(m->elf, &m->shnum) != 0 || elf_getshdrstrndx(m->elf, &m->shstrndx) != 0)
		m->shnum = 0;
	if (!index_sections(m) || !index_symbols(m) || !index_dynamic(m))
		return fail(err, ELF_OPEN_ERROR, "out of memory");

	for (i = 0; i < m->phnum; i++) {
		if (m->phdrs[i].p_type == PT_INTERP && !m->interp)
			m->interp = read_interp(m, &m->phdrs[i]);
		if (m->phdrs[i].p_type == PT_DYNAMIC)
			m->has_dynamic = true;
	}
	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		/* A segment with no file bytes reads nothing (a separate debug file's
		 * segments point past its end). */
		if (ph->p_type == PT_LOAD && ph->p_filesz &&
		    (ph->p_offset > m->size || ph->p_filesz > m->size - ph->p_offset))
			return fail(err, ELF_OPEN_ERROR,
				    "truncated: segment %zu (PT_LOAD at offset 0x%llx, 0x%llx "
				    "bytes) runs past the end of the file (%zu bytes)",
				    i, (unsigned long long)ph->p_offset,
				    (unsigned long long)ph->p_filesz, m->size);
	}
	m->kind = classify(m);
	return ELF_OPEN_OK;
}

/* Checks what libelf cannot: the class byte and a whole ELF header; then the headers. */
static enum elf_open_status open_image(struct elf_model *m, struct elfcet_error *err)
{
	enum elf_open_status st;

	if (!m->data || m->size < EI_NIDENT)
		return fail(err, ELF_OPEN_ERROR, "truncated ELF header");
	if (m->data[EI_CLASS] != ELFCLASS32 && m->data[EI_CLASS] != ELFCLASS64)
		return fail(err, ELF_OPEN_ERROR, "bad ELF class byte %u", m->data[EI_CLASS]);
	if (m->size < (m->data[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return fail(err, ELF_OPEN_ERROR, "truncated ELF header (%zu bytes)", m->size);
	st = load_headers(m, err);
	if (st != ELF_OPEN_OK)
		free_index(m);
	return st;
}

/* Opens PATH without blocking (a FIFO or a device must not hang the audit) and keeps
 * only regular files that start with the ELF magic. */
static enum elf_open_status open_regular(const char *path, int *fdp, struct stat *sb,
					 struct elfcet_error *err)
{
	unsigned char magic[EI_CLASS + 1];
	enum elf_open_status st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return fail(err, ELF_OPEN_ERROR, "cannot open: %s", strerror(errno));
	if (fstat(fd, sb) != 0) {
		st = fail(err, ELF_OPEN_ERROR, "cannot stat: %s", strerror(errno));
		goto out_close;
	}
	if (S_ISDIR(sb->st_mode)) {
		st = fail(err, ELF_OPEN_ERROR, "is a directory");
		goto out_close;
	}
	if (!S_ISREG(sb->st_mode)) {
		st = fail(err, ELF_OPEN_NOT_ELF, "not a regular file");
		goto out_close;
	}
	/* Looking at the magic first keeps non-ELF files (scripts, data) cheap. */
	n = pread(fd, magic, sizeof(magic), 0);
	if (n < 0) {
		st = fail(err, ELF_OPEN_ERROR, "cannot read: %s", strerror(errno));
		goto out_close;
	}
	if (n < SELFMAG || memcmp(magic, ELFMAG, SELFMAG) != 0) {
		st = fail(err, ELF_OPEN_NOT_ELF, "not an ELF file");
		goto out_close;
	}
	if (n < (ssize_t)sizeof(magic) ||
	    (uint64_t)sb->st_size <
		    (magic[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr))) {
		st = fail(err, ELF_OPEN_ERROR, "truncated ELF header (%lld bytes)",
			  (long long)sb->st_size);
		goto out_close;
	}
	*fdp = fd;
	return ELF_OPEN_OK;
out_close:
	close(fd);
	return st;
}

enum elf_open_status elf_model_open(struct elf_model *m, const char *path, struct elfcet_error *err)
{
	enum elf_open_status st;
	struct stat sb;
	int fd;

	pthread_once(&libelf_once, libelf_init);
	memset(m, 0, sizeof(*m));
	m->path = path;
	st = open_regular(path, &fd, &sb, err);
	if (st != ELF_OPEN_OK) {
		memset(m, 0, sizeof(*m));
		return st;
	}
	m->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!m->elf) {
		close(fd);
		return fail(err, ELF_OPEN_ERROR, "cannot map: %s", elf_errmsg(-1));
	}
	m->data = (const unsigned char *)elf_rawfile(m->elf, &m->size);
	st = open_image(m, err);
	/* libelf's mapping stays valid without the descriptor. */
	close(fd);
	if (st != ELF_OPEN_OK) {
		elf_end(m->elf);
		memset(m, 0, sizeof(*m));
	}
	return st;
}

enum elf_open_status elf_model_open_memory(struct elf_model *m, const char *name,
					   const unsigned char *data, size_t size,
					   struct elfcet_error *err)
{
	enum elf_open_status st;

	pthread_once(&libelf_once, libelf_init);
	memset(m, 0, sizeof(*m));
	m->path = name;
	if (size < SELFMAG || memcmp(data, ELFMAG, SELFMAG) != 0)
		return fail(err, ELF_OPEN_NOT_ELF, "not an ELF file");
	/* libelf only reads the image (ELF_C_READ): the cast drops no promise. */
	m->elf = elf_memory((char *)data, size);
	if (!m->elf)
		return fail(err, ELF_OPEN_ERROR, "cannot read: %s", elf_errmsg(-1));
	m->data = data;
	m->size = size;
	st = open_image(m, err);
	if (st != ELF_OPEN_OK) {
		elf_end(m->elf);
		memset(m, 0, sizeof(*m));
	}
	return st;
}

enum elf_open_status elf_model_open_copy(struct elf_model *m, const char *path,
					 struct elfcet_error *err)
{
	enum elf_open_status st;
	unsigned char *copy;
	struct stat sb;
	size_t got = 0;
	int fd;

	pthread_once(&libelf_once, libelf_init);
	memset(m, 0, sizeof(*m));
	st = open_regular(path, &fd, &sb, err);
	if (st != ELF_OPEN_OK)
		return st;
	copy = malloc(sb.st_size ? (size_t)sb.st_size : 1);
	if (!copy) {
		close(fd);
		return fail(err, ELF_OPEN_ERROR, "out of memory for %lld bytes",
			    (long long)sb.st_size);
	}
	/* A file cut short by another process while it is read is an error, not a signal. */
	while (got < (size_t)sb.st_size) {
		ssize_t n = pread(fd, copy + got, (size_t)sb.st_size - got, (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			st = n < 0 ? fail(err, ELF_OPEN_ERROR, "cannot read: %s", strerror(errno))
				   : fail(err, ELF_OPEN_ERROR,
					  "the file shrank while "
					  "being read (%zu of %lld bytes)",
					  got, (long long)sb.st_size);
			close(fd);
			free(copy);
			return st;
		}
		got += (size_t)n;
	}
	close(fd);
	st = elf_model_open_memory(m, path, copy, got, err);
	if (st != ELF_OPEN_OK) {
		free(copy);
		return st;
	}
	m->owned = copy;
	return ELF_OPEN_OK;
}

void elf_model_close(struct elf_model *m)
{
	free_index(m);
	if (m->elf)
		elf_end(m->elf);
	free(m->owned);
	memset(m, 0, sizeof(*m));
}

const unsigned char *elf_model_file_bytes(const struct elf_model *m, uint64_t off, uint64_t len)
{
	if (off > m->size || len > m->size - off)
		return NULL;
	return m->data + off;
}

bool elf_model_vaddr_to_offset(const struct elf_model *m, uint64_t vaddr, uint64_t *off,
			       uint64_t *avail)
{
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_type != PT_LOAD || vaddr < ph->p_vaddr ||
		    vaddr - ph->p_vaddr >= ph->p_filesz)
			continue;
		if (ph->p_offset > m->size)
			return false;
		*off = ph->p_offset + (vaddr - ph->p_vaddr);
		if (*off >= m->size)
			return false;
		*avail = ph->p_filesz - (vaddr - ph->p_vaddr);
		if (*avail > m->size - *off)
			*avail = m->size - *off;
		return true;
	}
	return false;
}

const unsigned char *elf_model_vaddr_bytes(const struct elf_model *m, uint64_t vaddr, uint64_t len)
{
	uint64_t off, avail;

	if (!elf_model_vaddr_to_offset(m, vaddr, &off, &avail) || avail < len)
		return NULL;
	return m->data + off;
}

bool elf_model_vaddr_is_exec(const struct elf_model *m, uint64_t vaddr)
{
	size_t i;

	for (i = 0; i < m->phnum; i++) {
		const GElf_Phdr *ph = &m->phdrs[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && vaddr >= ph->p_vaddr &&
		    vaddr - ph->p_vaddr < ph->p_memsz)
			return true;
	}
	return false;
}

const GElf_Phdr *elf_model_find_phdr(const struct elf_model *m, uint32_t type)
{
	size_t i;

	for (i = 0; i < m->phnum; i++)
		if (m->phdrs[i].p_type == type)
			return &m->phdrs[i];
	return NULL;
}

bool elf_model_dynamic_next(const struct elf_model *m, size_t *i, int64_t *tag, uint64_t *value,
			    uint64_t *value_at)
{
	const struct elf_dynamic_entry *e;

	if (*i >= m->ndynamic)
		return false;
	e = &m->dynamic[(*i)++];
	*tag = e->tag;
	*value = e->value;
	if (value_at)
		*value_at = e->value_at;
	return true;
}

bool elf_model_dynamic_value(const struct elf_model *m, int64_t tag, uint64_t *value)
{
	size_t lo = 0, hi = m->ndynamic;

	/* The first entry whose tag is not below TAG. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->dynamic_by_tag[mid].tag < tag)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->ndynamic || m->dynamic_by_tag[lo].tag != tag)
		return false;
	*value = m->dynamic_by_tag[lo].value;
	return true;
}

const char *elf_kind_name(enum elf_kind kind)
{
	switch (kind) {
	case ELF_KIND_EXEC:
		return "exec";
	case ELF_KIND_STATIC:
		return "static";
	case ELF_KIND_PIE:
		return "pie";
	case ELF_KIND_STATIC_PIE:
		return "static-pie";
	case ELF_KIND_SHARED:
		return "shared";
	}
	return "unknown";
}

const char *elf_machine_name(uint16_t machine)
{
	switch (machine) {
	case EM_386:
		return "i386";
	case EM_X86_64:
		return "x86-64";
	case EM_AARCH64:
		return "aarch64";
	case EM_ARM:
		return "arm";
	case EM_RISCV:
		return "riscv";
	case EM_PPC64:
		return "ppc64";
	case EM_S390:
		return "s390";
	case EM_MIPS:
		return "mips";
	default:
		return "other";
	}
}
