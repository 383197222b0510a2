# args: --engine ref ../../programs/parsum.jas
# list - by rows: a #print is one row whichever way list goes, so list -
# shows the ten rows before the last list's first, and list after it the
# rows that follow.
list 175
list -
list -
list
list
list -
quit
