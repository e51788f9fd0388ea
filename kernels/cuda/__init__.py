"""numba.cuda kernels for GPU arrays (installed as ``funcgrad.kernels.cuda``).

Importing this package imports ``numba.cuda``; ``funcgrad`` itself imports it only
inside :func:`funcgrad.device_put`.  Kernels take and return device buffers plus
layout (shape, element strides, offset); they know nothing of tracing, derivatives
or :class:`funcgrad.gpu.GpuArray`.

Modules, one job each:

``_config``       simulator or real device, launch sizes
``_simulator``    a thread-safety repair to Numba's CUDA simulator (its shared arrays)
``_scalar``       per-element maths (``math`` on the device, NumPy in the simulator)
``_codegen``      kernels generated from templates, kept on disk so ``cache=True`` works
``elementwise``   every elementwise primitive with broadcasting, casts, the fused VJP kernels
``reduce``        sum/prod/max/min/argmax/argmin/logsumexp along axes (shared-memory tree,
                  optional warp-shuffle tail), two passes for long rows
``scan``          cumsum
``matmul``        tiled (shared-memory) batched matrix product
``index``         gather and scatter (set / add with atomics)
``sort``          argsort (stable merge sort per row)
``linalg``        LU (inv, solve, det, slogdet) and Cholesky, one block per matrix
``fft``           DFTs of rows, any length: Stockham radix-2 passes, Bluestein otherwise
"""
