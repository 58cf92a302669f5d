# debhelper/: dh_elfcet and its dh sequence addon (dh $@ --with elfcet, or
# Build-Depends: dh-sequence-elfcet). The addon goes where Debian's perl finds vendor
# modules when the prefix is /usr; under another prefix set PERL5LIB to $(dhseqbase).
dist_bin_SCRIPTS += debhelper/dh_elfcet
dhseqbase = $(datadir)/perl5
dhseqdir = $(dhseqbase)/Debian/Debhelper/Sequence
dist_dhseq_DATA = debhelper/Debian/Debhelper/Sequence/elfcet.pm
# The man page, from the POD in dh_elfcet as debhelper's own are.
man_MANS = debhelper/dh_elfcet.1
debhelper/dh_elfcet.1: debhelper/dh_elfcet
	@$(MKDIR_P) debhelper
	$(AM_V_GEN)pod2man --section=1 --center=elfcet --release="elfcet $(PACKAGE_VERSION)" \
		--name=DH_ELFCET $(srcdir)/debhelper/dh_elfcet $@
CLEANFILES += debhelper/dh_elfcet.1
# End to end: corpus/debhelper/cethello built with dpkg-buildpackage using the addon.
TESTS += tests/dh-elfcet.sh
EXTRA_DIST += tests/dh-elfcet.sh corpus/debhelper
tests/dh-elfcet.log: elfcet/elfcet vm/plugin/elfcet-qemu-plugin.so

# A real package from Debian's archive (GNU hello, Debian 12 source) built with the addon,
# its program run under the checker and in the VM on the CET kernel (network and VM: outside
# make check; skipped when the mirror cannot be reached).
check-dh-debian: elfcet/elfcet vm/plugin/elfcet-qemu-plugin.so vm/guest/runner
	@ELFCET='$(abs_top_builddir)/elfcet/elfcet' ELFCET_RULES_DIR='$(abs_top_srcdir)/rules' \
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
		$(BASH) $(abs_top_srcdir)/tests/dh-elfcet-debian.sh; \
	rc=$$?; if [ $$rc -eq 77 ]; then exit 0; fi; exit $$rc
.PHONY: check-dh-debian
EXTRA_DIST += tests/dh-elfcet-debian.sh

# elfcet's own Debian packages built from the repository with dpkg-buildpackage, checked
# with lintian (minutes: outside make check; bash tests/run-all runs it).
check-debian-package:
	@top_srcdir='$(abs_top_srcdir)' $(BASH) $(abs_top_srcdir)/tests/debian-package.sh; \
	rc=$$?; if [ $$rc -eq 77 ]; then exit 0; fi; exit $$rc
.PHONY: check-debian-package
EXTRA_DIST += tests/debian-package.sh
