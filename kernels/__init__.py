"""funcgrad's compute kernels (installed as ``funcgrad.kernels``).

``cpu`` holds the kernels for NumPy arrays, ``cuda`` those for GPU arrays.
Kernels know nothing of tracing or derivatives: they take arrays, return arrays.
"""
