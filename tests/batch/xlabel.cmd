# args: --cores 4 ../../programs/collatz.jas
# A bare label after x (x/i, x/b) resolves as break, until and list
# resolve it: in the selected frame's method first (collatz has loop in
# main, half and pow10), so x/2i loop in half shows half#loop.
break half
run
x/2i loop
x/2xb loop
list loop
up
x/1i loop
down
x/1i half
