"""SciPy 1.17's array-API keywords ``xp`` and ``device`` of the window and filter-design
functions of ``scipy.signal``, checked in one place.

funcgrad computes with NumPy arrays on the CPU (derivatives flow through
``funcgrad.numpy``), so the namespaces it can honour are NumPy's (``numpy``, the
array-API-compat wrapper of it) and ``funcgrad.numpy``, and the only device is the CPU.
Anything else (``torch``, ``cupy``, a GPU device) raises rather than silently returning
a NumPy array the caller did not ask for.
"""
from typing import Any

import numpy as np

from .. import numpy as fnp



def check_xp_device(xp: Any, device: Any, name: str) -> None:
    """Raise where ``xp`` or ``device`` asks for arrays funcgrad does not make."""
    if xp is not None and xp is not np and xp is not fnp and not str(
            getattr(xp, "__name__", "")).endswith("array_api_compat.numpy"):
        raise TypeError(
            f"{name}: xp={getattr(xp, '__name__', xp)!r} is not supported: funcgrad "
            f"computes with NumPy arrays (differentiable through funcgrad.numpy); pass "
            f"xp=None, numpy or funcgrad.numpy, and convert the result yourself")
    if device is not None and device != "cpu":
        raise ValueError(f"{name}: device={device!r} is not supported: funcgrad's arrays "
                         f"live on the CPU; pass device=None or 'cpu'")
