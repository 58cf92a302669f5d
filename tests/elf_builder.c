/* Building small synthetic ELF files for unit tests. */
#include "config.h"

#include "elf_builder.h"

#include "util/byteorder.h"
#include "property/gnu_property.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VADDR_BASE 0x400000u
#define INTERP "/lib/ld-test.so"

static size_t round_to(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

/* Serialises NOTE at OUT (which has room) and returns its padded size. */
static size_t put_note(unsigned char *out, const struct test_note *n, unsigned align)
{
	const char *name = n->name ? n->name : NOTE_NAME_GNU;
	uint32_t namesz = n->namesz ? n->namesz : 4;
	size_t desc_at = round_to(12 + namesz, align), off, i;
	size_t descsz = 0;

	for (i = 0; i < n->count; i++)
		descsz += 8 + round_to(n->props[i].datasz, align);
	store_le32(out, namesz);
	store_le32(out + 4, n->descsz >= 0 ? (uint32_t)n->descsz : (uint32_t)descsz);
	store_le32(out + 8, n->type ? n->type : NOTE_TYPE_GNU_PROPERTY);
	memcpy(out + 12, name, strlen(name) < namesz ? strlen(name) : namesz);
	off = desc_at;
	for (i = 0; i < n->count; i++) {
		const struct test_property *p = &n->props[i];
		unsigned char value[8];

		store_le32(out + off, p->type);
		store_le32(out + off + 4, p->datasz);
		store_le64(value, p->value);
		memcpy(out + off + 8, value, p->datasz < 8 ? p->datasz : 8);
		off += 8 + round_to(p->datasz, align);
	}
	return off;
}

static void put_phdr(unsigned char *at, int elf_class, uint32_t type, uint64_t off, uint64_t size,
		     uint64_t align)
{
	if (elf_class == 64) {
		Elf64_Phdr ph = { .p_type = type,
				  .p_flags = PF_R,
				  .p_offset = off,
				  .p_vaddr = VADDR_BASE + off,
				  .p_paddr = VADDR_BASE + off,
				  .p_filesz = size,
				  .p_memsz = size,
				  .p_align = align };
		memcpy(at, &ph, sizeof(ph));
	} else {
		Elf32_Phdr ph = { .p_type = type,
				  .p_flags = PF_R,
				  .p_offset = (Elf32_Off)off,
				  .p_vaddr = (Elf32_Addr)(VADDR_BASE + off),
				  .p_paddr = (Elf32_Addr)(VADDR_BASE + off),
				  .p_filesz = (Elf32_Word)size,
				  .p_memsz = (Elf32_Word)size,
				  .p_align = (Elf32_Word)align };
		memcpy(at, &ph, sizeof(ph));
	}
}

char *test_elf_write(const struct test_elf *spec)
{
	unsigned word = spec->elf_class == 64 ? 8 : 4;
	size_t ehsz = spec->elf_class == 64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	size_t phsz = spec->elf_class == 64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	size_t phnum = 1 + spec->has_interp + spec->pt_gnu_property + spec->pt_note;
	size_t interp_at = round_to(ehsz + phnum * phsz, 8);
	size_t notes_at = round_to(interp_at + (spec->has_interp ? sizeof(INTERP) : 0), 8);
	unsigned char buf[4096] = { 0 };
	size_t notes_size = 0, total, i, ph = 0;
	char *path = strdup("/tmp/elfcet-test-XXXXXX");
	int fd;

	for (i = 0; i < spec->nnotes; i++)
		notes_size += put_note(buf + notes_at + notes_size, &spec->notes[i], word);
	total = notes_at + notes_size + 64;
	if (spec->has_interp)
		memcpy(buf + interp_at, INTERP, sizeof(INTERP));

	memcpy(buf, ELFMAG, SELFMAG);
	buf[EI_CLASS] = spec->elf_class == 64 ? ELFCLASS64 : ELFCLASS32;
	buf[EI_DATA] = ELFDATA2LSB;
	buf[EI_VERSION] = EV_CURRENT;
	if (spec->elf_class == 64) {
		Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;

		eh->e_type = ET_EXEC;
		eh->e_machine = EM_X86_64;
		eh->e_version = EV_CURRENT;
		eh->e_entry = VADDR_BASE + total - 16;
		eh->e_phoff = ehsz;
		eh->e_ehsize = (Elf64_Half)ehsz;
		eh->e_phentsize = (Elf64_Half)phsz;
		eh->e_phnum = (Elf64_Half)phnum;
	} else {
		Elf32_Ehdr *eh = (Elf32_Ehdr *)buf;

		eh->e_type = ET_EXEC;
		eh->e_machine = EM_386;
		eh->e_version = EV_CURRENT;
		eh->e_entry = (Elf32_Addr)(VADDR_BASE + total - 16);
		eh->e_phoff = (Elf32_Off)ehsz;
		eh->e_ehsize = (Elf32_Half)ehsz;
		eh->e_phentsize = (Elf32_Half)phsz;
		eh->e_phnum = (Elf32_Half)phnum;
	}
	put_phdr(buf + ehsz + phsz * ph++, spec->elf_class, PT_LOAD, 0, total, 0x1000);
	if (spec->has_interp)
		put_phdr(buf + ehsz + phsz * ph++, spec->elf_class, PT_INTERP, interp_at,
			 sizeof(INTERP), 1);
	if (spec->pt_note)
		put_phdr(buf + ehsz + phsz * ph++, spec->elf_class, PT_NOTE, notes_at, notes_size,
			 spec->note_align ? spec->note_align : word);
	if (spec->pt_gnu_property)
		put_phdr(buf + ehsz + phsz * ph++, spec->elf_class, PT_GNU_PROPERTY, notes_at,
			 spec->gnu_property_filesz >= 0 ? (uint64_t)spec->gnu_property_filesz
							: notes_size,
			 spec->gnu_property_align ? spec->gnu_property_align : word);

	fd = mkstemp(path);
	if (fd < 0 || write(fd, buf, total) != (ssize_t)total) {
		perror("test_elf_write");
		abort();
	}
	close(fd);
	return path;
}

struct test_elf test_elf_default(int elf_class, uint32_t f1, uint32_t isa)
{
	struct test_elf e = {
		.elf_class = elf_class,
		.pt_gnu_property = true,
		.pt_note = true,
		.gnu_property_filesz = -1,
		.nnotes = 1,
	};

	e.notes[0].descsz = -1;
	e.notes[0].count = 2;
	e.notes[0].props[0] = (struct test_property){ PROP_X86_FEATURE_1_AND, 4, f1 };
	e.notes[0].props[1] = (struct test_property){ PROP_X86_ISA_1_NEEDED, 4, isa };
	return e;
}
