# args: --engine ref ../../programs/collatz.jas
# exit: 1
# gdb's way of going on: x alone after an x (its count, format and unit),
# x/N with a new count in the last format, list - before the last list,
# and their errors where nothing came before or the method starts.
x
list -
x/2xw $sp
x
x/3i $pc
x/2
x/1xb 0
x
list loop
list -
list -
list
quit
