# args: --cores 4 ../../programs/collatz.jas
# exit: 1
# A label several methods define (collatz has loop in main, half and
# pow10): the selected frame's method first, else one breakpoint with all
# the locations (gdb's N.M rows, enable/disable N.M, the location in the
# hit report); hits and ignore count the same unit (steps, not cores).
break main#loop
ignore 1 1
continue
info break
delete
break half
continue
break loop
up
break loop
info break
delete
break print_int
continue
break loop
info break
disable 6.1
info break
continue
enable 6.1
info break
disable 6.4
disable 6.x
disable 8.1
