# SYNTAX TEST "source.pmic" "from microcode/pmic.pm"
# The two-operand ALU instructions: SP - 1 >= floor first
# <------------------------------------------------------ comment.line.number-sign.pmic
iadd {
# <-- entity.name.function.pmic
#    ^ punctuation.section.block.begin.pmic
    n = sp - g1 // h = sp-one // pc = not pc : next (n) iadd2;
#   ^ variable.language.register.pmic
#       ^^ variable.language.register.pmic
#            ^^ variable.language.register.pmic
#               ^^ punctuation.separator.unit.pmic
#                         ^^^ constant.language.pmic
#                                     ^^^ keyword.operator.logical.pmic
#                                              ^^^^ keyword.control.pmic
#                                                    ^ variable.language.flag.pmic
#                                                       ^^^^^ entity.name.label.pmic
    opc = c4 : next slow
#         ^^ constant.language.pmic
#                   ^^^^ entity.name.label.pmic
}
# <- punctuation.section.block.end.pmic
iadd3 { mdr,tos = mdr+tos // sp = h // pc = -pc : write // fetch }
#                                                 ^^^^^ keyword.other.memory.pmic
#                                                          ^^^^^ keyword.other.memory.pmic
bipush { mar,sp = sp+one // mdr,tos = mbr1s // pc = pc+c2 : write // fetch }
#                                     ^^^^^ variable.language.register.pmic
#                                                      ^^ constant.language.pmic
