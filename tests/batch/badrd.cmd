# args: --engine ref --level mic --microcode badrd.mal ../../programs/hello.jas
# A core that faults on its way to the instruction boundary: the switch
# says so and completes (a faulted core needs no boundary).
stepi 4
set level isa
info registers
info level
