/* Sorting and searching records by address: symbols, FDEs, function starts, targets. A
 * large program has hundreds of thousands of each, and qsort's comparison calls were a
 * tenth of an audit; a radix sort on the address does the same in a few passes. */
#ifndef ELFCET_SORT_ADDRESS_H
#define ELFCET_SORT_ADDRESS_H

#include <stddef.h>
#include <stdint.h>

/* Sorts N records of SIZE bytes (a multiple of 8), each beginning with a uint64_t
 * address, into ascending address order. Stable: records at one address keep the order
 * they had. */
void sort_by_address(void *records, size_t n, size_t size);

/* In N records of SIZE bytes sorted by sort_by_address: how many have an address below
 * ADDR (the index of the first at or above it), and how many at or below it (the last of
 * those, when there is one, is at index count - 1). */
size_t records_below(const void *records, size_t n, size_t size, uint64_t addr);
size_t records_upto(const void *records, size_t n, size_t size, uint64_t addr);

#endif
