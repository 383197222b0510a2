# args: --cores 4 sum.jas
# exit: 1
# Conditional breakpoints: on $core, on TOS, on locals by name, errors
# while evaluating a condition, and conditions that name nothing.
break add if $core % 2 == 0
continue
print $core
info break
condition 1 10 / (b - 2) == 10
continue
info break
delete
break sum.jas:39 if TOS == 6
continue
info cores
delete
break add if b == 4 && $core == 3
continue
print a + b
finish
delete
break loop if nosuch == 1
break loop if r == 1
condition 99 TOS == 1
continue
continue
