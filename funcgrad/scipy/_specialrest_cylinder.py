"""The parabolic cylinder functions of :mod:`funcgrad.scipy.special`: ``pbdv``, ``pbvv``,
``pbwa`` (SciPy's values, with their derivatives as second outputs; differentiable in
``x`` at every order through Weber's equation: :mod:`funcgrad.primitives.special_scipy_rest`;
in the order none), and the sequences ``pbdv_seq``, ``pbvv_seq``, ``pbdn_seq``."""
from typing import Any

import numpy as np

from ..numpy._convert import operand as _operand
from ..primitives import special_scipy_rest as _rest
from ..typing import Array, ArrayLike
from ._special_out import with_out as _with_out
from ._special_real import reject_complex as _reject_complex

__all__ = ["pbdv", "pbvv", "pbwa", "pbdv_seq", "pbvv_seq", "pbdn_seq"]

_REAL = "pass real arrays, as to SciPy's function"


def _pair(name, function, derivative, v, x):
    v, x = _operand(v), _operand(x)
    _reject_complex(name, _REAL, v, x)
    return function(v, x), derivative(v, x)


@_with_out
def pbdv(v: ArrayLike, x: ArrayLike) -> tuple[Array, Array]:
    """``(D_v(x), D_v'(x))``: the parabolic cylinder function ``D_v`` and its derivative,
    as ``scipy.special.pbdv`` (SciPy's values).  Differentiable in ``x`` (the second
    output's slope is ``(x**2/4 - v - 1/2) D_v``); in ``v`` it raises
    ``NotImplementedError``.

    >>> import funcgrad as fg
    >>> d, dp = pbdv(0.0, 1.0)  # D_0(x) = exp(-x**2/4)
    >>> round(float(d), 12), round(float(fg.grad(lambda x: pbdv(0.0, x)[0])(1.0)), 12)
    (0.778800783071, -0.389400391536)
    """
    return _pair("pbdv", _rest.pbdv_d, _rest.pbdv_dp, v, x)


@_with_out
def pbvv(v: ArrayLike, x: ArrayLike) -> tuple[Array, Array]:
    """``(V_v(x), V_v'(x))``: the parabolic cylinder function ``V_v`` and its derivative,
    as ``scipy.special.pbvv`` (SciPy's values); differentiable in ``x`` (``V_v'' =
    (x**2/4 - v - 1/2) V_v``), not in ``v``.

    >>> import funcgrad as fg
    >>> v, vp = pbvv(1.0, 0.5)
    >>> abs(float(fg.grad(lambda x: pbvv(1.0, x)[0])(0.5)) - float(vp)) < 1e-15
    True
    """
    return _pair("pbvv", _rest.pbvv_v, _rest.pbvv_vp, v, x)


@_with_out
def pbwa(a: ArrayLike, x: ArrayLike) -> tuple[Array, Array]:
    """``(W(a, x), W'(a, x))``: the parabolic cylinder function ``W`` and its derivative,
    as ``scipy.special.pbwa`` (SciPy's values, NaN outside ``|a| <= 5, |x| <= 5``, where
    SciPy does not compute it); differentiable in ``x`` (``W'' = (a - x**2/4) W``), not
    in ``a``.

    >>> import funcgrad as fg
    >>> w, wp = pbwa(0.5, 0.0)
    >>> abs(float(fg.grad(lambda x: pbwa(0.5, x)[1])(0.0)) - 0.5 * float(w)) < 1e-15
    True
    """
    return _pair("pbwa", _rest.pbwa_w, _rest.pbwa_wp, a, x)


def _concrete(name: str, *args: Any) -> list:
    """``args`` as plain floats: the sequences are SciPy's own, with no derivative."""
    values = []
    for a in args:
        try:
            values.append(float(np.asarray(a)))
        except TypeError as e:
            raise TypeError(
                f"{name}: takes plain numbers (its values are SciPy's, with no derivative "
                f"here); for a derivative in x use pbdv/pbvv of each order, whose slopes "
                f"are implemented") from e
    return values


def pbdv_seq(v: float, x: float) -> tuple[np.ndarray, np.ndarray]:
    """``(D, D')``: the parabolic cylinder functions ``D_{v0 + k}(x)`` for ``k = 0..int(v)``
    (``v0 = v - int(v)``) and their derivatives, as ``scipy.special.pbdv_seq`` (SciPy's
    values, plain arrays: no derivative; ``pbdv`` has them).

    >>> d, dp = pbdv_seq(1.0, 0.0)
    >>> d.round(12), dp.round(12)
    (array([1., 0.]), array([0., 1.]))
    """
    import scipy.special  # (here: importing funcgrad never loads SciPy)
    return scipy.special.pbdv_seq(*_concrete("pbdv_seq", v, x))


def pbvv_seq(v: float, x: float) -> tuple[np.ndarray, np.ndarray]:
    """``(V, V')``: the parabolic cylinder functions ``V_{v0 + k}(x)`` for ``k = 0..int(v)``
    and their derivatives, as ``scipy.special.pbvv_seq`` (SciPy's values, plain arrays;
    ``pbvv`` is differentiable).

    >>> v, vp = pbvv_seq(1.0, 0.5)
    >>> v.shape
    (2,)
    """
    import scipy.special
    return scipy.special.pbvv_seq(*_concrete("pbvv_seq", v, x))


def pbdn_seq(n: int, z: complex) -> tuple[np.ndarray, np.ndarray]:
    """``(D, D')``: the parabolic cylinder functions ``D_k(z)`` of integer orders
    ``k = 0..n`` (``n`` may be negative: ``0..n`` downwards) at a complex ``z``, as
    ``scipy.special.pbdn_seq`` (SciPy's values, plain complex arrays; no derivative).

    >>> d, dp = pbdn_seq(1, 0.0)
    >>> d
    array([1.+0.j, 0.+0.j])
    """
    import scipy.special
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"pbdn_seq(n, z): n must be an int, got {n!r}")
    try:
        z = complex(np.asarray(z))
    except TypeError as e:
        raise TypeError("pbdn_seq: takes a plain number z (SciPy's values, with no "
                        "derivative here)") from e
    return scipy.special.pbdn_seq(int(n), z)


# (one primitive per output)
for _front, _parts in ((pbdv, ("pbdv_d", "pbdv_dp")), (pbvv, ("pbvv_v", "pbvv_vp")),
                       (pbwa, ("pbwa_w", "pbwa_wp"))):
    _front.primitives = tuple(getattr(_rest, p).primitive  # type: ignore[attr-defined]
                              for p in _parts)
del _front, _parts
