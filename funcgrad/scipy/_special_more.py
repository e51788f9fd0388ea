"""More of ``funcgrad.scipy.special`` (re-exported there): the functions whose values are
SciPy's own ufuncs (:mod:`funcgrad.primitives.special_scipy`, SciPy imported on the first
call), and SciPy's integer functions ``factorial``, ``comb`` and ``bernoulli``, which
have no derivative."""
import math
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer as _Tracer
from ..numpy._convert import operand as _operand
from ..primitives import special_scipy as _ss
from ..primitives.structural import stop_gradient as _stop_gradient
from ..typing import Array, ArrayLike
from ._special_real import reject_complex as _reject_complex

_FRONTS_NEED = (_reject_complex,)  # (a name the compiled fronts use: see _front)

__all__ = ["erfcx", "dawsn", "exp1", "expi", "expn", "spence", "loggamma", "gammasgn", "sici",
           "fresnel", "wofz", "sph_harm_y", "jv", "yv", "iv", "ive", "kv", "kve", "k0", "k1",
           "k0e", "k1e", "kn", "bessel_jn", "j0", "j1", "jn", "y0", "y1", "yn", "poch", "boxcox",
           "boxcox1p",
           "owens_t", "hyp0f1", "hyp1f1", "hyp2f1", "factorial", "comb", "bernoulli"]


def _front(prim_fn: Any, params: str, doc: str, home: Any = None, module: str = "_ss",
           real: Optional[str] = None) -> Any:
    """A function of SciPy's signature (``params``, each an ``ArrayLike``) binding
    ``prim_fn``'s primitive (``module.name`` there): written out and compiled in the
    namespace ``home`` (this module's by default; it needs ``_operand``, ``ArrayLike``,
    ``Array``, ``_reject_complex`` and ``module``), so that ``help`` shows the parameters
    and doctest finds the examples.  ``real``: SciPy's function takes real arguments
    only, and a complex one raises ``TypeError`` with this hint."""
    home = globals() if home is None else home
    name = prim_fn.__name__
    names = params.split(", ")
    check = (f"    _reject_complex({name!r}, {real!r}, {params})\n" if real else "")
    source = (f"def {name}({', '.join(p + ': ArrayLike' for p in names)}) -> Array:\n"
              f"    {params} = {', '.join(f'_operand({p})' for p in names)}\n" + check +
              f"    return {module}.{name}({params})\n")
    local: dict = {}
    exec(compile(source, home["__file__"], "exec"), home, local)  # noqa: S102
    f = local[name]
    f.__doc__ = doc
    f.primitive = prim_fn.primitive
    return f


erfcx = _front(_ss.erfcx, "x", """The scaled complementary error function
    ``exp(x**2) * erfc(x)``; derivative ``2 x erfcx(x) - 2/sqrt(pi)``.

    >>> import funcgrad as fg
    >>> float(erfcx(0.0)), round(float(fg.grad(erfcx)(0.0)), 12)
    (1.0, -1.128379167096)
    """)
dawsn = _front(_ss.dawsn, "x", """Dawson's integral ``exp(-x**2) * integral of exp(t**2)
    from 0 to x``; derivative ``1 - 2 x dawsn(x)``.

    >>> import funcgrad as fg
    >>> float(fg.grad(dawsn)(0.0))
    1.0
    """)
exp1 = _front(_ss.exp1, "x", """The exponential integral ``E1(x)``, ``integral of
    exp(-t)/t from x to inf``; derivative ``-exp(-x)/x``.

    >>> import math, funcgrad as fg
    >>> float(fg.grad(exp1)(1.0)) == -math.exp(-1.0)
    True
    """)
expi = _front(_ss.expi, "x", """The exponential integral ``Ei(x)``; derivative
    ``exp(x)/x``.

    >>> import math, funcgrad as fg
    >>> float(fg.grad(expi)(1.0)) == math.e
    True
    """)
expn = _front(_ss.expn, "n, x", """The generalised exponential integral ``E_n(x)``
    (``n`` an integer order); derivative in ``x``: ``-E_{n-1}(x)``.  In ``n`` it raises
    ``NotImplementedError``.

    >>> import funcgrad as fg
    >>> float(fg.grad(lambda x: expn(2, x))(1.0)) == -float(exp1(1.0))
    True
    """)
spence = _front(_ss.spence, "z", """Spence's function (the dilogarithm as SciPy defines
    it), ``integral of log(t)/(1 - t) from 1 to z``; derivative ``log(z)/(1 - z)``
    (``-1`` at ``z = 1``).

    >>> import funcgrad as fg
    >>> float(spence(1.0)), float(fg.grad(spence)(1.0))
    (0.0, -1.0)
    """)
loggamma = _front(_ss.loggamma, "z", """The principal branch of ``log Gamma(z)`` (real
    arguments: NaN for ``z < 0``, as SciPy); derivative ``digamma(z)``.

    >>> import math
    >>> float(loggamma(5.0)) == math.log(24.0)
    True
    """)
gammasgn = _front(_ss.gammasgn, "x", """The sign of the gamma function (piecewise
    constant: no derivative, as ``sign``); real arguments only, as SciPy's.

    >>> float(gammasgn(-0.5)), float(gammasgn(2.5))
    (-1.0, 1.0)
    """, real="a complex Gamma has a phase, not a sign: gamma(z) / abs(gamma(z))")
jv = _front(_ss.jv, "v, z", """Bessel's function of the first kind ``J_v(z)`` of real order
    ``v``; derivative in ``z``: ``(jv(v - 1, z) - jv(v + 1, z))/2``.  In ``v`` it raises
    ``NotImplementedError``.

    >>> import funcgrad as fg
    >>> float(jv(0, 0.0)), float(fg.grad(jv, 1)(1.0, 0.0))
    (1.0, 0.5)
    """)
yv = _front(_ss.yv, "v, z", """Bessel's function of the second kind ``Y_v(z)`` of real
    order ``v``; derivative in ``z``: ``(yv(v - 1, z) - yv(v + 1, z))/2``.  In ``v`` it
    raises ``NotImplementedError``.

    >>> import math
    >>> round(float(yv(0.5, 2.0)) / (-math.sqrt(1 / math.pi) * math.cos(2.0)), 12)
    1.0
    """)
iv = _front(_ss.iv, "v, z", """The modified Bessel function of the first kind ``I_v(z)`` of
    real order ``v``; derivative in ``z``: ``(iv(v - 1, z) + iv(v + 1, z))/2``.  In ``v`` it
    raises ``NotImplementedError``.

    >>> import funcgrad as fg
    >>> float(iv(0, 0.0)), float(fg.grad(iv, 1)(1.0, 0.0))
    (1.0, 0.5)
    """)
ive = _front(_ss.ive, "v, z", """The exponentially scaled ``iv(v, z) exp(-|z|)`` (no
    overflow for large ``z``); derivative in a real ``z``:
    ``(ive(v - 1, z) + ive(v + 1, z))/2 - sign(z) ive(v, z)``.

    >>> float(ive(0, 0.0)), float(ive(1, 800.0)) > 0
    (1.0, True)
    """)
kv = _front(_ss.kv, "v, z", """The modified Bessel function of the second kind ``K_v(z)``
    of real order ``v`` (as in the Matern kernel); derivative in ``z``:
    ``-(kv(v - 1, z) + kv(v + 1, z))/2``.  In ``v`` it raises ``NotImplementedError``.

    >>> import math
    >>> round(float(kv(0.5, 2.0)) / (math.sqrt(math.pi / 4) * math.exp(-2.0)), 12)
    1.0
    """)
kve = _front(_ss.kve, "v, z", """The exponentially scaled ``kv(v, z) exp(z)``; derivative
    in ``z``: ``kve(v, z) - (kve(v - 1, z) + kve(v + 1, z))/2``; in ``v`` (real ``z > 0``):
    ``integral t sinh(v t) exp(-z (cosh t - 1)) dt`` over ``t > 0``, by quadrature
    (:mod:`funcgrad.primitives.special_bessel_order`).

    >>> import math, funcgrad as fg
    >>> round(float(fg.grad(kve, 1)(0.5, 2.0)) / (-math.sqrt(math.pi) / 8), 12)  # sqrt(pi/2z)
    1.0
    >>> want = math.sqrt(math.pi / 4) * math.exp(4.0) * 0.0037793524098489063  # E1(4)
    >>> round(float(fg.grad(kve, 0)(0.5, 2.0)) / want, 12)  # d/dv at v = 1/2
    1.0
    """)
k0 = _front(_ss.k0, "x", """``K_0(x)``, the modified Bessel function of the second kind of
    order 0; derivative ``-k1(x)``.

    >>> import funcgrad as fg
    >>> float(fg.grad(k0)(1.0)) == -float(k1(1.0))
    True
    """)
k1 = _front(_ss.k1, "x", """``K_1(x)``; derivative ``-k0(x) - k1(x)/x``.

    >>> import funcgrad as fg
    >>> float(fg.grad(k1)(1.0)) == -float(k0(1.0)) - float(k1(1.0))
    True
    """)
k0e = _front(_ss.k0e, "x", """The exponentially scaled ``k0(x) exp(x)``; derivative
    ``k0e(x) - k1e(x)``.

    >>> import math
    >>> round(float(k0e(1.0)) / (float(k0(1.0)) * math.e), 12)
    1.0
    """)
k1e = _front(_ss.k1e, "x", """The exponentially scaled ``k1(x) exp(x)``; derivative
    ``k1e(x) - k0e(x) - k1e(x)/x``.

    >>> import math
    >>> round(float(k1e(1.0)) / (float(k1(1.0)) * math.e), 12)
    1.0
    """)
wofz = _front(_ss.wofz, "z", """The Faddeeva function ``w(z) = exp(-z**2) erfc(-iz)``, a
    complex result (complex128 for real arguments, as SciPy); holomorphic, derivative
    ``2i/sqrt(pi) - 2 z w(z)`` (``fg.grad(..., holomorphic=True)``).

    >>> import funcgrad as fg
    >>> complex(wofz(0.0)), complex(fg.grad(wofz, holomorphic=True)(0j)) == 2j / math.sqrt(math.pi)
    ((1+0j), True)
    """)
poch = _front(_ss.poch, "z, m", """The Pochhammer symbol ``Gamma(z + m) / Gamma(z)``;
    derivatives ``poch (digamma(z + m) - digamma(z))`` in ``z`` and
    ``poch digamma(z + m)`` in ``m``.  Real arguments only, as SciPy's.

    >>> float(poch(2.0, 3.0))
    24.0
    """, real="for complex z or m, gamma(z + m) * rgamma(z) is holomorphic")
boxcox = _front(_ss.boxcox, "x, lmbda", """The Box-Cox transform
    ``(x**lmbda - 1)/lmbda`` (``log(x)`` at ``lmbda = 0``), differentiable in ``x`` and in
    ``lmbda`` (``log(x)**2/2`` at ``lmbda = 0``).

    >>> import math, funcgrad as fg
    >>> float(boxcox(4.0, 0.5)), float(fg.grad(boxcox, 1)(2.0, 0.0)) == math.log(2) ** 2 / 2
    (2.0, True)
    """, real="pass a real array")
boxcox1p = _front(_ss.boxcox1p, "x, lmbda", """The Box-Cox transform of ``1 + x``,
    ``((1 + x)**lmbda - 1)/lmbda`` (``log1p(x)`` at ``lmbda = 0``), differentiable in
    ``x`` and ``lmbda``.

    >>> float(boxcox1p(3.0, 0.5))
    2.0
    """, real="pass a real array")
owens_t = _front(_ss.owens_t, "h, a", """Owen's T function ``T(h, a)``, differentiable in
    ``h`` (``-phi(h) erf(a h/sqrt(2))/2``) and ``a``
    (``exp(-h**2 (1 + a**2)/2) / (2 pi (1 + a**2))``).

    >>> import math, funcgrad as fg
    >>> float(fg.grad(owens_t, 1)(0.0, 0.0)) == 1 / (2 * math.pi)
    True
    """, real="pass a real array")
hyp0f1 = _front(_ss.hyp0f1, "v, z", """The confluent hypergeometric limit function
    ``0F1(; v; z)``; derivative in ``z``: ``0F1(; v + 1; z) / v``.  In ``v`` it raises
    ``NotImplementedError`` (no closed form).  Values are SciPy's except where SciPy
    1.17's are wrong, which get the true ones (mpmath's): ``z < 0`` where a factor of
    SciPy's ``(-z)**((1-v)/2) Gamma(v) J_{v-1}(2 sqrt(-z))`` over- or underflows (SciPy's
    ``hyp0f1(179.628, -39.1115)`` is inf, the truth 0.80423; NaN where the series of a
    large negative ``v`` cancels) (:mod:`funcgrad.primitives.special_hyp0f1`).

    >>> import funcgrad as fg
    >>> float(hyp0f1(1.0, 0.0)), float(fg.grad(hyp0f1, 1)(2.0, 0.0))
    (1.0, 0.5)
    >>> round(float(hyp0f1(179.628, -39.1115)), 12)
    0.804231960672
    """)
hyp1f1 = _front(_ss.hyp1f1, "a, b, x", """Kummer's confluent hypergeometric function
    ``1F1(a; b; x)``; derivative in ``x``: ``(a/b) 1F1(a + 1; b + 1; x)``.  In ``a`` and
    ``b`` it raises ``NotImplementedError`` (no closed form).  Values are SciPy's except
    where SciPy 1.17's are wrong, which get the true ones (mpmath's): large ``a > b > 0``
    with ``-1 <= x < 0`` (SciPy's ``hyp1f1(148.77, 0.294, -0.716)`` is 7.06e8, the truth
    -0.99682; NaN past ``(a + 1)|x| = 3.2e6``), and a negative integer ``a`` at
    ``x == b`` (:mod:`funcgrad.primitives.special_hyp1f1`).

    >>> import math, funcgrad as fg
    >>> float(hyp1f1(1.0, 1.0, 1.0)) == math.e, float(fg.grad(hyp1f1, 2)(1.0, 1.0, 0.0))
    (True, 1.0)
    >>> round(float(hyp1f1(148.77, 0.294, -0.716)), 10)
    -0.9968196885
    """)
hyp2f1 = _front(_ss.hyp2f1, "a, b, c, z", """Gauss' hypergeometric function
    ``2F1(a, b; c; z)``; derivative in ``z``: ``(ab/c) 2F1(a + 1, b + 1; c + 1; z)``.  In
    ``a``, ``b`` and ``c`` it raises ``NotImplementedError`` (no closed form).

    >>> import funcgrad as fg
    >>> float(fg.grad(hyp2f1, 3)(1.0, 1.0, 2.0, 0.0))  # -log(1 - z)/z = 1 + z/2 + ...
    0.5
    """)


def sici(x: ArrayLike) -> tuple[Array, Array]:
    """The sine and cosine integrals ``(Si(x), Ci(x))``; derivatives ``sin(x)/x`` (1 at
    0) and ``cos(x)/x``.

    >>> import funcgrad as fg
    >>> float(fg.grad(lambda x: sici(x)[0])(0.0))
    1.0
    """
    x = _operand(x)
    return _ss.sici_si(x), _ss.sici_ci(x)


def fresnel(z: ArrayLike) -> tuple[Array, Array]:
    """The Fresnel integrals ``(S(z), C(z))``, SciPy's order; derivatives
    ``sin(pi z**2/2)`` and ``cos(pi z**2/2)``.

    >>> import funcgrad as fg
    >>> float(fg.grad(lambda z: fresnel(z)[1])(0.0))
    1.0
    """
    z = _operand(z)
    return _ss.fresnel_s(z), _ss.fresnel_c(z)


# (one primitive per output)
sici.primitives = (_ss.sici_si.primitive, _ss.sici_ci.primitive)  # type: ignore[attr-defined]
fresnel.primitives = (_ss.fresnel_s.primitive,  # type: ignore[attr-defined]
                      _ss.fresnel_c.primitive)


def sph_harm_y(n: ArrayLike, m: ArrayLike, theta: ArrayLike, phi: ArrayLike, *,
               diff_n: int = 0) -> Array:
    """The spherical harmonic ``Y_n^m(theta, phi)`` (``scipy.special.sph_harm_y``: polar
    angle ``theta``, azimuth ``phi``; integer degree ``n`` and order ``m``), complex.
    Differentiable in ``theta`` and ``phi``; in ``n`` and ``m`` it raises
    ``NotImplementedError``.  SciPy's ``diff_n`` (derivatives returned with the value)
    is replaced by ``fg.grad``/``fg.jacfwd``: only ``diff_n=0`` is accepted.

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> round(complex(sph_harm_y(0, 0, 0.3, 0.2)).real, 12) == round(0.5 / math.sqrt(math.pi), 12)
    True
    >>> d = fg.grad(lambda p: fnp.imag(sph_harm_y(1, 1, 0.5, p)))(0.0)  # Y_1^1 ~ -sin(t) e^(ip)
    >>> round(float(d), 12) == round(-0.5 * math.sqrt(1.5 / math.pi) * math.sin(0.5), 12)
    True
    """
    if diff_n != 0:
        raise NotImplementedError(
            f"sph_harm_y(..., diff_n={diff_n!r}): only diff_n=0 is supported; take the "
            f"derivatives in theta and phi with fg.grad, fg.jacfwd or fg.hessian instead")
    n, m, theta, phi = map(_operand, (n, m, theta, phi))
    if isinstance(theta, _Tracer):
        # (SciPy's value at any theta is the one at the angle folded into [0, pi]
        # (arccos(cos(theta))); the derivative rule holds on [0, pi] only, so a theta
        # outside it is folded here: the slope's sign flips, as SciPy's function's does)
        turn = fnp.mod(theta, 2.0 * math.pi)
        folded = fnp.where(turn > math.pi, 2.0 * math.pi - turn, turn)
        inside = (theta >= 0.0) & (theta <= math.pi)
        theta = fnp.where(inside, theta, folded)
    return _ss.sph_harm_y(n, m, theta, phi)


sph_harm_y.primitive = _ss.sph_harm_y.primitive  # type: ignore[attr-defined]


def jn(n: ArrayLike, x: ArrayLike) -> Array:
    """Bessel's ``J_n(x)`` of integer order (SciPy's ``jn``, its ``jv`` under another name):
    ``jv(n, x)``, differentiable in ``x``.

    >>> import funcgrad as fg
    >>> float(jn(1, 0.0)), float(fg.grad(jn, 1)(1, 0.0))
    (0.0, 0.5)
    """
    return jv(n, x)


def yn(n: ArrayLike, x: ArrayLike) -> Array:
    """Bessel's ``Y_n(x)`` of integer order ``n`` (SciPy's ``yn``): ``yv(n, x)``,
    differentiable in ``x``.  A non-integer ``n`` is truncated toward zero first, as
    SciPy's ``yn`` casts it (``yn(0.5, x) == y0(x)``; ``yv`` takes real orders).

    >>> import math
    >>> round(float(yn(1, 2.0)) / float(yv(1.0, 2.0)), 12), float(yn(0.5, 2.0)) == float(y0(2.0))
    (1.0, True)
    """
    n = _operand(n)
    if isinstance(n, float):
        n = float(math.trunc(n)) if math.isfinite(n) else n
    elif isinstance(n, _Tracer):
        # (the order truncated, but its tangent still reaches yv's order, whose derivative
        # raises: an integer order has none, and a silent 0 would hide the mistake)
        n = fnp.trunc(n) + (n - _stop_gradient(n))
    elif np.result_type(n).kind == "f":
        n = fnp.trunc(n)  # (SciPy's integer loop)
    return yv(n, x)


def kn(n: ArrayLike, x: ArrayLike) -> Array:
    """The modified Bessel function of the second kind of integer order, ``kv(n, x)``
    (SciPy's values agree bit for bit; a float ``n`` is truncated, as SciPy's: derivative
    0 in ``n``).  Differentiable in ``x``.

    >>> import funcgrad as fg
    >>> round(float(kn(1, 1.0)), 15), round(float(fg.grad(kn, 1)(0, 1.0)), 15)  # -K_1
    (0.601907230197235, -0.601907230197235)
    """
    if isinstance(n, float):  # (a Python float stays weak: float32 x, float32 result)
        return kv(float(np.trunc(n)), x)
    n = _operand(n)
    dtype = n.dtype if hasattr(n, "dtype") else np.result_type(n)
    if dtype.kind == "c":
        raise TypeError("kn(n, x): complex n is not supported, as in scipy.special")
    # (an integer n takes SciPy's long loop: float64 even for a float32 x; the truncation
    # is piecewise constant: derivative 0 in n)
    order = fnp.astype(n, np.float32 if dtype == np.float32 else np.float64)
    return kv(fnp.trunc(order), x)


def j0(x: ArrayLike) -> Array:
    """Bessel's ``J_0(x)``; derivative ``-j1(x)``.

    >>> import funcgrad as fg
    >>> float(j0(0.0)), float(fg.grad(j0)(0.0))
    (1.0, -0.0)
    """
    return jv(0.0, x)


def j1(x: ArrayLike) -> Array:
    """Bessel's ``J_1(x)``; derivative ``j0(x) - j1(x)/x``.

    >>> import funcgrad as fg
    >>> float(j1(0.0)), float(fg.grad(j1)(0.0))
    (0.0, 0.5)
    """
    return jv(1.0, x)


def y0(x: ArrayLike) -> Array:
    """Bessel's ``Y_0(x)`` (``x > 0``); derivative ``-y1(x)``.

    >>> import funcgrad as fg
    >>> float(fg.grad(y0)(2.0)) == -float(y1(2.0))
    True
    """
    return yv(0.0, x)


def y1(x: ArrayLike) -> Array:
    """Bessel's ``Y_1(x)`` (``x > 0``); derivative ``y0(x) - y1(x)/x``.

    >>> import funcgrad as fg
    >>> round(float(fg.grad(y1)(2.0)) - (float(y0(2.0)) - float(y1(2.0)) / 2), 12)
    0.0
    """
    return yv(1.0, x)


def bessel_jn(z: ArrayLike, *, v: int, n_iter: int = 50) -> Array:
    """Bessel's ``J_k(z)`` for ``k = 0..v``, stacked on a new first axis
    (``jax.scipy.special.bessel_jn``'s signature; SciPy has ``jv``): SciPy's values.
    ``n_iter`` (the number of JAX's recurrence steps) is accepted and unused.

    >>> import numpy as np
    >>> bessel_jn(np.array([0.0, 1.0]), v=1).shape
    (2, 2)
    """
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
        raise ValueError(f"bessel_jn(z, v=...): v must be a non-negative int (the highest "
                         f"order), got {v!r}")
    z = _operand(z)
    return fnp.stack([jv(float(k), z) for k in range(int(v) + 1)])


def _integers_only(function: str, values: tuple, instead: str) -> None:
    if any(isinstance(v, _Tracer) for v in values):
        raise TypeError(
            f"{function} counts with integers and has no derivative (nor a traced value "
            f"under jit or vmap); pass plain numbers or NumPy arrays, or use {instead} for a "
            f"differentiable continuation")


def factorial(n: ArrayLike, exact: bool = False, extend: str = "zero") -> Any:
    """``n!`` (``scipy.special.factorial``, SciPy's values and options); an integer
    function: a traced ``n`` raises ``TypeError`` (``gamma(n + 1)`` is differentiable).

    >>> factorial(5), factorial(5, exact=True)
    (np.float64(120.0), 120)
    """
    _integers_only("factorial(n)", (n,), "funcgrad.scipy.special.gamma(n + 1)")
    import scipy.special  # (here, so that importing funcgrad never loads SciPy)
    return scipy.special.factorial(n, exact=exact, extend=extend)


def comb(N: ArrayLike, k: ArrayLike, *, exact: bool = False, repetition: bool = False) -> Any:
    """The number of combinations of ``N`` things taken ``k`` at a time
    (``scipy.special.comb``); an integer function: traced arguments raise ``TypeError``.

    >>> comb(5, 2), comb(5, 2, exact=True)
    (np.float64(10.0), 10)
    """
    _integers_only("comb(N, k)", (N, k), "exp(gammaln(N + 1) - gammaln(k + 1) - "
                   "gammaln(N - k + 1))")
    import scipy.special
    return scipy.special.comb(N, k, exact=exact, repetition=repetition)


def bernoulli(n: int) -> np.ndarray:
    """The Bernoulli numbers ``B_k`` for ``k = 0..n`` (``scipy.special.bernoulli``), a
    float64 array.

    >>> bernoulli(2)
    array([ 1.        , -0.5       ,  0.16666667])
    """
    _integers_only("bernoulli(n)", (n,), "a constant table")
    import scipy.special
    return scipy.special.bernoulli(n)
