# args: --engine ref --microcode mic1.mal --level mic --cores 2 sum.jas
# exit: 1
# next, finish and until at the micro level work on ISA instructions:
# next over an INVOKEVIRTUAL, finish out of a method (also from inside
# an instruction), until past a loop's back edge; nexti is a micro-cycle.
break loop
continue
next 3
next
next
next
next
info frame
delete
break add
continue
stepi 2
finish
nexti
until
until
info cores
