"""What the multivariate distributions of :mod:`funcgrad.scipy.stats` added in session 24
(``wishart``, ``invwishart``, ``matrix_normal``...) share: SciPy's ``random_state``
rules, its squeezed outputs, its frozen objects, a matrix read as SciPy's Cholesky
factorization reads it, and chi-square draws that move with their degrees of freedom."""
import math
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..custom import custom_jvp
from ..errors import ConcretizationError
from ..numpy._convert import concrete_values
from ..primitives import incomplete as _inc
from ..typing import Array
from ._distn import rv_frozen
from ._distn_draws import check_random_state as random_state  # noqa: F401 (SciPy's)


def squeeze(out):
    """SciPy's ``_squeeze_output``: size-1 axes dropped."""
    return fnp.squeeze(out) if 1 in out.shape else out


def size_shape(size: Any) -> tuple:
    """SciPy's ``_process_size``: ``size`` (an int or a tuple of them) as a shape."""
    shape = np.asarray(size)
    if shape.ndim > 1 or shape.dtype.kind not in "iu":
        raise ValueError(f"size must be an integer or a tuple of integers; got {size!r}")
    return tuple(int(s) for s in np.atleast_1d(shape))


def float_dtype(*arrays):
    """The float type of the result: the arrays' (float32 stays float32), float64 else."""
    dtype = np.result_type(*[fnp.asarray(a).dtype for a in arrays])
    return dtype if dtype.kind == "f" else np.dtype(np.float64)


def lower_symmetric(m):
    """``m`` as SciPy's Cholesky factorization reads it (its lower triangle), with the
    derivative of the symmetric part of a perturbation: a gradient in a matrix parameter
    is symmetric, as the density it comes from."""
    frozen = fnp.stop_gradient(m)
    lower = fnp.tril(frozen) + fnp.swapaxes(fnp.tril(frozen, -1), -1, -2)
    moving = 0.5 * (m + fnp.swapaxes(m, -1, -2))
    return lower + (moving - fnp.stop_gradient(moving))


def concrete_scalar(value, dist, name):
    """``value`` (a Python number or a traced 0-d array) as a float, for the checks and
    the draws that need its value."""
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    v = concrete_values(fnp.stop_gradient(fnp.asarray(value)), f"{dist}'s {name}",
                        f"give {name} as a number outside vmap and jit")
    if v.ndim:
        raise ValueError(f"{dist}: {name} must be a scalar, got shape {v.shape}")
    return float(v)


def known(value):
    """``value``'s NumPy values, or None under ``vmap``/``jit`` where they are not known
    (checks of SciPy's that need them are then left to NaN results)."""
    try:
        return concrete_values(fnp.stop_gradient(fnp.asarray(value)), "", "")
    except ConcretizationError:
        return None


@custom_jvp
def _chi2_slope(k, draw):
    # dc/dk of a chi-square draw c held at its quantile u = P(k/2, c/2):
    # -(dP/dk) / (dP/dc), in logs so that neither factor overflows alone
    a = 0.5 * np.asarray(k, np.float64)
    x = 0.5 * np.asarray(draw, np.float64)
    log_density = (a - 1.0) * np.log(x) - x - np.vectorize(math.lgamma)(a)
    return -np.asarray(_inc.gammainc_da(a, x)) / np.exp(log_density)


@_chi2_slope.defjvp
def _chi2_slope_jvp(primals, tangents):
    raise NotImplementedError(
        "the derivative of a chi-square draw in its degrees of freedom is first order "
        "only (implicit differentiation of its quantile); differentiate the draws in df "
        "once")


@custom_jvp
def _moved(k, draw):
    return draw


@_moved.defjvp
def _moved_jvp(primals, tangents):
    k, draw = primals
    return draw, fnp.asarray(_chi2_slope(k, draw), draw.dtype) * tangents[0]


def chi2_draws(rng: Any, k: Any, k_value: Any, size: Any, dtype: Any) -> Array:
    """``rng.chisquare(k_value, size)`` (SciPy's draws), moving with ``k`` (a traced
    array of the values ``k_value``) along the implicit slope of each draw: first order
    only, a second derivative raises."""
    draw = np.asarray(rng.chisquare(k_value, size=size), dtype)
    return _moved(fnp.broadcast_to(fnp.asarray(k, dtype), draw.shape), draw)


class frozen(rv_frozen):
    """A frozen multivariate distribution of SciPy's kind (``wishart(df, scale)``): the
    methods without the parameters, and ``rvs(size=1, random_state=None)`` drawing from
    ``seed``'s generator where ``random_state`` is not given.

    >>> import numpy as np
    >>> from funcgrad.scipy.stats import wishart
    >>> w = wishart(3.0, np.eye(2), seed=0)
    >>> w.mean()
    array([[3., 0.],
           [0., 3.]])
    """

    def __init__(self, dist: Any, args: tuple, seed: Any = None) -> None:
        super().__init__(dist, args, {})
        self._random_state = random_state(seed)

    def mode(self) -> Any:
        """The mode of the distribution."""
        return self._summary("mode")

    def cov(self) -> Array:
        """The covariance matrix of the distribution."""
        return self._summary("cov")

    def rvs(self, size: Any = 1, random_state: Any = None) -> Array:
        """Random draws, as the distribution's ``rvs`` with the frozen parameters."""
        rng = self._random_state if random_state is None else random_state
        return self.dist.rvs(*self.args, size=size, random_state=rng)
