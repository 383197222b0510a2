/*
 * tests/nojit.so: an LD_PRELOAD shim that refuses executable memory, as
 * a hardened kernel does (SELinux execmem, PaX MPROTECT): mmap and
 * mprotect with PROT_EXEC fail with EACCES, everything else goes to the
 * real calls (dlsym(RTLD_NEXT)).  Under it the translations into host
 * code cannot seal their buffers (src/host/x64.c), so micdb runs its
 * interpreters: the tests that run under it keep the interpreters
 * covered (doc/performance.md section 24.4).  A test instrument, never
 * installed and not a user knob.
 *
 * NOJIT_REPORT=FILE appends one line "refused N" at exit, the calls it
 * refused, so that a test can tell the shim was in force.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

static unsigned long refused;

static void
report(void)
{
	const char *path = getenv("NOJIT_REPORT");
	int fd = path != NULL ? open(path, O_WRONLY | O_APPEND | O_CREAT,
	    0644) : -1;

	if (fd >= 0) {
		dprintf(fd, "refused %lu\n", refused);
		close(fd);
	}
}

__attribute__((constructor)) static void
init(void)
{
	atexit(report);
}

void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);

	if (prot & PROT_EXEC) {
		__atomic_add_fetch(&refused, 1, __ATOMIC_RELAXED);
		errno = EACCES;
		return MAP_FAILED;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "mmap");
	return real(addr, len, prot, flags, fd, off);
}

int
mprotect(void *addr, size_t len, int prot)
{
	static int (*real)(void *, size_t, int);

	if (prot & PROT_EXEC) {
		__atomic_add_fetch(&refused, 1, __ATOMIC_RELAXED);
		errno = EACCES;
		return -1;
	}
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "mprotect");
	return real(addr, len, prot);
}
