"""``CensoredData`` of :mod:`funcgrad.scipy.stats` (re-exported there): SciPy's container of
observations some of which are censored, with values that may carry derivatives.

The validation and the sorting of ``interval`` rows into uncensored (equal ends),
left-censored (``-inf`` low end), right-censored (``inf`` high end) and interval-censored
values are SciPy's, decided on the values; the stored arrays are the given ones (traced or
plain) gathered by those decisions, so a fit or a likelihood of the data differentiates in
them.  Stored in float64, as SciPy's.
"""
from typing import Any, Optional, Tuple

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..primitives.structural import stop_gradient
from ..typing import Array, ArrayLike

__all__ = ["CensoredData"]


def _values(x: Any, what: str) -> np.ndarray:
    """``x``'s values (a NumPy array) for the decisions SciPy makes on them."""
    return np.asarray(concrete_values(stop_gradient(asarray(x)), f"CensoredData's {what}",
                                      "build CensoredData outside jit and vmap"))


def _as_float(x: Any) -> Array:
    x = asarray(x)
    return x if x.dtype == np.float64 else fnp.astype(x, np.float64)


def _one_d(a: Any, name: str, allow_inf: bool = False) -> Array:
    """``a`` (None: empty) as a float64 1-d array, checked as SciPy's ``_validate_1d``."""
    if a is None:
        return fnp.zeros(0)
    a = _as_float(a)
    values = _values(a, name)
    if values.ndim != 1:
        raise ValueError(f"CensoredData: `{name}` must be a one-dimensional sequence, got "
                         f"shape {values.shape}; pass the values as a flat list or array")
    if np.isnan(values).any():
        raise ValueError(f"CensoredData: `{name}` must not contain nan; drop those values")
    if not allow_inf and np.isinf(values).any():
        raise ValueError(f"CensoredData: `{name}` must contain only finite values; give "
                         f"censored values as left=, right= or interval= instead")
    return a


def _rows(x: Any, mask: np.ndarray) -> Array:
    """The entries (rows) of ``x`` where ``mask``: gathered, so derivatives follow them."""
    return fnp.take(x, np.flatnonzero(mask), axis=0)


def _split_interval(interval: Any) -> tuple:
    """SciPy's ``_validate_interval``: the ``(m, 2)`` rows sorted into ``(uncensored,
    left, right, interval)``."""
    interval = _as_float(interval)
    if interval.shape == (0,):
        interval = fnp.reshape(interval, (0, 2))
    values = _values(interval, "interval")
    if values.ndim != 2 or values.shape[-1] != 2:
        raise ValueError(f"CensoredData: `interval` must be a two-dimensional array with "
                         f"shape (m, 2), where m is the number of interval-censored values, "
                         f"but got shape {values.shape}")
    if np.isnan(values).any():
        raise ValueError("CensoredData: `interval` must not contain nan")
    if np.isinf(values).all(axis=1).any():
        raise ValueError("CensoredData: in each row of `interval`, both values must not be "
                         "infinite (such a value tells nothing: leave it out)")
    if (values[:, 0] > values[:, 1]).any():
        raise ValueError("CensoredData: in each row of `interval`, the left value must not "
                         "exceed the right value")
    uncensored = values[:, 0] == values[:, 1]
    left = np.isinf(values[:, 0])
    right = np.isinf(values[:, 1])
    between = np.isfinite(values).all(axis=1) & ~uncensored
    return (_rows(interval[:, 0], uncensored), _rows(interval[:, 1], left),
            _rows(interval[:, 0], right), _rows(interval, between))


def _repr_values(x: Array) -> str:
    return " ".join(np.array_repr(_values(x, "values")).split())


class CensoredData:
    """Observations of which some are censored, as ``scipy.stats.CensoredData``, for the
    ``fit`` and ``nnlf`` of a distribution.

    ``uncensored`` holds the exact observations; ``left`` the values known only to lie at or
    below the given ones; ``right`` at or above them; ``interval`` (shape ``(m, 2)``) within
    the given bounds (a row with equal ends is an uncensored value, with ``-inf`` or
    ``inf`` at one end a left- or right-censored one).  The values may be traced:
    likelihoods and fits of the data differentiate in them.

    >>> import numpy as np
    >>> data = CensoredData(uncensored=[1.0, 2.5], right=[4.0], interval=[[2.0, 3.0]])
    >>> len(data), data.num_censored()
    (4, 2)
    >>> print(data)
    CensoredData(4 values: 2 not censored, 1 right-censored, 1 interval-censored)
    """

    def __init__(self, uncensored: Optional[ArrayLike] = None, *,
                 left: Optional[ArrayLike] = None, right: Optional[ArrayLike] = None,
                 interval: Optional[ArrayLike] = None) -> None:
        uncensored = _one_d(uncensored, "uncensored")
        left = _one_d(left, "left")
        right = _one_d(right, "right")
        uncensored2, left2, right2, interval2 = _split_interval(
            fnp.zeros((0, 2)) if interval is None else interval)
        self._uncensored = fnp.concatenate((uncensored, uncensored2))
        self._left = fnp.concatenate((left, left2))
        self._right = fnp.concatenate((right, right2))
        self._interval = interval2

    def __repr__(self) -> str:
        return (f"CensoredData(uncensored={_repr_values(self._uncensored)}, "
                f"left={_repr_values(self._left)}, right={_repr_values(self._right)}, "
                f"interval={_repr_values(self._interval)})")

    def __str__(self) -> str:
        counts = [(len(self._uncensored), "not censored"), (len(self._left), "left-censored"),
                  (len(self._right), "right-censored"),
                  (len(self._interval), "interval-censored")]
        parts = [f"{counts[0][0]} not censored"] + [f"{n} {what}" for n, what in counts[1:]
                                                    if n > 0]
        return f"CensoredData({len(self)} values: " + ", ".join(parts) + ")"

    def __sub__(self, other: ArrayLike) -> "CensoredData":
        """Every value minus ``other`` (a scalar), as SciPy's: ``(data - loc) / scale``
        standardizes censored data."""
        return CensoredData(uncensored=self._uncensored - other, left=self._left - other,
                            right=self._right - other, interval=self._interval - other)

    def __truediv__(self, other: ArrayLike) -> "CensoredData":
        """Every value divided by ``other`` (a scalar), as SciPy's."""
        return CensoredData(uncensored=self._uncensored / other, left=self._left / other,
                            right=self._right / other, interval=self._interval / other)

    def __len__(self) -> int:
        """The number of values, censored or not."""
        return (len(self._uncensored) + len(self._left) + len(self._right)
                + len(self._interval))

    def num_censored(self) -> int:
        """The number of censored values (left, right and interval).

        >>> CensoredData.right_censored([1.0, 2.0, 3.0], [0, 1, 1]).num_censored()
        2
        """
        return len(self._left) + len(self._right) + len(self._interval)

    @classmethod
    def right_censored(cls, x: ArrayLike, censored: ArrayLike) -> "CensoredData":
        """Data where ``x[i]`` is right-censored (the true value is ``x[i]`` or more) where
        ``censored[i]`` is true, as SciPy's.

        >>> print(CensoredData.right_censored([1.0, 5.0, 2.0], [False, True, False]))
        CensoredData(3 values: 2 not censored, 1 right-censored)
        """
        x, mask = _x_censored(x, censored)
        return cls(uncensored=_rows(x, ~mask), right=_rows(x, mask))

    @classmethod
    def left_censored(cls, x: ArrayLike, censored: ArrayLike) -> "CensoredData":
        """Data where ``x[i]`` is left-censored (the true value is ``x[i]`` or less) where
        ``censored[i]`` is true, as SciPy's.

        >>> print(CensoredData.left_censored([0.1, 5.0, 2.0], [True, False, False]))
        CensoredData(3 values: 2 not censored, 1 left-censored)
        """
        x, mask = _x_censored(x, censored)
        return cls(uncensored=_rows(x, ~mask), left=_rows(x, mask))

    @classmethod
    def interval_censored(cls, low: ArrayLike, high: ArrayLike) -> "CensoredData":
        """Data where each value lies in ``[low[i], high[i]]`` (an infinite end: left- or
        right-censored; equal ends: not censored), as SciPy's.

        >>> import numpy as np
        >>> print(CensoredData.interval_censored([1.0, 2.0, -np.inf], [1.5, 2.0, 0.5]))
        CensoredData(3 values: 1 not censored, 1 left-censored, 1 interval-censored)
        """
        low = _one_d(low, "low", allow_inf=True)
        high = _one_d(high, "high", allow_inf=True)
        if len(low) != len(high):
            raise ValueError(f"CensoredData.interval_censored: `low` and `high` must have the "
                             f"same length, got {len(low)} and {len(high)}")
        uncensored, left, right, interval = _split_interval(fnp.stack((low, high), axis=1))
        return cls(uncensored=uncensored, left=left, right=right, interval=interval)


def _x_censored(x: Any, censored: Any) -> Tuple[Array, np.ndarray]:
    """SciPy's ``_validate_x_censored``: ``(x as float64, censored as a bool mask)``."""
    x = _as_float(x)
    values = _values(x, "x")
    if values.ndim != 1:
        raise ValueError(f"CensoredData: `x` must be one-dimensional, got shape "
                         f"{values.shape}")
    mask = np.asarray(censored)
    if mask.ndim != 1:
        raise ValueError(f"CensoredData: `censored` must be one-dimensional, got shape "
                         f"{mask.shape}")
    if (~np.isfinite(values)).any():
        raise ValueError("CensoredData: `x` must not contain nan or inf; give the censored "
                         "values at their censoring bounds")
    if mask.size != values.size:
        raise ValueError(f"CensoredData: `x` and `censored` must have the same length, got "
                         f"{values.size} and {mask.size}")
    return x, mask.astype(bool)


def parts(data: CensoredData) -> tuple:
    """``(uncensored, left, right, interval)``: the arrays ``data`` holds (for the
    likelihoods and fits of :mod:`._distn_fit`)."""
    return data._uncensored, data._left, data._right, data._interval


def as_censored(data: Any) -> Optional[CensoredData]:
    """``data`` as funcgrad's :class:`CensoredData` where it is one (or SciPy's, whose
    values are taken); None for other data."""
    if isinstance(data, CensoredData):
        return data
    if type(data).__name__ == "CensoredData" and str(type(data).__module__).startswith(
            "scipy"):
        return CensoredData(data._uncensored, left=data._left, right=data._right,
                            interval=data._interval)
    return None


def to_scipy(data: CensoredData) -> Any:
    """SciPy's ``CensoredData`` of ``data``'s values (for SciPy's fit)."""
    import scipy.stats  # (here: importing funcgrad never loads SciPy)
    uncensored, left, right, interval = (_values(v, "values") for v in parts(data))
    return scipy.stats.CensoredData(uncensored, left=left, right=right, interval=interval)
