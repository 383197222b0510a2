# args: --cores 4 sum.jas
# exit: 1
# Watchpoints on a global, a heap word and a local: old and new values,
# the cores that stored to the word, and a local's frame returning.
watch arr
watch total
continue
info heap
watch heap arr + 2 + 3
info break
delete 1
break add core 3
continue
watch local r
watch local nope
watch heap 5
continue
continue
delete 4
continue
continue
continue
continue
continue
info break
delete
continue
print total
x/6 arr
