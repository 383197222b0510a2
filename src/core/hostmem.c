/*
 * The host's memory limits (hostmem.h): MemAvailable, the cgroup's room
 * and strict overcommit's room, read from text files under a root
 * directory.  Nothing is cached: the figures change while micdb runs,
 * and a caller asks right before it decides.
 *
 * The cgroup is found as the kernel says it: /proc/self/cgroup names the
 * process's cgroup per hierarchy (v2: "0::/path", v1: "N:...memory...:
 * /path"), /proc/self/mountinfo where each hierarchy is mounted and which
 * of its directories the mount shows.  A limit binds at every level up
 * to the mount, so each level's room counts and the least wins.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostmem.h"
#include "util.h"

/* v1 writes "no limit" as the largest page multiple of a signed 64-bit
 * count; anything this large is no limit. */
#define V1_UNLIMITED	(UINT64_C(1) << 62)

/* The first line of a file, without its newline; -1 if unreadable. */
static int
first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int rc = -1;

	if (f == NULL)
		return -1;
	if (fgets(buf, (int)len, f) != NULL) {
		buf[strcspn(buf, "\n")] = '\0';
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* A file holding one number, or "max" (HOSTMEM_NONE); -1 if unreadable
 * or neither. */
static int
read_u64(const char *path, uint64_t *v)
{
	char line[64], *end;
	unsigned long long n;

	if (first_line(path, line, sizeof line) != 0)
		return -1;
	if (strcmp(line, "max") == 0) {
		*v = HOSTMEM_NONE;
		return 0;
	}
	errno = 0;
	n = strtoull(line, &end, 10);
	if (errno != 0 || end == line || line[0] == '-')
		return -1;
	*v = n;
	return 0;
}

/* The number after "key " in a memory.stat file; 0 if absent. */
static uint64_t
stat_value(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	char line[256];
	size_t kl = strlen(key);
	uint64_t v = 0;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f) != NULL)
		if (strncmp(line, key, kl) == 0 && line[kl] == ' ') {
			v = strtoull(line + kl + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* /proc/meminfo's fields in bytes (HOSTMEM_NONE: absent). */
struct meminfo {
	uint64_t	available, free, buffers, cached, commit_limit,
			committed;
};

static int
read_meminfo(const char *path, struct meminfo *mi)
{
	static const struct {
		const char	*key;
		size_t		 off;
	} keys[] = {
		{ "MemAvailable:", offsetof(struct meminfo, available) },
		{ "MemFree:", offsetof(struct meminfo, free) },
		{ "Buffers:", offsetof(struct meminfo, buffers) },
		{ "Cached:", offsetof(struct meminfo, cached) },
		{ "CommitLimit:", offsetof(struct meminfo, commit_limit) },
		{ "Committed_AS:", offsetof(struct meminfo, committed) },
	};
	FILE *f = fopen(path, "r");
	char line[256];

	if (f == NULL)
		return -1;
	for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
		*(uint64_t *)((char *)mi + keys[k].off) = HOSTMEM_NONE;
	while (fgets(line, sizeof line, f) != NULL)
		for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
			size_t kl = strlen(keys[k].key);
			unsigned long long kb;

			if (strncmp(line, keys[k].key, kl) == 0 &&
			    sscanf(line + kl, "%llu", &kb) == 1)
				*(uint64_t *)((char *)mi + keys[k].off) =
				    (uint64_t)kb * 1024;
		}
	fclose(f);
	return 0;
}

/* The cgroup's directory for one hierarchy (v2: cgroup2, v1: the memory
 * controller's), root-prefixed, and the mount's directory above which
 * the walk stops; both malloc'd, or -1 if the process is in none. */
static int
cgroup_dir(const char *root, int v2, char **dir, char **top)
{
	char *path = NULL, *mroot = NULL, *mpoint = NULL, *p;
	char line[1024];
	FILE *f;

	p = xasprintf("%s/proc/self/cgroup", root);
	f = fopen(p, "r");
	free(p);
	if (f == NULL)
		return -1;
	while (path == NULL && fgets(line, sizeof line, f) != NULL) {
		char *ctl = strchr(line, ':'), *cg;

		if (ctl == NULL || (cg = strchr(++ctl, ':')) == NULL)
			continue;
		*cg++ = '\0';
		cg[strcspn(cg, "\n")] = '\0';
		if (v2 ? strncmp(line, "0:", 2) == 0 && *ctl == '\0' :
		    strstr(ctl, "memory") != NULL)
			path = xstrdup(cg);
	}
	fclose(f);
	if (path == NULL)
		return -1;
	p = xasprintf("%s/proc/self/mountinfo", root);
	f = fopen(p, "r");
	free(p);
	while (f != NULL && mpoint == NULL && fgets(line, sizeof line, f)
	    != NULL) {
		char mr[512], mp[512], fstype[64], super[256];
		const char *dash = strstr(line, " - ");

		if (dash == NULL || sscanf(line, "%*s %*s %*s %511s %511s",
		    mr, mp) != 2 || sscanf(dash + 3, "%63s %*s %255s", fstype,
		    super) != 2)
			continue;
		if (v2 ? strcmp(fstype, "cgroup2") == 0 :
		    strcmp(fstype, "cgroup") == 0 &&
		    strstr(super, "memory") != NULL) {
			mroot = xstrdup(mr);
			mpoint = xstrdup(mp);
		}
	}
	if (f != NULL)
		fclose(f);
	if (mpoint == NULL) {
		free(path);
		return -1;
	}
	/* the mount shows mroot and what is below it */
	p = path;
	if (strcmp(mroot, "/") != 0 && strncmp(p, mroot, strlen(mroot)) == 0)
		p += strlen(mroot);
	*top = xasprintf("%s%s", root, strcmp(mpoint, "/") == 0 ? "" :
	    mpoint);
	*dir = xasprintf("%s%s", *top, strcmp(p, "/") == 0 ? "" : p);
	free(path);
	free(mroot);
	free(mpoint);
	return 0;
}

/* The least room of the cgroup and its ancestors in one hierarchy. */
static uint64_t
cgroup_room(const char *root, int v2)
{
	const char *lim_f = v2 ? "memory.max" : "memory.limit_in_bytes";
	const char *use_f = v2 ? "memory.current" : "memory.usage_in_bytes";
	const char *cache = v2 ? "inactive_file" : "total_inactive_file";
	uint64_t best = HOSTMEM_NONE;
	char *dir, *top;

	if (cgroup_dir(root, v2, &dir, &top) != 0)
		return HOSTMEM_NONE;
	for (;;) {
		char *lp = xasprintf("%s/%s", dir, lim_f);
		char *up = xasprintf("%s/%s", dir, use_f);
		char *sp = xasprintf("%s/memory.stat", dir);
		uint64_t lim, use, reclaim, room;
		char *slash;

		if (read_u64(lp, &lim) == 0 && lim != HOSTMEM_NONE &&
		    (v2 || lim < V1_UNLIMITED) && read_u64(up, &use) == 0) {
			/* inactive file pages go before the limit is hit */
			reclaim = stat_value(sp, cache);
			use = use > reclaim ? use - reclaim : 0;
			room = lim > use ? lim - use : 0;
			if (room < best)
				best = room;
		}
		free(lp);
		free(up);
		free(sp);
		slash = strrchr(dir, '/');
		if (strlen(dir) <= strlen(top) || slash == NULL ||
		    (size_t)(slash - dir) < strlen(top))
			break;
		*slash = '\0';
	}
	free(dir);
	free(top);
	return best;
}

int
hostmem_probe(const char *root, struct hostmem *h, char **cause)
{
	struct meminfo mi;
	char *p, *r, over[16];
	uint64_t v1, v2;

	/* "/" and "" both mean the host: paths are root + "/proc/..." */
	r = xstrdup(root == NULL ? "" : root);
	while (*r != '\0' && r[strlen(r) - 1] == '/')
		r[strlen(r) - 1] = '\0';
	memset(h, 0, sizeof *h);
	p = xasprintf("%s/proc/meminfo", r);
	if (read_meminfo(p, &mi) != 0) {
		*cause = xasprintf("cannot read %s: %s", p, strerror(errno));
		free(p);
		free(r);
		return -1;
	}
	/* kernels before 3.14 lack MemAvailable: free and page cache is
	 * their nearest figure */
	if (mi.available == HOSTMEM_NONE && mi.free != HOSTMEM_NONE)
		mi.available = mi.free +
		    (mi.buffers != HOSTMEM_NONE ? mi.buffers : 0) +
		    (mi.cached != HOSTMEM_NONE ? mi.cached : 0);
	if (mi.available == HOSTMEM_NONE) {
		*cause = xasprintf("%s says nothing of MemAvailable or "
		    "MemFree", p);
		free(p);
		free(r);
		return -1;
	}
	free(p);
	h->available = mi.available;
	h->bytes = mi.available;
	h->name = "MemAvailable";

	v2 = cgroup_room(r, 1);
	v1 = cgroup_room(r, 0);
	h->cgroup = v2 < v1 ? v2 : v1;
	if (h->cgroup < h->bytes) {
		h->bytes = h->cgroup;
		h->name = v2 < v1 ? "the cgroup's memory.max" :
		    "the cgroup's memory.limit_in_bytes";
	}

	h->commit = HOSTMEM_NONE;
	p = xasprintf("%s/proc/sys/vm/overcommit_memory", r);
	if (first_line(p, over, sizeof over) == 0 && atoi(over) == 2 &&
	    mi.commit_limit != HOSTMEM_NONE && mi.committed != HOSTMEM_NONE) {
		h->commit = mi.commit_limit > mi.committed ?
		    mi.commit_limit - mi.committed : 0;
		if (h->commit < h->bytes) {
			h->bytes = h->commit;
			h->name = "CommitLimit - Committed_AS, overcommit "
			    "mode 2";
		}
	}
	free(p);
	free(r);
	return 0;
}

const char *
hostmem_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes < (UINT64_C(1) << 30))
		snprintf(buf, len, "%.0f MiB", bytes / 1048576.0);
	else
		snprintf(buf, len, "%.1f GiB", bytes / 1073741824.0);
	return buf;
}
