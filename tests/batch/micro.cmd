# args: --engine ref --microcode mic1.mal --level mic --cores 4 sum.jas
# The micro level from the start: info level, micro-steps (stepi, si,
# ustep), ISA steps that run to the focused core's next boundary, the
# registers with the micro-instruction at MPC decoded, $mpc and friends,
# stop reports that name the micro-instruction and the instruction.
info level
show level
info registers
stepi
si 2
ustep
info registers
step
step 3
print $mpc
print $mbr
print $mar
print $mdr
print $h
print $opc
print $n
print $z
print/x $mpc
stepi 4
info registers 2
nexti
next
core 2
step
info cores
info warps
info lanes
info divergence
continue
