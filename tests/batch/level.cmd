# args: --engine ref --microcode mic1.mal --cores 4 sum.jas
# set level at any time: ISA -> mic puts the cores at their boundary,
# mic -> ISA first runs the cores inside an instruction to their next
# boundary; watchpoints and the focus keep working across the switch.
info level
set level isa
set level mic
info level
info registers
break ready
continue
stepi 3
info cores
set level isa
info cores
print $pc
set level mic
delete
watch total
continue
continue
set level isa
continue
info break
set level mic
continue
info cores
