# args: --cores 4 faults.jas
# exit: 1
# Stops at faults (each faulting core named, with the fault and where),
# the focus moving to the faulted core, "all cores stopped", and
# set stop-on-fault off.
continue
info cores
bt
next
continue
continue
info cores
continue
run
set stop-on-fault off
show stop-on-fault
continue
