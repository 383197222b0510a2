# args: --engine ref --cores 40 --warp-width 8 ../../programs/collatz.jas
# exit: 1
# Focus, cuda-gdb style (core N, warp W lane L, lane L) and the views of
# warps, lanes, divergence and cores around it.
core
core 12
warp 3
warp 3 lane 5
lane 2
lane
warp
step 40
info warps
info warps 1-2
info lanes
info lanes 4
info divergence
info cores
print $warp * 8 + $lane == $core
print/x $mask
warp 5
warp 4 lane 8
core 40
lane 9
warp 1 lane
info warps 7
