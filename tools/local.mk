# tools/: scripts installed beside elfcet.
# The GNU parallel recipe for auditing a whole archive (tests/archive-parallel.sh).
dist_bin_SCRIPTS = tools/elfcet-audit-archive
dist_man_MANS += tools/elfcet-audit-archive.1
