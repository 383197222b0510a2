/*
 * Fuzz target: .mic1 control stores (mic1_store_parse, what micdb
 * --microcode and the debugger read).  A rejection names the file; a
 * store that parses writes back to the bytes it was read from, and each
 * of its words disassembles.
 */
#include "mic1.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mic1_store cs, q;
	struct buf img = { 0 }, img2 = { 0 };
	char *cause = NULL, text[160];

	if (mic1_store_parse(&cs, "fuzz.mic1", data, size, &cause) != 0) {
		fuzz_check_cause(cause, "fuzz.mic1");
		free(cause);
		return 0;
	}
	mic1_store_write(&cs, &img);
	if (mic1_store_parse(&q, "fuzz.mic1", img.data, img.len, &cause) != 0)
		fuzz_fail("written .mic1 does not parse: %s", cause);
	mic1_store_write(&q, &img2);
	fuzz_check(img.len == img2.len && memcmp(img.data, img2.data,
	    img.len) == 0, ".mic1 differs when written again");
	for (int a = 0; a < MIC1_STORE_WORDS; a++)
		if (cs.present[a]) {
			fuzz_check(q.word[a] == cs.word[a],
			    "word 0x%03x changed", a);
			mic1_disasm(cs.word[a], text, sizeof text);
			fuzz_check(text[0] != '\0', "word 0x%03x has no text",
			    a);
		}
	buf_free(&img);
	buf_free(&img2);
	return 0;
}
