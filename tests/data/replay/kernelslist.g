kernel-1-barrier.traceg
