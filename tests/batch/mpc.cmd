# args: --engine ref --microcode mic1.mal --cores 4 sum.jas
# exit: 1
# MPC breakpoints: set at the ISA level (they wait for the micro level),
# by label and by address, on a core set, temporary, with conditions,
# disabled, deleted, ignored; listed with their kind.  PC breakpoints
# keep working at the micro level and stop at the instruction boundary.
break mpc barrier2
tbreak mpc 0xf2 core 1-2
break mpc Mian1
break mpc 512
break mpc
break ready core 3
info break
continue
set level mic
continue
continue
info break
condition 1 $core == 0
continue
print $core
print $mpc
info break
ignore 1 1
break add
run
info level
info break
continue
info registers
step
disable 1 4
tbreak mpc ireturn1 if $core == 2
continue
print $core
step
info break
delete
continue
break mpc zzzzqqqqxxxx
list mpc Main1
