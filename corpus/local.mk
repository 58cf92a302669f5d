# corpus/: sources of the test binaries and their expected audits.
EXTRA_DIST += corpus/notes/build corpus/notes/manifest corpus/notes/hello.c \
	corpus/notes/libhello.c corpus/notes/start64.S corpus/notes/start32.S
# Indirect-branch targets (tests/corpus-targets.sh): sources, build script, manifest.
EXTRA_DIST += corpus/targets
