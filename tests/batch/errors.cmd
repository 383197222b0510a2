# args: --cores 4 sum.jas
# exit: 1
# Mistakes at the prompt: each is one line that says what is wrong and
# what to do, and the session goes on (a screen command says it works on
# the screen only).  Also the help texts.
co
frobnicate
brek loop
info regs
info zzz
info
set
set frobnicate on
break lop
break loop core 4
break loop core 2-1
break loop core x
break loop if
break loop core
break *0x1a
break *0x1000
break 999
break other.jas:3
break mpc Main2
break loop
delete 7
delete 2-5
delete x
disable 9
condition
condition x TOS == 1
ignore 1
ignore 1 many
watch
watch nosuch
watch global[x]
watch heap
watch local
set level
set level mac
set level isa
set scheduler-locking sometimes
set stop-on-fault maybe
core x
core 1 2
warp x
lane
info lanes 9
info registers 4
info cores 9
bt 0
p/q 1
finish x
run now
until nosuch
x/2 nosuch
help brak
help info
help info warps
help set var
help
break sum.jas:0
set var global[65536] = 1
set var local[-1] = 2
layout warps
fs code
warp 3 lane 0
quit
print "never run"
