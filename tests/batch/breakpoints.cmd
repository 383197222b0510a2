# args: --cores 32 ../../programs/collatz.jas
# Breakpoints on a label for a core set: every core that hits is named,
# hit counts, tbreak, ignore, continue N, disable/enable, delete; info
# watchpoints lists the watchpoints alone, as gdb does.
break loop core 8-15
tbreak finished
info break
continue
info cores 6-17
continue
info break
continue
disable 1
tbreak counted core 20
continue
info break
enable 1
ignore 1 2
continue
continue 3
info break
delete 1
break half#loop core 26 if n > 1000
info break
continue
print n
delete
info break
info watchpoints
watch local value
break loop
info watchpoints
