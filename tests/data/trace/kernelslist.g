MemcpyHtoD,0x00007f5000001000,4096
kernel-1-modes-v5.traceg
MemcpyHtoD,0x00007f6000000000,8192
kernel-2-lineinfo-v4.traceg
