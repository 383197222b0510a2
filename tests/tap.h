/*
 * A tiny TAP producer for the C unit tests: automake's tap-driver counts
 * every "ok"/"not ok" line, so .ci/run's pass/fail totals are per check,
 * not per test program.
 */
#ifndef MICDB_TAP_H
#define MICDB_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed;

static inline int
tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	fflush(stdout);
	return cond;
}

#define ok(cond, ...) tap_ok(!!(cond), __VA_ARGS__)
#define is_int(got, want, ...) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	if (!tap_ok(g_ == w_, __VA_ARGS__)) \
		printf("#   got %lld, want %lld\n", g_, w_); \
} while (0)
#define is_str(got, want, ...) do { \
	const char *g_ = (got), *w_ = (want); \
	int eq_ = (g_ && w_) ? strcmp(g_, w_) == 0 : g_ == w_; \
	if (!tap_ok(eq_, __VA_ARGS__)) \
		printf("#   got \"%s\"\n#  want \"%s\"\n", g_ ? g_ : "(null)", \
		    w_ ? w_ : "(null)"); \
} while (0)

static inline void
tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Print the plan at the end and exit with the right status. */
static inline int
done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
