# cyclescope-bbv 9
T:1:5 
# crc32: 00000000
