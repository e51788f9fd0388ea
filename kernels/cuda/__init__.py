"""numba.cuda kernels for GPU arrays (not built yet: see the CUDA issue)."""
