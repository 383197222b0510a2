/*
 * Loading a program by its file name: a .jas source is assembled
 * (asm.c), anything else is read as an .ijvm image (program.c).  Here,
 * above both, so that the image loader below does not call up into the
 * assembler that calls it.
 */
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "program.h"
#include "util.h"

int
program_load_file(struct program *prog, const char *path, char **cause)
{
	uint8_t *data;
	size_t len;
	int rc;

	if (read_file(path, &data, &len, cause) != 0)
		return -1;
	if (ends_with(path, ".jas")) {
		struct asm_errors errs = { 0 };
		struct buf b = { 0 };

		rc = asm_assemble(path, (const char *)data, len, NULL, prog,
		    &errs);
		if (rc != 0) {
			for (size_t i = 0; i < errs.count; i++)
				buf_printf(&b, "%s%s", i ? "\n" : "",
				    errs.msg[i]);
			buf_put_u8(&b, 0);
			*cause = (char *)b.data;
			asm_errors_free(&errs);
		} else
			prog->main_nlocals = program_main_nlocals(prog);
	} else
		rc = program_load_ijvm(prog, path, data, len, cause);
	free(data);
	return rc;
}
