/*
 * The host-memory probe (src/core/hostmem.c) on fake /proc and /sys
 * trees: MemAvailable alone, an old kernel's meminfo, cgroup v2 with a
 * tighter ancestor and reclaimable cache, cgroup v1 behind a namespaced
 * mount and v1's "no limit", strict overcommit, unreadable input, and
 * the sizes as messages write them.  Then the real host, which must
 * give a figure no larger than its MemAvailable.
 *
 * "test-hostmem probe" prints the real host's figure ("BYTES NAME") for
 * the shell tests, which size their machines by it.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostmem.h"
#include "tap.h"
#include "util.h"

#define MIB	(UINT64_C(1) << 20)

static char tree[4096];

/* Write text to tree/rel, making its directories. */
static void
put(const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", tree, rel);
	FILE *f;

	for (char *s = path + strlen(tree) + 1; (s = strchr(s, '/')) != NULL;
	    s++) {
		*s = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST) {
			fprintf(stderr, "mkdir %s: %s\n", path,
			    strerror(errno));
			exit(99);
		}
		*s = '/';
	}
	if ((f = fopen(path, "w")) == NULL || fputs(text, f) == EOF ||
	    fclose(f) != 0) {
		fprintf(stderr, "write %s: %s\n", path, strerror(errno));
		exit(99);
	}
	free(path);
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A fresh, empty tree for the next case. */
static void
fresh(void)
{
	if (tree[0] != '\0')
		nftw(tree, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	snprintf(tree, sizeof tree, "%s/micdb-hostmem-XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tree) == NULL) {
		fprintf(stderr, "mkdtemp %s: %s\n", tree, strerror(errno));
		exit(99);
	}
}

static const char meminfo[] =
    "MemTotal:       24684092 kB\n"
    "MemFree:         1000000 kB\n"
    "MemAvailable:    3250000 kB\n"
    "Buffers:           20000 kB\n"
    "Cached:           900000 kB\n"
    "CommitLimit:    12342044 kB\n"
    "Committed_AS:    9000000 kB\n";

static int
probe(struct hostmem *h, char **cause)
{
	*cause = NULL;
	return hostmem_probe(tree, h, cause);
}

static void
plain(void)
{
	struct hostmem h;
	char *cause;

	fresh();
	put("proc/meminfo", meminfo);
	put("proc/sys/vm/overcommit_memory", "0\n");
	is_int(probe(&h, &cause), 0, "meminfo alone: probed");
	is_int(h.bytes, UINT64_C(3250000) * 1024, "meminfo alone: "
	    "MemAvailable binds");
	is_str(h.name, "MemAvailable", "meminfo alone: named MemAvailable");
	ok(h.cgroup == HOSTMEM_NONE && h.commit == HOSTMEM_NONE,
	    "meminfo alone: no cgroup, no commit limit");

	/* the heuristic overcommit (0) and always (1) set no sum limit */
	put("proc/sys/vm/overcommit_memory", "1\n");
	probe(&h, &cause);
	ok(h.commit == HOSTMEM_NONE, "overcommit 1: no commit limit");

	fresh();
	put("proc/meminfo", "MemTotal: 2000000 kB\nMemFree: 100000 kB\n"
	    "Buffers: 2000 kB\nCached: 50000 kB\n");
	is_int(probe(&h, &cause), 0, "old kernel: probed");
	is_int(h.bytes, UINT64_C(152000) * 1024,
	    "old kernel: free, buffers and cache stand for MemAvailable");
}

static void
cgroup2(void)
{
	struct hostmem h;
	char *cause;

	fresh();
	put("proc/meminfo", meminfo);
	put("proc/self/cgroup", "0::/user.slice/app\n");
	put("proc/self/mountinfo",
	    "23 1 0:21 / /proc rw - proc proc rw\n"
	    "31 23 0:28 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n");
	put("sys/fs/cgroup/memory.max", "max\n");
	put("sys/fs/cgroup/memory.current", "99999999999\n");
	put("sys/fs/cgroup/user.slice/app/memory.max", "1073741824\n");
	put("sys/fs/cgroup/user.slice/app/memory.current", "629145600\n");
	put("sys/fs/cgroup/user.slice/app/memory.stat",
	    "anon 1\nfile 2\ninactive_file 104857600\nactive_file 3\n");
	is_int(probe(&h, &cause), 0, "cgroup v2: probed");
	is_int(h.cgroup, 524 * MIB, "cgroup v2: limit less usage, inactive "
	    "file pages not counted");
	is_int(h.bytes, 524 * MIB, "cgroup v2: binds below MemAvailable");
	is_str(h.name, "the cgroup's memory.max", "cgroup v2: named");

	/* an ancestor's limit binds too */
	put("sys/fs/cgroup/user.slice/memory.max", "2147483648\n");
	put("sys/fs/cgroup/user.slice/memory.current", "2042626048\n");
	probe(&h, &cause);
	is_int(h.bytes, 100 * MIB, "cgroup v2: the tighter ancestor binds");

	/* usage above the limit leaves nothing, not a wrapped figure */
	put("sys/fs/cgroup/user.slice/memory.current", "3000000000\n");
	probe(&h, &cause);
	is_int(h.bytes, 0, "cgroup v2: over the limit leaves 0");

	/* unlimited everywhere: MemAvailable again */
	put("sys/fs/cgroup/user.slice/memory.max", "max\n");
	put("sys/fs/cgroup/user.slice/app/memory.max", "max\n");
	probe(&h, &cause);
	ok(h.cgroup == HOSTMEM_NONE, "cgroup v2: \"max\" is no limit");
	is_str(h.name, "MemAvailable", "cgroup v2 unlimited: MemAvailable "
	    "binds");
}

static void
cgroup1(void)
{
	struct hostmem h;
	char *cause;

	fresh();
	put("proc/meminfo", meminfo);
	/* a container: the mount shows only its own cgroup */
	put("proc/self/cgroup", "5:cpu:/docker/abc\n4:memory:/docker/abc\n"
	    "0::/\n");
	put("proc/self/mountinfo",
	    "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
	    "32 31 0:29 /docker/abc /sys/fs/cgroup/cpu rw - cgroup cgroup "
	    "rw,cpu\n"
	    "35 31 0:32 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup "
	    "rw,memory\n");
	put("sys/fs/cgroup/memory/memory.limit_in_bytes", "536870912\n");
	put("sys/fs/cgroup/memory/memory.usage_in_bytes", "115343360\n");
	put("sys/fs/cgroup/memory/memory.stat", "cache 5\n"
	    "total_inactive_file 10485760\n");
	is_int(probe(&h, &cause), 0, "cgroup v1: probed");
	is_int(h.bytes, 412 * MIB, "cgroup v1: limit less usage at the "
	    "namespaced mount");
	is_str(h.name, "the cgroup's memory.limit_in_bytes",
	    "cgroup v1: named");

	put("sys/fs/cgroup/memory/memory.limit_in_bytes",
	    "9223372036854771712\n");
	probe(&h, &cause);
	ok(h.cgroup == HOSTMEM_NONE, "cgroup v1: the largest page count is "
	    "no limit");
	is_str(h.name, "MemAvailable", "cgroup v1 unlimited: MemAvailable "
	    "binds");
}

static void
overcommit(void)
{
	struct hostmem h;
	char *cause;

	fresh();
	put("proc/meminfo", meminfo);
	put("proc/sys/vm/overcommit_memory", "2\n");
	is_int(probe(&h, &cause), 0, "overcommit 2: probed");
	is_int(h.commit, UINT64_C(3342044) * 1024,
	    "overcommit 2: CommitLimit - Committed_AS");
	is_int(h.bytes, h.available, "overcommit 2: MemAvailable still binds "
	    "when lower");
	put("proc/meminfo", "MemAvailable: 8000000 kB\n"
	    "CommitLimit: 4000000 kB\nCommitted_AS: 3000000 kB\n");
	probe(&h, &cause);
	is_int(h.bytes, UINT64_C(1000000) * 1024, "overcommit 2: the commit "
	    "room binds");
	ok(strstr(h.name, "CommitLimit - Committed_AS") != NULL,
	    "overcommit 2: named");
	put("proc/meminfo", "MemAvailable: 8000000 kB\n"
	    "CommitLimit: 4000000 kB\nCommitted_AS: 5000000 kB\n");
	probe(&h, &cause);
	is_int(h.bytes, 0, "overcommit 2: overcommitted leaves 0");
}

static void
errors(void)
{
	struct hostmem h;
	char *cause;

	fresh();
	is_int(probe(&h, &cause), -1, "no meminfo: refused");
	ok(cause != NULL && strstr(cause, "/proc/meminfo") != NULL,
	    "no meminfo: the file is named");
	free(cause);
	put("proc/meminfo", "MemTotal: 1000 kB\n");
	is_int(probe(&h, &cause), -1, "meminfo without free memory: refused");
	ok(cause != NULL && strstr(cause, "MemAvailable") != NULL,
	    "meminfo without free memory: says what it lacks");
	free(cause);
	/* a broken cgroup file is no limit, not a failure */
	put("proc/meminfo", meminfo);
	put("proc/self/cgroup", "garbage\n");
	put("proc/self/mountinfo", "garbage\n");
	is_int(probe(&h, &cause), 0, "broken cgroup files: probed");
	ok(h.cgroup == HOSTMEM_NONE, "broken cgroup files: no cgroup limit");
}

static void
sizes(void)
{
	char b[32];

	is_str(hostmem_size(812 * MIB, b, sizeof b), "812 MiB",
	    "under 1 GiB in MiB");
	is_str(hostmem_size(UINT64_C(3328599654), b, sizeof b), "3.1 GiB",
	    "above in GiB");
}

int
main(int argc, char **argv)
{
	struct hostmem h;
	char *cause = NULL;

	if (argc == 2 && strcmp(argv[1], "probe") == 0) {
		if (hostmem_probe(NULL, &h, &cause) != 0) {
			fprintf(stderr, "test-hostmem: %s\n", cause);
			return 1;
		}
		printf("%" PRIu64 " %s\n", h.bytes, h.name);
		return 0;
	}
	plain();
	cgroup2();
	cgroup1();
	overcommit();
	errors();
	sizes();
	nftw(tree, rm_one, 16, FTW_DEPTH | FTW_PHYS);

	is_int(hostmem_probe("/", &h, &cause), 0, "the real host: probed");
	ok(h.bytes <= h.available && h.bytes > 0,
	    "the real host: no more than MemAvailable");
	tap_diag("the host can give %" PRIu64 " MiB (%s)", h.bytes / MIB,
	    h.name);
	return done_testing();
}
