# args: --cores 8 ../../programs/collatz.jas
# exit: 1
# display/undisplay/info display: numbered, shown after every stop in
# gdb's shape (after a reverse stop too), with print's formats and x's
# (display/i $pc shows x/i under "N: x/i $pc");
# enable/disable display; errors.
info display
break half
run
display n
display/x n
display
info display
continue
disable display 1
info display
continue
enable display 1
undisplay 2
continue
up
display steps
continue
reverse-stepi
display nosuch
undisplay 7
undisplay x
delete display 1
info display
undisplay
info display
display/i $pc
display/2xw $sp
step
info display
display/q n
