/*
 * The memory map of every execution level (doc/mic1.md section 4).  Word
 * addresses unless a name says BYTE.  Only macros, so that the OpenCL
 * kernels include the same file as the host.
 *
 * Every level shares this one layout so that a switch between levels moves
 * no data: the text and constant pool belong to a program (MIMD machines
 * have several), the stack region to a core, the globals and the heap to
 * the whole machine.
 */
#ifndef MICDB_MEMMAP_H
#define MICDB_MEMMAP_H

#define MM_CPP            0x4000      /* constant pool, word address */
#define MM_CP_BYTE        0x10000     /* the same, as a byte address (.ijvm origin) */
#define MM_STACK_BASE     0x8000      /* first word of every core's private stack */
#define MM_GLOBALS_BASE   0x100000    /* shared globals */
#define MM_GLOBALS_WORDS  65536
#define MM_HEAP_BASE      0x200000    /* shared heap (arrays) */

/* Heap arrays: two header words, then the elements.  A reference is the
 * word address of the tag, so a reference can be checked for being an
 * array without a side table that the micro levels would have to mirror. */
#define MM_ARRAY_TAG      0x41525259  /* "ARRY" */
#define MM_ARRAY_HDR      2           /* tag, length */

/* Device words (negative word addresses, per core). */
#define MM_DEV_HALT       (-1)
#define MM_DEV_ERROR      (-2)
#define MM_DEV_CONSOLE    (-3)
#define MM_DEV_COREID     (-4)
#define MM_DEV_NCORES     (-5)
#define MM_DEV_BARRIER    (-6)
#define MM_DEV_NEWARRAY   (-7)
#define MM_DEV_ATOM_ADDR  (-8)
#define MM_DEV_ATOM_ADD   (-9)
#define MM_DEV_GLOBALS    (-10)
/* Extensions of doc/mic1.md's table, read-only constants of the core's
 * program: the ISA level checks local indices and operand-stack
 * underflow against main's frame and method addresses against the text,
 * and a microprogram cannot learn either from the registers. */
#define MM_DEV_MAIN_LOCALS (-11)      /* words reserved for main's locals */
#define MM_DEV_TEXT_SIZE  (-12)       /* bytes of the method area */

/* Defaults the command line can change. */
#define MM_DEFAULT_STACK_WORDS  4096
#define MM_DEFAULT_HEAP_WORDS   (1 << 20)
#define MM_MAX_STACK_WORDS      (MM_GLOBALS_BASE - MM_STACK_BASE)
#define MM_MAX_HEAP_WORDS       (1 << 26)

#endif
