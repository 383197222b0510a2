/*
 * Inside the trace writer (trace.h): what trace.c keeps for every format
 * and the hooks each format file (trace-perfetto.c, trace-vcd.c, the
 * JSON lines of trace.c) fills in.  Not for use outside src/dbg/trace*.c.
 */
#ifndef MICDB_TRACE_INT_H
#define MICDB_TRACE_INT_H

#include <stdio.h>
#include <string.h>

#include "mic1.h"
#include "pmic.h"
#include "trace.h"
#include "tracebuf.h"

/* The output buffer's size: the formats write through it, and it goes to
 * the file in writes of this size (trace_put below). */
#define TRACE_OBUF	(1u << 16)

struct trace_fmt {
	const char	*name;
	/* After the file is open: the header and the state at the start
	 * (the step trace_open found the machine at). */
	void	(*start)(struct trace *t, const struct trace_view *v);
	/* The machine after a step later than every one before. */
	void	(*record)(struct trace *t, const struct trace_view *v);
	void	(*mark)(struct trace *t, const struct trace_view *v,
		    const char *what);
	/* The footer; the state is freed by free. */
	void	(*finish)(struct trace *t);
	void	(*free)(struct trace *t);
	/* Which counters it reads (trace_warp_at, trace_warp_sums,
	 * trace_status): a step from the engine's records makes only
	 * those (doc/performance.md section 25.4). */
	enum {
		TRACE_NO_COUNTERS,  /* none: no pass over the warps */
		TRACE_COUNTERS,     /* the sums, the warps of wlist */
		TRACE_EVERY_K,      /* every warp's k besides */
	}	 counters;
};

/* A recorded step's counters over every warp (trace.c engine_sums). */
struct trace_step_sums {
	struct ref_summary	 sum;
	struct trace_warp_sums	 warps;
};

struct trace {
	const struct trace_fmt	*fmt;
	enum trace_format	 format;
	struct atomic_file	 af;
	uint32_t		 ncores;
	uint32_t		 width;       /* warp width */
	uint32_t		 nwarps;
	uint8_t			*cores;       /* per core: traced */
	uint32_t		*list;        /* the traced cores, ascending */
	uint32_t		 nlist;
	char			*cores_text;  /* as given, or the default's */
	uint8_t			*warps;       /* per warp: its own counters */
	uint32_t		*wlist;       /* those warps, ascending */
	uint32_t		 nwlist;
	int			 summary;     /* min/mean/max over all warps */
	enum level		 level;       /* at open */
	uint64_t		 first_step;  /* the step at open */
	uint64_t		 last_step;   /* the last step recorded */
	uint64_t		 records;     /* steps recorded */
	uint64_t		 marks;
	void			*st;          /* the format's own state */
	char			*obuf;        /* TRACE_OBUF bytes not yet written */
	size_t			 olen;
	/* trace_record_engine: the engine keeps records; per warp its k
	 * carried over the steps in which no lane of it ran; the machine
	 * the formats read a recorded step from, whose traced cores hold
	 * the step's registers (shadow_cores: per core, the traced ones
	 * filled) */
	int			 engine;
	uint32_t		*kcarry;
	struct core		*shadow_cores;
	/* at a micro level, the shadow machine's level state: the engine's
	 * control store over per-core side state (shadow_k: a struct
	 * mic1_core or struct pmic_core per core) whose traced cores hold
	 * the step's */
	struct mic1_state	 shadow_mic;
	struct pmic_state	 shadow_pmic;
	void			*shadow_k;
	/* per step of the last run's records, their counters */
	struct trace_step_sums	*sums;
	uint64_t		 nsums;
};

/* The counters the formats read per warp (trace_warps_begin), from the
 * engine's trace records or from the machine and the engine's warp
 * records. */
struct trace_warps {
	const struct engine_warp_record *rec;
	size_t			 nrec;
	int			 have_k;      /* the engine counts kernel paths */
};

extern const struct trace_fmt trace_fmt_perfetto, trace_fmt_vcd,
    trace_fmt_svg;

/* The program path of a lane (div.c: PC at the ISA level, MPC at a
 * micro level), as the warps' counters count them. */
static inline int
trace_by_mpc(const struct trace_view *v)
{
	return v->level != LEVEL_ISA;
}

/* Whether core is between two ISA instructions (always at the ISA
 * level): method frames change only there. */
int	trace_at_boundary(const struct trace_view *v, uint32_t core);
/* Before a step's warps: where their counters come from. */
void	trace_warps_begin(const struct trace_view *v, struct trace_warps *tw);
/* trace_warp_at from the machine (div.c) and the engine's warp records. */
int	trace_warp_machine(const struct trace_view *v,
	    const struct trace_warps *tw, uint32_t i, uint32_t *nactive,
	    uint32_t *npaths, uint32_t *k);
/* Warp i's active lanes and program paths, and in *k its kernel paths;
 * 1 when it has them (*k 0 otherwise).  Inline for the records: at a
 * million cores it runs 32,768 times a step (doc/performance.md 25.3). */
static inline int
trace_warp_at(const struct trace_view *v, const struct trace_warps *tw,
    uint32_t i, uint32_t *nactive, uint32_t *npaths, uint32_t *k)
{
	if (v->counts != NULL) {
		uint32_t c = v->counts->warp[(size_t)i * TB_WARP_WORDS +
		    TB_W_COUNTS];

		*nactive = c & 0xFF;
		*npaths = c >> 8 & 0xFF;
		*k = v->counts->k[i];
		return 1;
	}
	return trace_warp_machine(v, tw, i, nactive, npaths, k);
}
/* One warp's active lanes and paths into the sums over all warps (which
 * start as trace_sums_empty). */
static inline void
trace_sums_add(struct trace_warp_sums *s, uint32_t na, uint32_t np)
{
	s->active += na;
	s->paths += np;
	s->amin = na < s->amin ? na : s->amin;
	s->amax = na > s->amax ? na : s->amax;
	s->pmin = np < s->pmin ? np : s->pmin;
	s->pmax = np > s->pmax ? np : s->pmax;
}
static const struct trace_warp_sums trace_sums_empty = {
	.amin = UINT32_MAX, .pmin = UINT32_MAX,
};
/* The sums over every warp after the step: the records' (one pass with
 * their statuses, trace.c), else from the machine. */
void	trace_warp_sums(const struct trace_view *v,
	    const struct trace_warps *tw, struct trace_warp_sums *s);
/* The cores per status after the step (ref_count's; executed 0). */
void	trace_status(const struct trace_view *v, struct ref_summary *sum);
/*
 * Writing: the formats append to the trace's buffer, which goes to the
 * atomic file when full and when the trace closes.  A format writes
 * millions of small fields (a VCD value, a slice per micro-cycle), and a
 * stdio call per field was where a traced run spent most of its time
 * (doc/performance.md section 25).  A failed write is kept by the
 * atomic file and reported at trace_close.
 */
void	trace_flush(struct trace *t);

static inline void
trace_put(struct trace *t, const char *s, size_t n)
{
	if (t->olen + n > TRACE_OBUF) {
		trace_flush(t);
		if (n > TRACE_OBUF) {
			(void)atomic_write(&t->af, s, n);
			return;
		}
	}
	memcpy(t->obuf + t->olen, s, n);
	t->olen += n;
}

static inline void
trace_puts(struct trace *t, const char *s)
{
	trace_put(t, s, strlen(s));
}

static inline void
trace_putc(struct trace *t, char ch)
{
	if (t->olen == TRACE_OBUF)
		trace_flush(t);
	t->obuf[t->olen++] = ch;
}

/* A number in decimal. */
void	trace_putu(struct trace *t, uint64_t v);
void	trace_puti(struct trace *t, int32_t v);
/* printf into the buffer (fields that are rare: headers, counters). */
void	trace_putf(struct trace *t, const char *fmt, ...) PRINTFLIKE(2, 3);
/* A JSON string's body: quotes, backslashes and control bytes escaped. */
void	trace_json_text(struct trace *t, const char *s);

#endif
