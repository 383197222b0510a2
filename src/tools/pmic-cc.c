/*
 * pmic-cc: compile a PMIC microprogram into a .pmic control store
 * (doc/pmic.md, man/pmic-cc.1), with an optional listing and symbol file
 * for the debugger.  Exit 0 on success, 1 when the source has errors (all
 * of them printed, one "file:line:column: message" per line) or an
 * output cannot be written, 2 on bad usage.
 */
#include "ucode-cli.h"

static const char usage[] =
"usage: pmic-cc FILE.pm [-o OUT.pmic] [-l[LISTING]] [-s SYMBOLS]\n"
"Compile a PMIC microprogram into a PMIC control store (default:\n"
"FILE.pmic).  Errors are printed as FILE:LINE:COLUMN: MESSAGE, all of\n"
"them; the exit status is 1 then, 2 on bad usage.\n"
"\n"
"  -o, --output OUT     write the control store to OUT ('-' for standard\n"
"                       output)\n"
"  -l, --listing[=FILE] write a listing (to standard output, or to FILE):\n"
"                       address, the four 32-bit words, source line,\n"
"                       label and micro-instruction of every word\n"
"  -s, --symbols FILE   write the symbol file the debugger reads (labels,\n"
"                       source lines and PMIC text by address)\n"
"  -h, --help           show this help\n";

const struct ucode_cli ucode_tool = {
	"pmic-cc", usage, ".pm", ".pmic", 1, LEVEL_PMIC
};
