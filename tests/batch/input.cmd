# args: --input ../../programs/echo.input ../../programs/echo.jas
# exit: 1
# Console input: --input for core 0 (given again by run), the input
# command with C escapes, raw output on a one-core machine, and set var
# PC to go round the loop again.
continue
run
break end_of_input
run
delete
input 0 "more\tinput\x21\n"
step
set var PC = 0
info registers
continue
input 1 "x"
input 0 x
input 0 "\q"
input
