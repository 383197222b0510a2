/*
 * Fuzz target: MAL (mal_assemble_warn, what mic1-as runs).  Errors and
 * warnings name the file; what assembles survives the .mic1 format
 * (write -> parse gives the same store, written again the same bytes)
 * and the symbol-file format, and lists without trouble.
 */
#include "ucode-util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mic1_store cs, q;
	struct mal_syms syms;
	struct mal_errors errs = { 0 }, warns = { 0 };
	struct buf img = { 0 }, img2 = { 0 }, lst = { 0 };
	char *cause = NULL;

	memset(&syms, 0, sizeof syms);
	if (mal_assemble_warn("fuzz.mal", (const char *)data, size, &cs,
	    &syms, &errs, &warns) != 0) {
		fuzz_check(errs.count > 0, "rejected without a message");
		for (size_t i = 0; i < errs.count; i++)
			fuzz_check_cause(errs.msg[i], "fuzz.mal");
		for (size_t i = 0; i < warns.count; i++)
			fuzz_check_cause(warns.msg[i], "fuzz.mal");
		mal_errors_free(&errs);
		mal_errors_free(&warns);
		return 0;
	}
	for (size_t i = 0; i < warns.count; i++)
		fuzz_check_cause(warns.msg[i], "fuzz.mal");
	mal_errors_free(&warns);
	mic1_store_write(&cs, &img);
	fuzz_check(img.len == MIC1_FILE_SIZE, "a .mic1 of %zu bytes", img.len);
	if (mic1_store_parse(&q, "fuzz.mic1", img.data, img.len, &cause) != 0)
		fuzz_fail("written .mic1 does not parse: %s", cause);
	for (int a = 0; a < MIC1_STORE_WORDS; a++) {
		fuzz_check(q.present[a] == cs.present[a],
		    "word 0x%03x presence changed", a);
		fuzz_check(!cs.present[a] || q.word[a] == cs.word[a],
		    "word 0x%03x changed in the .mic1 round trip", a);
	}
	mic1_store_write(&q, &img2);
	fuzz_check(img.len == img2.len && memcmp(img.data, img2.data,
	    img.len) == 0, ".mic1 differs when written again");
	check_syms_round_trip(&syms);
	mal_listing(&cs, &syms, &lst);
	buf_free(&img);
	buf_free(&img2);
	buf_free(&lst);
	mal_syms_free(&syms);
	return 0;
}
