/* Sorting records by address: symbols, FDEs, function starts, targets. A large program
 * has hundreds of thousands of each, and qsort's comparison calls were a tenth of an
 * audit; a radix sort on the address does the same in a few passes. */
#ifndef ELFCET_SORT_ADDRESS_H
#define ELFCET_SORT_ADDRESS_H

#include <stddef.h>

/* Sorts N records of SIZE bytes (a multiple of 8), each beginning with a uint64_t
 * address, into ascending address order. Stable: records at one address keep the order
 * they had. */
void sort_by_address(void *records, size_t n, size_t size);

#endif
