# args: --engine ref --cores 2 --program ../../programs/hello.jas:0 --program ../../programs/fib.jas:1
# exit: 1
# x alone after the focus moved to a core of another program: code x is
# refused (its address would be in the other text), data x goes on.
x/2i 0
core 1
x
x/2i 0
x
x/1xw $sp
core 0
x
quit
