# args: --engine ref --level isa --fork-join --cores 4 ../../programs/forksum.jas
# The fork-join model (doc/manycore.md section 1): info cores names the
# cores inside their forked method and those waiting at the join, which
# completes in the step after which no core runs; set level and
# reverse-stepi work across it, and the machine's result is the same.
break part
continue
info cores
delete
break forksum.jas:159
continue
stepi
info cores
set level mic
info cores
continue
set level isa
continue
continue
info cores
stepi
info cores
reverse-stepi
info cores
set level pmic
delete
continue
info cores
