/*
 * Fuzz target: symbol files (mal_syms_parse, the FILE.sym that mic1-as
 * and pmic-cc -s write and micdb reads beside a store).  A rejection
 * names the file; what parses survives write -> parse -> write, and its
 * lookups agree with its entries.
 */
#include "ucode-util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mal_syms syms;
	char *cause = NULL;

	memset(&syms, 0, sizeof syms);
	if (mal_syms_parse(&syms, "fuzz.sym", (const char *)data, size,
	    &cause) != 0) {
		fuzz_check_cause(cause, "fuzz.sym");
		free(cause);
		return 0;
	}
	check_syms_round_trip(&syms);
	for (size_t i = 0; i < syms.n; i++) {
		const struct mal_sym *s = mal_syms_at(&syms, syms.sym[i].addr);
		uint32_t addr;

		fuzz_check(s != NULL && s->addr == syms.sym[i].addr,
		    "entry 0x%03x not found by address", syms.sym[i].addr);
		if (syms.sym[i].label != NULL && !syms.sym[i].is_default)
			fuzz_check(mal_syms_find(&syms, syms.sym[i].label,
			    &addr) == 0, "label %s not found",
			    syms.sym[i].label);
	}
	mal_syms_free(&syms);
	return 0;
}
