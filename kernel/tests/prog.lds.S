/*
 * Linker script for the note test programs: one PT_LOAD at BASE, the
 * note in PT_NOTE and PT_GNU_PROPERTY (unless NO_NOTE), PT_INTERP when
 * WITH_INTERP.  Preprocess with cpp -P.  The writable PT_LOAD at the end
 * is there because 6.1 zeroes the rest of the interpreter's last page
 * after its file data, and faults if that page is read-only.
 */
ENTRY(_start)
PHDRS
{
#ifdef WITH_INTERP
	interp PT_INTERP;
#endif
	text PT_LOAD FILEHDR PHDRS;
	data PT_LOAD;
#ifndef NO_NOTE
	prop 0x6474e553;	/* PT_GNU_PROPERTY */
	note PT_NOTE;
#endif
}
SECTIONS
{
	. = BASE + SIZEOF_HEADERS;
#ifdef WITH_INTERP
	.interp : { *(.interp) } :text :interp
#endif
#ifndef NO_NOTE
	.note.elfcet : { *(.note.elfcet) } :text :prop :note
#endif
	.text : { *(.text) } :text
	. = ALIGN(0x1000);
	.data : { *(.data) } :data
	/DISCARD/ : { *(.note.gnu.property) *(.note.GNU-stack) *(.comment) }
}
