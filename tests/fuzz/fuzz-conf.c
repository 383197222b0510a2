/*
 * Fuzz target: instruction-set configuration files
 * (ijvm_opset_load_config).  A rejection is "fuzz.conf:LINE:COL:
 * message"; an accepted set is consistent (every present opcode is
 * found again by its mnemonic) and assembles, disassembles and
 * reassembles a program that uses each of its instructions without
 * operands.
 */
#include "ijvm-util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ijvm_opset set;
	char *cause = NULL;
	struct buf src = { 0 };
	struct program p;
	struct asm_errors errs = { 0 };

	ijvm_opset_init(&set);
	if (ijvm_opset_load_config(&set, "fuzz.conf", (const char *)data,
	    size, &cause) != 0) {
		fuzz_check_cause(cause, "fuzz.conf");
		free(cause);
		ijvm_opset_free(&set);
		return 0;
	}
	buf_printf(&src, ".main\n");
	for (int op = 0; op < 256; op++) {
		const struct ijvm_opinfo *info;

		if (!set.present[op])
			continue;
		info = ijvm_opset_get(&set, (uint8_t)op);
		fuzz_check(info != NULL && info->opcode == op,
		    "opcode 0x%02x is present but not found", op);
		fuzz_check(info->name != NULL && info->name[0] != '\0',
		    "opcode 0x%02x has no mnemonic", op);
		fuzz_check(ijvm_opset_find(&set, info->name) != NULL,
		    "mnemonic %s is not found", info->name);
		if (!info->builtin && info->noperands == 0)
			buf_printf(&src, "  %s\n", info->name);
	}
	buf_printf(&src, "  HALT\n.end-main\n");
	if (asm_assemble("fuzz.jas", (const char *)src.data, src.len, &set,
	    &p, &errs) == 0) {
		check_disassembly(&p, &set);
		program_free(&p);
	} else {
		for (size_t i = 0; i < errs.count; i++)
			fuzz_check_cause(errs.msg[i], "fuzz.jas");
		asm_errors_free(&errs);
	}
	buf_free(&src);
	ijvm_opset_free(&set);
	return 0;
}
