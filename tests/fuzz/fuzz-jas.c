/*
 * Fuzz target: the .jas assembler.  Every error is "fuzz.jas:LINE:COL:
 * message"; what assembles disassembles to text that assembles to the
 * same bytes (assemble -> disassemble -> assemble), writes back through
 * the .ijvm format unchanged, and runs a bounded number of steps.
 */
#include "ijvm-util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct program p;
	struct asm_errors errs = { 0 };

	if (asm_assemble("fuzz.jas", (const char *)data, size, NULL, &p,
	    &errs) != 0) {
		fuzz_check(errs.count > 0, "rejected without a message");
		for (size_t i = 0; i < errs.count; i++)
			fuzz_check_cause(errs.msg[i], "fuzz.jas");
		asm_errors_free(&errs);
		return 0;
	}
	fuzz_check(errs.count == 0, "assembled with errors");
	check_disassembly(&p, NULL);
	check_write_back(&p);
	check_bounded_run(&p);
	program_free(&p);
	return 0;
}
