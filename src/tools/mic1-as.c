/*
 * mic1-as: assemble a MAL microprogram into a .mic1 control store
 * (doc/mic1.md sections 2 and 3), with an optional listing and symbol file
 * for the debugger.  Exit 0 on success, 1 when the source has errors (all
 * of them printed, one "file:line:column: message" per line) or an
 * output cannot be written, 2 on bad usage.
 */
#include "ucode-cli.h"

static const char usage[] =
"usage: mic1-as FILE.mal [-o OUT.mic1] [-l LISTING] [-s SYMBOLS]\n"
"Assemble a MAL microprogram into a Mic-1 control store (default:\n"
"FILE.mic1).\n"
"\n"
"  -o, --output OUT     write the control store to OUT ('-' for standard\n"
"                       output)\n"
"  -l, --listing FILE   write a listing: address, 36-bit word, source line,\n"
"                       label and statement of every word\n"
"  -s, --symbols FILE   write the symbol file the debugger reads (labels,\n"
"                       source lines and MAL text by address)\n"
"  -h, --help           show this help\n";

const struct ucode_cli ucode_tool = {
	"mic1-as", usage, ".mal", ".mic1", 0, LEVEL_MIC
};
