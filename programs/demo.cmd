break main#loop core 8-15
continue
info cores
core 12
info frame
delete
continue
info divergence
quit
