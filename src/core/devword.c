/*
 * Device words and the word access of the micro levels (devword.h).
 *
 * Non-negative addresses are memory and go through machine_read_word/
 * machine_write_word; negative ones are device words.  Every level steps
 * one core at a time on the host, so the atomic add is atomic for free.
 */
#include "devword.h"
#include "ijvm.h"

/* Device words a READ may name. */
static int
devword_readable(int32_t addr)
{
	switch (addr) {
	case MM_DEV_CONSOLE:
	case MM_DEV_COREID:
	case MM_DEV_NCORES:
	case MM_DEV_NEWARRAY:
	case MM_DEV_ATOM_ADD:
	case MM_DEV_GLOBALS:
	case MM_DEV_MAIN_LOCALS:
	case MM_DEV_TEXT_SIZE:
		return 1;
	default:
		return 0;
	}
}

int
devword_read_check(const struct machine *m, uint32_t core, int32_t addr)
{
	int32_t dummy;

	if (addr < 0)
		return devword_readable(addr) ? FAULT_NONE : FAULT_MEM_RANGE;
	return machine_read_word(m, core, addr, &dummy);
}

int32_t
devword_read(struct machine *m, uint32_t core, const struct dev_latch *d,
    int32_t addr)
{
	int32_t v = 0;

	switch (addr) {
	case MM_DEV_CONSOLE:
		return devword_console_in(m, core);
	case MM_DEV_COREID:
		return (int32_t)core;
	case MM_DEV_NCORES:
		return (int32_t)m->cfg.ncores;
	case MM_DEV_NEWARRAY:
		return d->new_ref;
	case MM_DEV_ATOM_ADD:
		return d->atom_old;
	case MM_DEV_GLOBALS:
		return MM_GLOBALS_BASE;
	case MM_DEV_MAIN_LOCALS:
		return (int32_t)m->progs[m->cores[core].prog]->main_nlocals;
	case MM_DEV_TEXT_SIZE:
		return (int32_t)m->progs[m->cores[core].prog]->text_size;
	default:
		/* Checked at issue; the map does not change in between. */
		(void)machine_read_word(m, core, addr, &v);
		return v;
	}
}

int
devword_read_now(struct machine *m, uint32_t core, const struct dev_latch *d,
    int32_t addr, int32_t *v)
{
	int fault = devword_read_check(m, core, addr);

	if (fault != FAULT_NONE)
		return fault;
	*v = devword_read(m, core, d, addr);
	return FAULT_NONE;
}

int
devword_write(struct machine *m, uint32_t core, struct dev_latch *d,
    int32_t addr, int32_t v)
{
	struct core *c = &m->cores[core];
	int32_t old, ref;
	int fault = FAULT_NONE;

	if (addr >= 0) {
		fault = machine_write_word(m, core, addr, v);
		if (fault == FAULT_MEM_RANGE && addr >= MM_STACK_BASE +
		    (int64_t)m->cfg.stack_words && addr < MM_GLOBALS_BASE)
			fault = FAULT_STACK_OVERFLOW;
		return fault;
	}
	switch (addr) {
	case MM_DEV_HALT:
		c->status = CORE_HALTED;
		return FAULT_NONE;
	case MM_DEV_ERROR:
		/* The value names the fault, so that a microprogram's
		 * checks report what the ISA level would ("array index out
		 * of bounds"); anything else is the device's own code. */
		return v > FAULT_NONE && v < FAULT_COUNT ? v :
		    FAULT_ERR_DEVICE;
	case MM_DEV_CONSOLE:
		devword_console_out(m, core, v);
		return FAULT_NONE;
	case MM_DEV_BARRIER:
		c->status = CORE_WAITING;
		return FAULT_NONE;
	case MM_DEV_NEWARRAY:
		ref = machine_new_array(m, v, &fault);
		if (fault == FAULT_NONE)
			d->new_ref = ref;
		return fault;
	case MM_DEV_ATOM_ADDR:
		d->atom_addr = v;
		return FAULT_NONE;
	case MM_DEV_ATOM_ADD:
		fault = devword_atomic_add(m, core, d->atom_addr, v, &old);
		if (fault == FAULT_NONE)
			d->atom_old = old;
		return fault;
	default:
		return FAULT_MEM_RANGE;	/* read-only or no device */
	}
}

int32_t *
devword_write_span(struct machine *m, uint32_t core,
    const struct dev_latch *d, int32_t addr, int32_t v, uint32_t *n)
{
	int32_t *w;
	int writable;

	*n = 0;
	switch (addr) {
	case MM_DEV_NEWARRAY:
		/* machine_new_array's words, wherever it stops */
		if (v < 0 || m->heap_top >= m->cfg.heap_words)
			return NULL;
		*n = m->cfg.heap_words - m->heap_top;
		if ((uint64_t)v + MM_ARRAY_HDR < *n)
			*n = (uint32_t)v + MM_ARRAY_HDR;
		return &m->heap[m->heap_top];
	case MM_DEV_ATOM_ADD:
		addr = d->atom_addr;
		break;
	default:
		if (addr < 0)
			return NULL;
		break;
	}
	w = machine_word_at(m, core, addr, &writable);
	if (w == NULL || !writable)
		return NULL;
	*n = 1;
	return w;
}

int32_t
devword_console_in(struct machine *m, uint32_t core)
{
	int in = machine_take_input(m, core);

	return in < 0 ? 0 : in;
}

void
devword_console_out(struct machine *m, uint32_t core, int32_t v)
{
	buf_put_u8(&m->io[core].out, (uint8_t)v);
}

int
devword_atomic_add(struct machine *m, uint32_t core, int32_t addr,
    int32_t v, int32_t *old)
{
	int fault;

	if ((fault = machine_read_word(m, core, addr, old)) != FAULT_NONE)
		return fault;
	return machine_write_word(m, core, addr,
	    (int32_t)((uint32_t)*old + (uint32_t)v));
}
