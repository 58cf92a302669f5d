# rules for kernel/
