# elfcet/: the command line, a thin layer over scanner/.
bin_PROGRAMS += elfcet/elfcet
elfcet_elfcet_SOURCES = elfcet/main.c elfcet/commands.h elfcet/cmd_audit.c \
	elfcet/cmd_mark.c elfcet/cmd_report.c elfcet/cmd_run.c \
	elfcet/progress.c elfcet/progress.h
elfcet_elfcet_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
elfcet_elfcet_LDADD = dynrun/libdynrun.a $(ELFCET_LIBS)
dist_man_MANS += elfcet/elfcet.1
