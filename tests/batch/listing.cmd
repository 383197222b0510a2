# args: faults.jas
# exit: 1
# Listings keep the source: #print is one row as the source wrote it
# (=> on it while the PC is inside its expansion, B for a breakpoint on
# any of its instructions), x/i shows the BIPUSH/OUT pairs behind it and
# names the directive at its first instruction; a local holding an
# array reference indexes like a global one.
list *0x0012
x/5i 0x0012
x/2i oob
x/2i nosuch
break *0x0017
continue
list
x/3i $pc
print a[1]
print a[2]
info heap
