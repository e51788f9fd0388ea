"""The check shared by the functions of :mod:`funcgrad.scipy.special` that SciPy defines for
real arguments only (their ufuncs have no complex loops: ``poch``, ``beta``, ``expit``,
``i0``...): a ``TypeError`` naming the function and, where there is one, the complex
counterpart, rather than NumPy's "ufunc ... not supported for the input types" from deep
inside a kernel, or a silent real part."""
from typing import Any

import numpy as np


def reject_complex(name: str, hint: str, *args: Any) -> None:
    """Raise ``TypeError`` if any of ``args`` (arrays, tracers, Tensors or Python
    numbers) is complex; ``hint`` says what to do instead.

    >>> reject_complex("expit", "pass a real array", 1.0, [2.0])
    >>> reject_complex("expit", "pass a real array", 1j)
    Traceback (most recent call last):
        ...
    TypeError: expit: complex input (dtype complex128) is not supported, ... a real array
    """
    for value in args:
        dtype = value.dtype if hasattr(value, "dtype") else np.asarray(value).dtype
        if np.dtype(dtype).kind == "c":
            raise TypeError(f"{name}: complex input (dtype {dtype}) is not supported, as in "
                            f"scipy.special; {hint}")
