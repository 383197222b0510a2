/*
 * Fuzz target: .pmic control stores (pmic_store_parse).  A rejection
 * names the file; a store that parses is written back to the same
 * store, and each of its micro-instructions disassembles.
 */
#include "pmic.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmic_store cs, q;
	struct buf img = { 0 }, img2 = { 0 };
	char *cause = NULL, text[256];

	if (pmic_store_parse(&cs, "fuzz.pmic", data, size, &cause) != 0) {
		fuzz_check_cause(cause, "fuzz.pmic");
		free(cause);
		return 0;
	}
	pmic_store_write(&cs, &img);
	if (pmic_store_parse(&q, "fuzz.pmic", img.data, img.len, &cause) != 0)
		fuzz_fail("written .pmic does not parse: %s", cause);
	fuzz_check(memcmp(&q, &cs, sizeof q) == 0,
	    "the store changed in the round trip");
	pmic_store_write(&q, &img2);
	fuzz_check(img.len == img2.len && memcmp(img.data, img2.data,
	    img.len) == 0, ".pmic differs when written again");
	for (int a = 0; a < PMIC_STORE_WORDS; a++)
		if (pmic_present(&cs, (uint32_t)a)) {
			pmic_disasm(&cs.mi[a], text, sizeof text);
			fuzz_check(text[0] != '\0', "word 0x%03x has no text",
			    a);
		}
	buf_free(&img);
	buf_free(&img2);
	return 0;
}
