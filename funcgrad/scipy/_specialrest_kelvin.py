"""The Kelvin functions of :mod:`funcgrad.scipy.special`: ``ber``, ``bei``, ``ker``,
``kei``, their derivatives ``berp``, ``beip``, ``kerp``, ``keip``, and ``kelvin``, all
four complex combinations at once.  SciPy's values (real arguments only, as SciPy's);
differentiable in ``x`` at every order (``ber' = berp``, and ``berp'`` from the Kelvin
equation: :mod:`funcgrad.primitives.special_scipy_kelvin`).  Each takes SciPy's ufunc
keyword ``out=``."""
from .. import numpy as fnp
from ..numpy._convert import operand as _operand
from ..primitives import special_scipy_kelvin as _kelvin
from ..typing import Array, ArrayLike
from ._special_more import _front
from ._special_out import with_out as _with_out
from ._special_real import reject_complex as _reject_complex

_FRONTS_NEED = (_operand, _reject_complex, Array, ArrayLike)  # (the compiled fronts' names)
_REAL = "pass a real array, as to SciPy's function (kelvin(x) gives the complex combinations)"

__all__ = ["kelvin", "ber", "bei", "ker", "kei", "berp", "beip", "kerp", "keip"]


def _kelvin_front(name, doc):
    return _with_out(_front(getattr(_kelvin, name), "x", doc, home=globals(),
                            module="_kelvin", real=_REAL))


ber = _kelvin_front("ber", """The Kelvin function ``ber(x)``, the real part of
    ``J_0(x exp(3 pi i / 4))`` (SciPy's values); derivative ``berp(x)``.

    >>> import funcgrad as fg
    >>> float(ber(0.0)), round(float(fg.grad(ber)(1.0)), 12) == round(float(berp(1.0)), 12)
    (1.0, True)
    """)
bei = _kelvin_front("bei", """The Kelvin function ``bei(x)``, the imaginary part of
    ``J_0(x exp(3 pi i / 4))`` (SciPy's values); derivative ``beip(x)``.

    >>> import funcgrad as fg
    >>> round(float(bei(1.0)), 12), round(float(fg.grad(bei)(1.0)), 12)
    (0.249566040037, 0.497396511468)
    """)
ker = _kelvin_front("ker", """The Kelvin function ``ker(x)``, the real part of
    ``K_0(x exp(pi i / 4))`` (SciPy's values: ``inf`` at 0, NaN below); derivative
    ``kerp(x)``.

    >>> import funcgrad as fg
    >>> round(float(ker(1.0)), 12), round(float(fg.grad(ker)(1.0)), 12)
    (0.286706208728, -0.694603891101)
    """)
kei = _kelvin_front("kei", """The Kelvin function ``kei(x)``, the imaginary part of
    ``K_0(x exp(pi i / 4))`` (SciPy's values: ``-pi/4`` at 0, NaN below); derivative
    ``keip(x)``.

    >>> round(float(kei(0.0)), 12)
    -0.785398163397
    """)
berp = _kelvin_front("berp", """The derivative of ``ber`` (SciPy's values); its own
    derivative is ``-berp(x)/x - bei(x)`` (the Kelvin equation; 0 at ``x = 0``).

    >>> import funcgrad as fg
    >>> round(float(fg.grad(berp)(1.0)), 12) == round(-float(berp(1.0)) - float(bei(1.0)), 12)
    True
    """)
beip = _kelvin_front("beip", """The derivative of ``bei`` (SciPy's values); its own
    derivative is ``-beip(x)/x + ber(x)`` (the Kelvin equation; 1/2 at ``x = 0``).

    >>> import funcgrad as fg
    >>> float(fg.grad(beip)(0.0))
    0.5
    """)
kerp = _kelvin_front("kerp", """The derivative of ``ker`` (SciPy's values); its own
    derivative is ``-kerp(x)/x - kei(x)`` (the Kelvin equation; ``inf`` at 0).

    >>> float(kerp(0.0))
    -inf
    """)
keip = _kelvin_front("keip", """The derivative of ``kei`` (SciPy's values); its own
    derivative is ``-keip(x)/x + ker(x)`` (the Kelvin equation; ``inf`` at 0).

    >>> float(keip(0.0))
    0.0
    """)


def _complex(re, im):
    dtype = fnp.result_type(re.dtype, fnp.complex64)
    return fnp.astype(re, dtype) + fnp.astype(im, dtype) * 1j


def kelvin(x: ArrayLike) -> tuple[Array, Array, Array, Array]:
    """The Kelvin functions as complex numbers, ``(Be, Ke, Bep, Kep)``: ``ber + i bei``,
    ``ker + i kei``, ``berp + i beip`` and ``kerp + i keip``, as ``scipy.special.kelvin``
    (complex64 for float32 ``x``); each differentiable in a real ``x``
    (``fg.grad`` of a real part, or ``fg.jacfwd``).

    >>> import funcgrad as fg
    >>> be, ke, bep, kep = kelvin(1.0)
    >>> complex(be) == complex(float(ber(1.0)), float(bei(1.0)))
    True
    >>> slope = fg.grad(lambda x: fnp.real(kelvin(x)[0]))(1.0)
    >>> round(float(slope), 12) == round(float(berp(1.0)), 12)
    True
    """
    x = _operand(x)
    _reject_complex("kelvin", "pass a real array, as to SciPy's function", x)
    return (_complex(ber(x), bei(x)), _complex(ker(x), kei(x)),
            _complex(berp(x), beip(x)), _complex(kerp(x), keip(x)))


kelvin = _with_out(kelvin)
