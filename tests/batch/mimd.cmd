# args: --cores 4 --program ../../programs/mimd_producer.jas:0-0 --program ../../programs/mimd_consumer.jas:1-3
# Several programs (MIMD): a label resolves in every program that has
# it, a core set is cut to the cores of each program, FILE:LINE picks
# one program, globals are shared.
info cores
break print_int
break print_int core 2-3
break mimd_consumer.jas:43
info break
delete 1
continue
info cores
print total
delete 3
continue
info break
delete
watch total
continue
continue
delete
continue
print total
