"""What ``fg.linalg``'s functions share: their operands' checks, in PyTorch's words."""
from typing import Any

import numpy as np

from .tensor import Tensor


def _tensor(name: str, value: Any) -> Any:
    if isinstance(value, Tensor):
        return value
    raise TypeError(f"linalg.{name}(): argument must be Tensor, not {type(value).__name__}; "
                    f"make it one first: fg.linalg.{name}(fg.tensor(...))")


def _square(name: str, A: Any) -> Any:
    A = _tensor(name, A)
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they "
                           f"are {A.shape[-2] if A.ndim > 1 else A.ndim} by "
                           f"{A.shape[-1] if A.ndim else 0} matrices")
    return A


def _info(A: Any) -> Any:
    return Tensor(np.zeros(A.shape[:-2], np.int32))


def _as_tensor(value: Any) -> Any:
    return value if isinstance(value, Tensor) else Tensor(np.asarray(value))
