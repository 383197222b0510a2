# args: --engine ref --level mic --microcode spin.mal ../../programs/hello.jas
# exit: 1
# A switch that cannot complete: a core's microcode never reaches the
# instruction boundary, so set level isa gives up and the level stays.
stepi 4
info registers
set level isa
info level
set level pmc
