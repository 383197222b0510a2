# args: --engine ref --cores 4096 ../../programs/collatz.jas
# A large machine: reports abbreviate core lists, info cores summarises
# runs of cores and stops after 40 lines, info warps shows the warps
# around the focus.
break even core 1000-1999 if $core % 3 == 0
continue
info cores 990-1010
step 25
info cores
core 2000
info warps
info divergence
info lanes
