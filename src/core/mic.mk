# Micro-architecture level build rules (MAL assembler, Mic-1 simulator).
