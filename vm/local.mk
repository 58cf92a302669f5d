# rules for vm/
# The guest runner: a static program (glibc's libc.a only) that /init runs in the VM.
noinst_PROGRAMS += vm/guest/runner
vm_guest_runner_SOURCES = vm/guest/runner.c vm/guest/job_parse.c vm/guest/job_parse.h \
	vm/guest/json_out.c vm/guest/json_out.h
vm_guest_runner_CPPFLAGS =
vm_guest_runner_LDFLAGS = -static
