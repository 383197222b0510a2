# args: --cores 4 ../../programs/collatz.jas
# exit: 1
# gdb's frame selection: frame, up, down (and their errors at either end
# of the stack), info frame/locals/args of the selected frame, print
# reading locals in it, the selection going back to frame 0 at a stop and
# at a change of focus; set var of a local of the selected frame; info
# registers with register names; spelling suggestions.
break half
run
backtrace
frame
up
info locals
info args
print n
print steps + 1
set var steps = 41
print steps + 1
backtrace
watch steps
info break
delete 2
up
up 3
down
down
frame 1
info frame
info frame 0
frame 5
info frame 9
down 4
info args
info locals
up
continue
frame
up
core 0
frame
info registers pc sp
info registers 1 tos $lv
info registers pcx
info lcoals
info arg
info zzz
contineu
set schedulr-locking off
frobnicate
