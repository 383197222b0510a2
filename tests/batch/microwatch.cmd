# args: --cores 5 --level mic sum.jas
# Watchpoints at the micro levels, where the native engines stop after
# the micro-cycle that changed a watched word themselves and the
# reference engine is stepped one micro-cycle per call (batch.sh runs
# this script on both): at Mic-1 globals, a heap word, a local of core 4
# and its frame returning, with the writers; at PMIC, which names no
# writer, the same kinds again.
watch arr
watch total
continue
watch heap arr + 2 + 4
break add core 4
continue
watch local r
continue
continue
delete 2 4
continue
delete
set level pmic
break ready
run
delete
watch arr
watch total
continue
watch heap arr + 2 + 3
break add core 1
continue
watch local r
continue
continue
delete 10
continue
continue
continue
continue
continue
info break
