/*
 * The expression language of print, set var, x and breakpoint conditions:
 * C's integer operators over 32-bit words that wrap as IJVM arithmetic
 * does, with names that the caller resolves.
 *
 *   literals   42  0x1f  0b101  017  'A'  '\n'
 *   names      TOS, n, total     (register, local or global: the caller
 *                                 decides; see session name lookup)
 *              $core $pc $1 $    ('$' names: registers, convenience
 *              $$ $$2             variables, value history; $$N is
 *                                 passed on as the name "$N")
 *              local[3] global[0] (indexed)
 *   operators  ( )  ! ~ - +  * / %  + -  << >> >>>  < <= > >=  == !=  &  ^
 *              |  &&  ||   (shifts as Java's: the count masked to 5 bits,
 *              >> arithmetic, >>> logical)
 *              arr[i]     (a name holding a heap array reference: the
 *                          caller reads the element, bounds checked)
 *
 * An expression is parsed once into a tree (a breakpoint condition is
 * evaluated for every core that reaches the breakpoint, so parsing must
 * not be repeated) and evaluated against an environment of callbacks,
 * which keeps this file free of machines and sessions and lets the unit
 * tests evaluate with a fake environment.  && and || short-circuit, so
 * `$core == 3 && i == 2` does not look up i on cores where it does not
 * exist.
 */
#ifndef MICDB_EXPR_H
#define MICDB_EXPR_H

#include <stdint.h>

struct expr;

struct expr_env {
	void	*arg;
	/* Value of a plain name (dollar 0) or of $name (dollar 1; name is
	 * "" for a lone '$', the digits for $N, "$" and "$" + digits for
	 * $$ and $$N). */
	int	(*name)(void *arg, const char *name, int dollar,
		    int32_t *val, char **cause);
	/* Value of base[index]: base is "local", "global" or a name whose
	 * value is a heap array reference. */
	int	(*indexed)(void *arg, const char *base, int32_t index,
		    int32_t *val, char **cause);
};

/* Parse text; 0 and *out, or -1 + *cause naming the position. */
int	expr_parse(const char *text, struct expr **out, char **cause);
void	expr_free(struct expr *e);
/* Evaluate; 0 and *val, or -1 + *cause (unknown name, division by 0). */
int	expr_eval(const struct expr *e, const struct expr_env *env,
	    int32_t *val, char **cause);
/*
 * Call fn for every name in e (array bases too, but not the words
 * local and global of local[N] and global[N]), stopping at the first -1:
 * how a condition is checked when it is set.
 */
int	expr_walk_names(const struct expr *e,
	    int (*fn)(void *arg, const char *name, int dollar, char **cause),
	    void *arg, char **cause);
/* If e is a plain name (no operators), that name; else NULL. */
const char *expr_plain_name(const struct expr *e, int *dollar);

#endif
