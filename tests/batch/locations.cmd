# args: --cores 2 ../../programs/collatz.jas
# Every form of location: label, METHOD#LABEL, method, LINE, FILE:LINE,
# *ADDR, none (the focused core's PC), and a label that several methods
# define (resolved by the focused core's method, else one breakpoint on
# all of them; ambiguous.cmd has the rest of that case).
break loop
break 1
break collatz.jas:62
break *0x0037
break half
break pow10#loop
info break
delete
break print_int
continue
break loop
break
info break
list print_int
