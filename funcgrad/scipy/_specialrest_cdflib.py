"""SciPy's cdflib inverses in :mod:`funcgrad.scipy.special`: the argument of a
distribution function that gives a probability (``stdtridf``: the degrees of freedom
``df`` with ``stdtr(df, t) = p``; ``gdtria``, ``btdtria``, ``bdtrik``...), and
``betainccinv``.

Values are SciPy's (its ufuncs; through ``fg.pure_callback`` under ``jit`` and
``vmap``).  Derivatives in every argument come from the inverse function theorem: the
result ``x`` solves ``F(x, args) = given``, so ``dx = (d given - dF/dargs . dargs) /
(dF/dx)`` at SciPy's ``x`` (0 where no ``x`` solves it and SciPy returns its search range's
end, a constant there: ``pdtrik(0.27, 0.667)`` is 0), with ``F`` the distribution function written with
funcgrad's ``betainc``/``gammainc`` (the continuous extensions that cdflib inverts:
``bdtr(k, n, p) = betainc(n - k, k + 1, 1 - p)`` for real ``k``...).  Those have first
derivatives in their shapes but no second ones: a second derivative through a shape
raises ``NotImplementedError``, as theirs do.
"""
import math
from typing import Any, Callable

import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ..custom._decorators import _casting_custom_jvp as _custom_jvp  # (own rules: cast)
from ..forward_mode import jvp
from ..numpy._convert import is_concrete, operand as _operand
from ..primitives import elementwise as _ew
from ..typing import Array, ArrayLike
from ._special_cdtr import stdtr
from ._special_incomplete import betainc, betaincc, gammainc, gammaincc
from ._special_out import with_out as _with_out
from ._special_real import reject_complex as _reject_complex

_FRONTS_NEED = (_operand, _reject_complex, Array, ArrayLike)  # (the compiled fronts' names)

__all__ = ["bdtrik", "bdtrin", "btdtria", "btdtrib", "chdtriv", "fdtridfd", "gdtria",
           "gdtrib", "nbdtrik", "nbdtrin", "nrdtrimn", "nrdtrisd", "pdtrik", "stdtridf",
           "betainccinv"]


def _scipys(name: str, args: list) -> Any:
    """SciPy's ``name(*args)``: directly on plain values, else through pure_callback."""
    def call(*values):
        import scipy.special  # (here: importing funcgrad never loads SciPy)
        return getattr(scipy.special, name)(*values)
    if all(is_concrete(a) for a in args):
        return call(*[np.asarray(a) for a in args])
    shape = np.broadcast_shapes(*[np.shape(a) for a in args])
    dtype = np.result_type(*[a.dtype if hasattr(a, "dtype") else np.asarray(a).dtype
                             for a in args])
    loop = np.float32 if dtype == np.float32 else np.float64  # (SciPy's two loops)
    return pure_callback(call, np.zeros(shape, loop), *args, vmap_method="broadcast_all")


def _ndtr(z: Any) -> Any:
    return _ew.erfc(z * -math.sqrt(0.5)) * 0.5


def _inverse(name: str, params: str, residual: Callable[..., Any], doc: str) -> Any:
    """The function ``name(*params)`` whose result ``x`` solves ``residual(x, *args) = 0``,
    with the derivatives of the implicit function."""
    @_custom_jvp
    def solve(*args):
        return _scipys(name, list(args))

    @solve.defjvp
    def solve_jvp(primals, tangents):
        x = solve(*primals)
        miss, along_x = jvp(lambda t: residual(t, *primals), (x,), (fnp.ones_like(x),))
        _, along_args = jvp(lambda *a: residual(x, *a), tuple(primals), tuple(tangents))
        # (where no x in cdflib's search range solves the equation, SciPy returns the
        # range's end (pdtrik(0.27, 0.667) is 0: pdtr(0, 0.667) > 0.27 already), the same
        # for every nearby argument: the derivative there is 0, not the implicit one.  The
        # Newton step from SciPy's x tells: a root's is far below cdflib's tolerance)
        clamped = fnp.abs(miss) > 1e-6 * fnp.abs(along_x) * fnp.maximum(fnp.abs(x), 1.0)
        return x, fnp.where(clamped, 0.0, -along_args / fnp.where(clamped, 1.0, along_x))

    source = (f"def {name}({', '.join(p + ': ArrayLike' for p in params.split(', '))}"
              f") -> Array:\n"
              f"    args = tuple(_operand(a) for a in ({params},))\n"
              f"    _reject_complex({name!r}, 'pass real arrays, as to SciPy', *args)\n"
              f"    return _solve(*args)\n")
    home = dict(globals(), _solve=solve)
    local: dict = {}
    exec(compile(source, __file__, "exec"), home, local)  # noqa: S102
    f = local[name]
    f.__doc__ = doc
    return _with_out(f)


def _binomial(k, n, p):
    return betainc(n - k, k + 1.0, 1.0 - p)


def _f_cdf(dfn, dfd, x):
    return betainc(dfn * 0.5, dfd * 0.5, dfn * x / (dfd + dfn * x))


_DOCS: dict = {}
_DOCS.update({
    "bdtrik": """The number of successes ``k`` (real: cdflib's continuous extension) at
    which the binomial CDF ``bdtr(k, n, p)`` is ``y``, as ``scipy.special.bdtrik`` (SciPy's
    values); differentiable in every argument (the inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (0.3, 10.0, 0.4)
    >>> round(float(bdtrik(*args)), 10), round(float(fg.grad(bdtrik, 2)(*args)), 8)
    (2.6562039709, 9.91252832)
    """,
    "bdtrin": """The number of trials ``n`` at which the binomial CDF ``bdtr(k, n, p)`` is
    ``y``, as ``scipy.special.bdtrin`` (SciPy's values); differentiable in every argument
    (the inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (3.0, 0.3, 0.4)
    >>> round(float(bdtrin(*args)), 10), round(float(fg.grad(bdtrin, 2)(*args)), 8)
    (10.9528399108, -29.99624328)
    """,
    "btdtria": """The beta shape ``a`` at which ``betainc(a, b, x)`` is ``p``, as
    ``scipy.special.btdtria`` (SciPy's values); differentiable in every argument (the
    inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (0.3, 2.0, 0.4)
    >>> round(float(btdtria(*args)), 10), round(float(fg.grad(btdtria, 0)(*args)), 8)
    (2.245057562, -5.04554368)
    """,
    "btdtrib": """The beta shape ``b`` at which ``betainc(a, b, x)`` is ``p``, as
    ``scipy.special.btdtrib`` (SciPy's values); differentiable in every argument (the
    inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (1.5, 0.3, 0.4)
    >>> round(float(btdtrib(*args)), 10), round(float(fg.grad(btdtrib, 0)(*args)), 8)
    (1.1893098422, 1.03509999)
    """,
    "chdtriv": """The degrees of freedom ``v`` at which the chi-square CDF ``chdtr(v, x)``
    is ``p``, as ``scipy.special.chdtriv`` (SciPy's values); differentiable in every
    argument (the inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (0.3, 2.5)
    >>> round(float(chdtriv(*args)), 10), round(float(fg.grad(chdtriv, 1)(*args)), 8)
    (4.3831579195, 1.24614864)
    """,
    "fdtridfd": """The denominator degrees of freedom ``dfd`` at which the F CDF ``fdtr(dfn,
    dfd, x)`` is ``p``, as ``scipy.special.fdtridfd`` (SciPy's values); differentiable in
    every argument (the inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (3.0, 0.4, 1.2)
    >>> round(float(fdtridfd(*args)), 10), round(float(fg.grad(fdtridfd, 2)(*args)), 8)
    (0.8113972736, -0.900492)
    """,
    "gdtria": """The rate ``a`` at which the gamma CDF ``gdtr(a, b, x)`` is ``p``, as
    ``scipy.special.gdtria`` (SciPy's values); differentiable in every argument (the inverse
    function theorem).

    >>> import funcgrad as fg
    >>> args = (0.3, 2.0, 1.5)
    >>> round(float(gdtria(*args)), 10), round(float(fg.grad(gdtria, 2)(*args)), 8)
    (0.7315661405, -0.48771076)
    """,
    "gdtrib": """The shape ``b`` at which the gamma CDF ``gdtr(a, b, x)`` is ``p``, as
    ``scipy.special.gdtrib`` (SciPy's values); differentiable in every argument (the inverse
    function theorem).

    >>> import funcgrad as fg
    >>> args = (1.2, 0.3, 1.5)
    >>> round(float(gdtrib(*args)), 10), round(float(fg.grad(gdtrib, 2)(*args)), 8)
    (2.8636214783, 1.44236158)
    """,
    "nbdtrik": """The number of failures ``k`` at which the negative binomial CDF ``nbdtr(k,
    n, p)`` is ``y``, as ``scipy.special.nbdtrik`` (SciPy's values); differentiable in every
    argument (the inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (0.3, 5.0, 0.4)
    >>> round(float(nbdtrik(*args)), 10), round(float(fg.grad(nbdtrik, 2)(*args)), 8)
    (4.3375447012, -22.48531314)
    """,
    "nbdtrin": """The number of successes ``n`` at which the negative binomial CDF
    ``nbdtr(k, n, p)`` is ``y``, as ``scipy.special.nbdtrin`` (SciPy's values);
    differentiable in every argument (the inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (3.0, 0.3, 0.4)
    >>> round(float(nbdtrin(*args)), 10), round(float(fg.grad(nbdtrin, 2)(*args)), 8)
    (3.9282827023, 13.5703557)
    """,
    "nrdtrimn": """The mean ``mn`` at which the normal CDF of ``x`` with standard deviation
    ``std`` is ``p``, as ``scipy.special.nrdtrimn`` (SciPy's values); differentiable in
    every argument (the inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (0.3, 2.0, 1.0)
    >>> round(float(nrdtrimn(*args)), 10), round(float(fg.grad(nrdtrimn, 0)(*args)), 8)
    (2.0488010254, -5.75220732)
    """,
    "nrdtrisd": """The standard deviation at which the normal CDF of ``x`` with mean ``mn``
    is ``p``, as ``scipy.special.nrdtrisd`` (SciPy's values); differentiable in every
    argument (the inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (0.5, 0.3, 1.0)
    >>> round(float(nrdtrisd(*args)), 10), round(float(fg.grad(nrdtrisd, 2)(*args)), 8)
    (-0.9534697009, -1.9069394)
    """,
    "pdtrik": """The count ``k`` at which the Poisson CDF ``pdtr(k, m)`` (``gammaincc(k + 1,
    m)``) is ``p``, as ``scipy.special.pdtrik`` (SciPy's values); differentiable in every
    argument (the inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (0.3, 2.5)
    >>> round(float(pdtrik(*args)), 10), round(float(fg.grad(pdtrik, 1)(*args)), 8)
    (1.0507957489, 0.83661732)
    """,
    "stdtridf": """The degrees of freedom ``df`` at which Student's t CDF ``stdtr(df, t)``
    is ``p``, as ``scipy.special.stdtridf`` (SciPy's values); differentiable in every
    argument (the inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (0.8, 1.5)
    >>> round(float(stdtridf(*args)), 10), round(float(fg.grad(stdtridf, 1)(*args)), 8)
    (0.8662776801, -0.88447242)
    """,
    "betainccinv": """The inverse of ``betaincc`` in ``x``: the ``x`` with ``betaincc(a, b,
    x) = y``, as ``scipy.special.betainccinv`` (SciPy's values); differentiable in every
    argument (the inverse function theorem).

    >>> import funcgrad as fg
    >>> args = (1.5, 2.5, 0.3)
    >>> round(float(betainccinv(*args)), 10), round(float(fg.grad(betainccinv, 2)(*args)), 8)
    (0.4905025876, -0.77089684)
    """,
})
bdtrik = _inverse("bdtrik", "y, n, p", lambda k, y, n, p: _binomial(k, n, p) - y,
                  _DOCS.get("bdtrik", ""))
bdtrin = _inverse("bdtrin", "k, y, p", lambda n, k, y, p: _binomial(k, n, p) - y,
                  _DOCS.get("bdtrin", ""))
btdtria = _inverse("btdtria", "p, b, x", lambda a, p, b, x: betainc(a, b, x) - p,
                   _DOCS.get("btdtria", ""))
btdtrib = _inverse("btdtrib", "a, p, x", lambda b, a, p, x: betainc(a, b, x) - p,
                   _DOCS.get("btdtrib", ""))
chdtriv = _inverse("chdtriv", "p, x", lambda v, p, x: gammainc(v * 0.5, x * 0.5) - p,
                   _DOCS.get("chdtriv", ""))
fdtridfd = _inverse("fdtridfd", "dfn, p, x", lambda dfd, dfn, p, x: _f_cdf(dfn, dfd, x) - p,
                    _DOCS.get("fdtridfd", ""))
gdtria = _inverse("gdtria", "p, b, x", lambda a, p, b, x: gammainc(b, a * x) - p,
                  _DOCS.get("gdtria", ""))
gdtrib = _inverse("gdtrib", "a, p, x", lambda b, a, p, x: gammainc(b, a * x) - p,
                  _DOCS.get("gdtrib", ""))
nbdtrik = _inverse("nbdtrik", "y, n, p", lambda k, y, n, p: betainc(n, k + 1.0, p) - y,
                   _DOCS.get("nbdtrik", ""))
nbdtrin = _inverse("nbdtrin", "k, y, p", lambda n, k, y, p: betainc(n, k + 1.0, p) - y,
                   _DOCS.get("nbdtrin", ""))
nrdtrimn = _inverse("nrdtrimn", "p, std, x", lambda mn, p, std, x: _ndtr((x - mn) / std) - p,
                    _DOCS.get("nrdtrimn", ""))
nrdtrisd = _inverse("nrdtrisd", "mn, p, x", lambda sd, mn, p, x: _ndtr((x - mn) / sd) - p,
                    _DOCS.get("nrdtrisd", ""))
pdtrik = _inverse("pdtrik", "p, m", lambda k, p, m: gammaincc(k + 1.0, m) - p,
                  _DOCS.get("pdtrik", ""))
stdtridf = _inverse("stdtridf", "p, t", lambda df, p, t: stdtr(df, t) - p,
                    _DOCS.get("stdtridf", ""))
betainccinv = _inverse("betainccinv", "a, b, y", lambda x, a, b, y: betaincc(a, b, x) - y,
                       _DOCS.get("betainccinv", ""))
