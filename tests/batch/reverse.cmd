# args: --engine ref --microcode mic1.mal --cores 2 sum.jas
# exit: 1
# Reverse execution (doc/manycore.md section 4): reverse-stepi, reverse-step
# and reverse-continue at the ISA and Mic-1 levels, going forward again
# after going back (the same stops, output shown once), watchpoints,
# conditions, the bound of set history-size, and what discards history
# (set var, input, set level, run).  batch.sh runs it again on the
# OpenCL engines: the transcript must not depend on the engine.
reverse-step
show history-size
break loop
continue
print $step
stepi 5
print $step
reverse-stepi 2
print $step
reverse-step
print $step
reverse-continue
print $step
reverse-continue
reverse-stepi
reverse-continue
continue
print $step
next
next
next
print $step
reverse-stepi 3
print $step
info history
reverse-stepi 100
reverse-stepi x
reverse-continue now
condition 1 i == 2
continue
print i
watch s
continue
continue
print $step
reverse-continue
print s
print $step
reverse-continue
print i
print $step
delete
continue
reverse-stepi 5
print $step
set var s = 7
reverse-step
info history
step
reverse-step
print s
set history-size 0
info history
step
reverse-step
set history-size 1
step 2
reverse-step 2
print $step
set level mic
reverse-stepi
stepi 9
step
print $step
reverse-step
print $step
reverse-stepi 2
print $step
stepi 2
print $step
break add
continue
stepi 3
reverse-continue
print $step
reverse-step 1000
run
reverse-stepi
