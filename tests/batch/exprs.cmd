# args: --cores 4 sum.jas
# exit: 1
# gdb's expression forms and formats: arr[i] of a heap array reference
# (bounds checked, in print and in break conditions), shifts with C's
# precedence and Java's count (masked to 5 bits), print/FMT with x d u o
# t c, x over the two address spaces (data words, code bytes and
# instructions) and every error they give; gdb's history forms $$, $$N
# and print alone (the last value again).
break units
continue
continue
info heap
print arr[0]
print arr[me]
print arr[me] == s
print arr[1 + 1] + arr[3]
print arr[4]
print arr[-1]
print s[0]
print nosuch[0]
print arr[0
print 1 << 4
print -16 >> 2
print -16 >>> 28
print 1 << 32
print 1 << 33
print 1 << -1
print 256 >> -28
print 1 + 1 << 2
print 1 << 2 < 5
print 8 >> 1 >> 1
print 1 < < 2
p/t 10
p/t 0
p/t -1
p/o 8
p/o 0
p/o -1
p/x -1
p/d 0xffffffff
p/u -1
p/c 65
p/c 10
p/c 0
p/c 321
p/c -56
p/z 1
p/xd 1
p/ 1
x/2x $cpp
x/4dw arr
x/3i $pc
x/2i done
x/8xb $pc
x/4db $pc
x/2tb $pc
x/2ob $pc
x/2ub $pc
x/4x $pc
x/2i 0x9999
x/2xb 0x67
x/2ib 0
x/bw 0
x/ii 0
x/1x
break done if arr[$core - 1] == 3
break done if nosuch[0] == 3
continue
print $core
p 5
p 6
p $$
p $$0
p $$2
p
p/x
p $$99
