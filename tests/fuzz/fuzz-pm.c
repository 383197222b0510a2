/*
 * Fuzz target: the PMIC language (pmc_compile, what pmic-cc runs).
 * Errors name the file; what compiles survives the .pmic format (write
 * -> parse gives the same store, written again the same bytes) and the
 * symbol-file format, and lists without trouble.
 */
#include "pmc.h"
#include "ucode-util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmic_store cs, q;
	struct mal_syms syms;
	struct mal_errors errs = { 0 };
	struct buf img = { 0 }, img2 = { 0 }, lst = { 0 };
	char *cause = NULL;

	memset(&syms, 0, sizeof syms);
	if (pmc_compile("fuzz.pm", (const char *)data, size, &cs, &syms,
	    &errs) != 0) {
		fuzz_check(errs.count > 0, "rejected without a message");
		for (size_t i = 0; i < errs.count; i++)
			fuzz_check_cause(errs.msg[i], "fuzz.pm");
		mal_errors_free(&errs);
		return 0;
	}
	pmic_store_write(&cs, &img);
	fuzz_check(img.len == PMIC_FILE_SIZE, "a .pmic of %zu bytes", img.len);
	if (pmic_store_parse(&q, "fuzz.pmic", img.data, img.len, &cause) != 0)
		fuzz_fail("written .pmic does not parse: %s", cause);
	fuzz_check(memcmp(&q, &cs, sizeof q) == 0,
	    "the store changed in the .pmic round trip");
	pmic_store_write(&q, &img2);
	fuzz_check(img.len == img2.len && memcmp(img.data, img2.data,
	    img.len) == 0, ".pmic differs when written again");
	check_syms_round_trip(&syms);
	pmc_listing(&cs, &syms, &lst);
	buf_free(&img);
	buf_free(&img2);
	buf_free(&lst);
	mal_syms_free(&syms);
	return 0;
}
