# args: --cores 4 sum.jas
# exit: 1
# print (formats, history, registers, locals, globals, errors), x (regions
# and formats), set var (registers, locals, globals), list, and the info
# views of one core and of memory.
break done
continue
print s
print me + i * 2
p/x total
p/c 65
p/u -1
p $1 + $2
p $
p $9
print nosuch
print sss
print s +
print TOS = 5
print local[2] == s
print local[7]
print global[1]
print global[70000]
print arr
print $pc == PC && $sp == SP
x/4 arr
x/3x 0x8000
x/2 0x100000
x 0x4000
x/2 0x7fff
x/0 0x8000
x/4z 0
x
set var s = 99
set var local i = 3
set var global total = 100
set total = total + 1
p s * 1000 + i * 100 + total
set var $h = 7
set var H = H + 1
p $h
set var nosuch = 1
set var = 5
info globals
info heap
info registers
info frame
list
list
list
list loop
list *0x005f
list add
list nosuch
