# args: --cores 2 --max-steps 60 sum.jas
# exit: 1
# Run control: scheduler-locking and the deadlock it can cause, step,
# stepi, next over a call, step into it, finish, until, until LOCATION,
# run (restart), the step limit, and the errors of these commands.
core 1
set scheduler-locking core
step 3
info cores
continue
set scheduler-locking warp
show scheduler-locking
step
set scheduler-locking off
step 2
stepi 2
si
print $step
info cores
break loop
continue
delete
next
next
next
list
step
bt
finish
next
until
until
until
until
until
until done
print $step
finish
step 0
step x
next 2
reverse-step
run
