/*
 * Fuzz target: the .ijvm loader (program_load_ijvm), then, for what
 * loads, the write-back round trip, the disassembly round trip and a
 * bounded run on the reference interpreter.  A rejection names the file.
 */
#include "ijvm-util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct program p;
	char *cause = NULL;

	if (program_load_ijvm(&p, "fuzz.ijvm", data, size, &cause) != 0) {
		fuzz_check_cause(cause, "fuzz.ijvm");
		free(cause);
		return 0;
	}
	check_write_back(&p);
	check_disassembly(&p, NULL);
	check_bounded_run(&p);
	program_free(&p);
	return 0;
}
