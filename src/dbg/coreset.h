/*
 * Sets of cores: parsed from the "0-7,12" syntax of `break ... core SET`
 * and `input`, kept as one byte per core (what engines test in their hot
 * loops, and cheap to intersect), and printed back as ranges
 * ("cores 8-15, 17") with long lists abbreviated so that a report about
 * a million cores stays one line.
 */
#ifndef MICDB_CORESET_H
#define MICDB_CORESET_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/*
 * Parse text ("all", "5", "0-7,12") for a machine of ncores cores into a
 * fresh array of ncores bytes (1 = in the set).  0, or -1 + *cause.
 */
int	coreset_parse(const char *text, uint32_t ncores, uint8_t **bits,
	    char **cause);
/* Number of cores in the set. */
uint32_t coreset_count(const uint8_t *bits, uint32_t ncores);
/*
 * Append a sorted, duplicate-free list of cores as ranges: "17", "8-15",
 * "17, 49", at most max_items ranges and then ", ... (N more)".
 */
void	coreset_format_list(struct buf *b, const uint32_t *cores, size_t n,
	    size_t max_items);
/* The same for a byte-per-core set. */
void	coreset_format_bits(struct buf *b, const uint8_t *bits,
	    uint32_t ncores, size_t max_items);
/* "core 17" or "cores 8-15, 17": the noun agrees with the count. */
void	coreset_format_cores(struct buf *b, const uint32_t *cores, size_t n,
	    size_t max_items);

#endif
