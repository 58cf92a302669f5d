# rules for vm/
EXTRA_DIST += \
	vm/mkinitramfs \
	vm/qemu-boot
