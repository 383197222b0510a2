/*
 * Inside the trace writer (trace.h): what trace.c keeps for every format
 * and the hooks each format file (trace-perfetto.c, trace-vcd.c, the
 * JSON lines of trace.c) fills in.  Not for use outside src/dbg/trace*.c.
 */
#ifndef MICDB_TRACE_INT_H
#define MICDB_TRACE_INT_H

#include <stdio.h>

#include "trace.h"

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
	int			 summary;     /* min/mean/max over all warps */
	enum level		 level;       /* at open */
	uint64_t		 first_step;  /* the step at open */
	uint64_t		 last_step;   /* the last step recorded */
	uint64_t		 records;     /* steps recorded */
	uint64_t		 marks;
	void			*st;          /* the format's own state */
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
/* A JSON string's body: quotes, backslashes and control bytes escaped. */
void	trace_json_text(FILE *f, const char *s);

#endif
