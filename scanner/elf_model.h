/* The ELF model: one mapped x86 ELF file and the views of it every analysis needs. */
#ifndef ELFCET_ELF_MODEL_H
#define ELFCET_ELF_MODEL_H
#endif
