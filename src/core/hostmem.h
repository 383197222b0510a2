/*
 * What the host can give a process now: the memory a device that shares
 * the host's (a CPU device, zero-copy) can use for its buffers, whatever
 * it reports as its own (doc/manycore.md, "Where memory is judged").
 *
 * Three limits, each from Linux's own files, and the least of them binds:
 *   - MemAvailable (/proc/meminfo): what can be had without swapping;
 *   - the cgroup's limit less its usage (v2 memory.max - memory.current,
 *     v1 memory.limit_in_bytes - memory.usage_in_bytes), least over the
 *     cgroup and its ancestors, reclaimable file pages (inactive_file)
 *     not counted as used;
 *   - under strict overcommit (/proc/sys/vm/overcommit_memory 2), what is
 *     left to commit: CommitLimit - Committed_AS.
 *
 * Plain C, no OpenCL: the OpenCL layer (ocl_mem_limit) and micdb bench
 * decide with it.  Every path is read under a root directory, "/" for the
 * real host, so that a test can feed it a fake /proc and /sys.
 */
#ifndef MICDB_HOSTMEM_H
#define MICDB_HOSTMEM_H

#include <stddef.h>
#include <stdint.h>

#define HOSTMEM_NONE	UINT64_MAX   /* a limit that is not set */

struct hostmem {
	uint64_t	 bytes;       /* the least of the three: what binds */
	const char	*name;       /* its name, as a message says it */
	uint64_t	 available;   /* MemAvailable */
	uint64_t	 cgroup;      /* the cgroup's room (HOSTMEM_NONE: none) */
	uint64_t	 commit;      /* room to commit (HOSTMEM_NONE: not strict) */
};

/*
 * Read the limits under root (NULL or "/": the host itself).  0, or -1
 * with *cause when root's /proc/meminfo cannot be read or says nothing
 * of the free memory; a missing cgroup or overcommit file is no limit.
 */
int	 hostmem_probe(const char *root, struct hostmem *h, char **cause);

/* bytes as a message says them: "812 MiB" under 1 GiB, else "3.1 GiB". */
const char *hostmem_size(uint64_t bytes, char *buf, size_t len);

#endif
