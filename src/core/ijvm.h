/*
 * IJVM instruction definitions, expanded from ijvm-ops.def, and the
 * instruction-set object that the assembler and disassembler use.
 *
 * The built-in set is exactly the .def table.  An instruction-set
 * configuration file (doc/ijvm.md section 4) layers user instructions on top:
 * those only change how programs are encoded and shown; the ISA-level
 * interpreters still know only the built-in semantics.
 */
#ifndef MICDB_IJVM_H
#define MICDB_IJVM_H

#include <stddef.h>
#include <stdint.h>

enum ijvm_op {
#define IJVM_OP(sym, code, k1, k2, pops, pushes, cls, desc) OP_##sym = code,
#include "ijvm-ops.def"
#undef IJVM_OP
};

/* Operand kinds.  Config-file spellings: byte, varnum (var), label,
 * offset (method), index (constant), const, global. */
enum ijvm_opk {
	OPK_NONE,
	OPK_BYTE,    /* signed 8-bit immediate (BIPUSH) */
	OPK_CONST,   /* signed 8-bit constant (IINC's increment) */
	OPK_VARNUM,  /* local index: 8 bits, 16 after WIDE */
	OPK_LABEL,   /* signed 16-bit branch offset from the opcode's address */
	OPK_INDEX,   /* unsigned 16-bit constant-pool index of a constant */
	OPK_METHOD,  /* unsigned 16-bit constant-pool index of a method */
	OPK_GLOBAL,  /* unsigned 16-bit global slot */
};

enum ijvm_opclass {
	OPC_MISC, OPC_PUSH, OPC_LOCAL, OPC_STACK, OPC_ALU, OPC_BRANCH,
	OPC_CALL, OPC_GLOBAL, OPC_PREFIX, OPC_ARRAY, OPC_CORE, OPC_IO,
	OPC_STOP, OPC_CUSTOM,
};

#define IJVM_MAX_OPERANDS 3

struct ijvm_opinfo {
	const char	*name;      /* mnemonic, upper case */
	uint8_t		 opcode;
	uint8_t		 noperands;
	uint8_t		 kind[IJVM_MAX_OPERANDS]; /* enum ijvm_opk */
	uint8_t		 pops;      /* see ijvm-ops.def */
	uint8_t		 pushes;
	uint8_t		 cls;       /* enum ijvm_opclass */
	uint8_t		 builtin;   /* 1: from the .def table, 0: from a config file */
	const char	*desc;
};

/* The built-in table, indexed by opcode; NULL where no instruction is. */
const struct ijvm_opinfo *ijvm_builtin(uint8_t opcode);

/* Size in bytes of an operand kind; wide applies to OPK_VARNUM. */
int ijvm_opk_size(enum ijvm_opk kind, int wide);
/* Bytes an instruction takes, opcode included (without a WIDE prefix). */
int ijvm_insn_size(const struct ijvm_opinfo *info, int wide);
/* Config-file spelling of a kind, and the reverse (-1 if unknown). */
const char *ijvm_opk_name(enum ijvm_opk kind);
int ijvm_opk_parse(const char *word);

/*
 * An instruction set: the built-in table plus user instructions.  Owns the
 * user entries' strings.
 */
struct ijvm_opset {
	struct ijvm_opinfo	 op[256];
	uint8_t			 present[256];
};

/* The built-in set. */
void ijvm_opset_init(struct ijvm_opset *set);
/*
 * Apply a configuration file's text on top of set.  On error returns -1
 * and sets *cause to "file:line:column: message" (malloc'd); all lines
 * are checked and the first error is returned.
 */
int ijvm_opset_load_config(struct ijvm_opset *set, const char *path,
    const char *text, size_t len, char **cause);
void ijvm_opset_free(struct ijvm_opset *set);
/* Look up a mnemonic, case-insensitively; NULL if none. */
const struct ijvm_opinfo *ijvm_opset_find(const struct ijvm_opset *set,
    const char *mnemonic);
const struct ijvm_opinfo *ijvm_opset_get(const struct ijvm_opset *set,
    uint8_t opcode);

/* Fault codes, from faults.def. */
enum ijvm_fault {
#define FAULT(sym, code, msg) FAULT_##sym = code,
#include "faults.def"
#undef FAULT
	FAULT_COUNT
};
const char *ijvm_fault_message(int fault);
const char *ijvm_fault_name(int fault);

#endif
