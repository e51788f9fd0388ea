"""The zeros of special functions in :mod:`funcgrad.scipy.special` (``jn_zeros``,
``ai_zeros``, ``kelvin_zeros``...): SciPy's own values, as plain NumPy arrays.

Their arguments are integers (orders, counts), so they have no derivative: a traced
argument (under ``grad``, ``jit`` or ``vmap``) raises a ``TypeError`` saying so, rather
than SciPy's error from deep inside.
"""
from typing import Any

from ..core import Tracer as _Tracer

__all__ = ["jn_zeros", "jnp_zeros", "yn_zeros", "ynp_zeros", "y0_zeros", "y1_zeros", "y1p_zeros",
           "jnyn_zeros", "jnjnp_zeros", "ai_zeros", "bi_zeros", "erf_zeros",
           "fresnel_zeros", "fresnelc_zeros", "fresnels_zeros", "ber_zeros",
           "bei_zeros", "berp_zeros", "beip_zeros", "ker_zeros", "kei_zeros",
           "kerp_zeros", "keip_zeros", "kelvin_zeros"]


def _scipy(name: str, *args: Any, **kwargs: Any) -> Any:
    for value in list(args) + list(kwargs.values()):
        if isinstance(value, _Tracer):
            raise TypeError(
                f"{name}: its arguments are integers (orders and counts) and its zeros "
                f"SciPy's values, with no derivative; pass plain Python or NumPy values "
                f"(outside grad/jit/vmap)")
    import scipy.special  # (here: importing funcgrad never loads SciPy)
    return getattr(scipy.special, name)(*args, **kwargs)


def jn_zeros(n: int, nt: int) -> Any:
    """The first ``nt`` zeros of the Bessel function ``J_n`` (integer ``n >= 0``), as
    ``scipy.special.jn_zeros`` (SciPy's values; no derivative).

    >>> jn_zeros(0, 2).round(6)
    array([2.404826, 5.520078])
    """
    return _scipy("jn_zeros", n, nt)


def jnp_zeros(n: int, nt: int) -> Any:
    """The first ``nt`` zeros of ``J_n'``, the derivative of the Bessel function ``J_n``, as
    ``scipy.special.jnp_zeros`` (SciPy's values; no derivative).

    >>> jnp_zeros(1, 2).round(6)
    array([1.841184, 5.331443])
    """
    return _scipy("jnp_zeros", n, nt)


def yn_zeros(n: int, nt: int) -> Any:
    """The first ``nt`` zeros of the Bessel function ``Y_n``, as ``scipy.special.yn_zeros``
    (SciPy's values; no derivative).

    >>> yn_zeros(0, 2).round(6)
    array([0.893577, 3.957678])
    """
    return _scipy("yn_zeros", n, nt)


def ynp_zeros(n: int, nt: int) -> Any:
    """The first ``nt`` zeros of ``Y_n'``, as ``scipy.special.ynp_zeros`` (SciPy's values;
    no derivative).

    >>> ynp_zeros(0, 2).round(6)
    array([2.197141, 5.429681])
    """
    return _scipy("ynp_zeros", n, nt)


def y0_zeros(nt: int, complex: bool = False) -> Any:
    """``(z, y1(z))``: the first ``nt`` zeros of ``Y_0`` and the slope there (with
    ``complex=True`` its complex zeros instead), as ``scipy.special.y0_zeros`` (SciPy's
    values; no derivative).

    >>> y0_zeros(2)[0].round(6)
    array([0.893577+0.j, 3.957678+0.j])
    """
    return _scipy("y0_zeros", nt, complex=complex)


def y1_zeros(nt: int, complex: bool = False) -> Any:
    """``(z, y0(z))``: the first ``nt`` zeros of ``Y_1`` and the slope there
    (``complex=True``: its complex zeros), as ``scipy.special.y1_zeros`` (SciPy's values; no
    derivative).

    >>> y1_zeros(2)[0].round(6)
    array([2.197141+0.j, 5.429681+0.j])
    """
    return _scipy("y1_zeros", nt, complex=complex)


def y1p_zeros(nt: int, complex: bool = False) -> Any:
    """``(z, y1(z))``: the first ``nt`` zeros of ``Y_1'`` and ``Y_1`` there
    (``complex=True``: its complex zeros), as ``scipy.special.y1p_zeros`` (SciPy's values;
    no derivative).

    >>> y1p_zeros(2)[0].round(6)
    array([3.683023+0.j, 6.9415  +0.j])
    """
    return _scipy("y1p_zeros", nt, complex=complex)


def jnyn_zeros(n: int, nt: int) -> Any:
    """``(Jn, Jn', Yn, Yn')``: the first ``nt`` zeros of ``J_n``, ``J_n'``, ``Y_n`` and
    ``Y_n'``, as ``scipy.special.jnyn_zeros`` (SciPy's values; no derivative).

    >>> jnyn_zeros(0, 2)[0].round(6)
    array([2.404826, 5.520078])
    """
    return _scipy("jnyn_zeros", n, nt)


def jnjnp_zeros(nt: int) -> Any:
    """``(zo, n, m, t)``: the first ``nt`` zeros of the ``J_n`` and ``J_n'`` together, in
    order, with the order ``n``, the serial number ``m`` and the kind ``t`` (0: ``J_n``, 1:
    ``J_n'``) of each, as ``scipy.special.jnjnp_zeros`` (SciPy's values; no derivative).

    >>> jnjnp_zeros(3)[0].round(6)
    array([0.      , 1.841184, 2.404826])
    """
    return _scipy("jnjnp_zeros", nt)


def ai_zeros(nt: int) -> Any:
    """``(a, ap, ai, aip)``: the first ``nt`` zeros of ``Ai`` and ``Ai'`` and the values of
    ``Ai'`` and ``Ai`` there, as ``scipy.special.ai_zeros`` (SciPy's values; no derivative).

    >>> ai_zeros(2)[0].round(6)
    array([-2.338107, -4.087949])
    """
    return _scipy("ai_zeros", nt)


def bi_zeros(nt: int) -> Any:
    """``(b, bp, bi, bip)``: the first ``nt`` zeros of ``Bi`` and ``Bi'`` and the values of
    ``Bi'`` and ``Bi`` there, as ``scipy.special.bi_zeros`` (SciPy's values; no derivative).

    >>> bi_zeros(2)[0].round(6)
    array([-1.173713, -3.271093])
    """
    return _scipy("bi_zeros", nt)


def erf_zeros(nt: int) -> Any:
    """The first ``nt`` zeros of ``erf`` in the first quadrant (complex), as
    ``scipy.special.erf_zeros`` (SciPy's values; no derivative).

    >>> erf_zeros(1).round(6)
    array([1.450616+1.880943j])
    """
    return _scipy("erf_zeros", nt)


def fresnel_zeros(nt: int) -> Any:
    """``(zs, zc)``: the first ``nt`` complex zeros of the Fresnel integrals ``S(z)`` and
    ``C(z)``, as ``scipy.special.fresnel_zeros`` (SciPy's values; no derivative).

    >>> fresnel_zeros(1)[0].round(6)
    array([2.009257+0.288548j])
    """
    return _scipy("fresnel_zeros", nt)


def fresnelc_zeros(nt: int) -> Any:
    """The first ``nt`` complex zeros of the Fresnel integral ``C(z)``, as
    ``scipy.special.fresnelc_zeros`` (SciPy's values; no derivative).

    >>> fresnelc_zeros(1).round(6)
    array([1.743667+0.305735j])
    """
    return _scipy("fresnelc_zeros", nt)


def fresnels_zeros(nt: int) -> Any:
    """The first ``nt`` complex zeros of the Fresnel integral ``S(z)``, as
    ``scipy.special.fresnels_zeros`` (SciPy's values; no derivative).

    >>> fresnels_zeros(1).round(6)
    array([2.009257+0.288548j])
    """
    return _scipy("fresnels_zeros", nt)


def ber_zeros(nt: int) -> Any:
    """The first ``nt`` zeros of the Kelvin function ``ber``, as ``scipy.special.ber_zeros``
    (SciPy's values; no derivative).

    >>> ber_zeros(2).round(6)
    array([2.848918, 7.238829])
    """
    return _scipy("ber_zeros", nt)


def bei_zeros(nt: int) -> Any:
    """The first ``nt`` zeros of the Kelvin function ``bei``, as ``scipy.special.bei_zeros``
    (SciPy's values; no derivative).

    >>> bei_zeros(2).round(6)
    array([5.026224, 9.455406])
    """
    return _scipy("bei_zeros", nt)


def berp_zeros(nt: int) -> Any:
    """The first ``nt`` zeros of ``ber'``, as ``scipy.special.berp_zeros`` (SciPy's values;
    no derivative).

    >>> berp_zeros(2).round(6)
    array([ 6.038711, 10.513643])
    """
    return _scipy("berp_zeros", nt)


def beip_zeros(nt: int) -> Any:
    """The first ``nt`` zeros of ``bei'``, as ``scipy.special.beip_zeros`` (SciPy's values;
    no derivative).

    >>> beip_zeros(2).round(6)
    array([3.772673, 8.280988])
    """
    return _scipy("beip_zeros", nt)


def ker_zeros(nt: int) -> Any:
    """The first ``nt`` zeros of the Kelvin function ``ker``, as ``scipy.special.ker_zeros``
    (SciPy's values; no derivative).

    >>> ker_zeros(2).round(6)
    array([1.718543, 6.127279])
    """
    return _scipy("ker_zeros", nt)


def kei_zeros(nt: int) -> Any:
    """The first ``nt`` zeros of the Kelvin function ``kei``, as ``scipy.special.kei_zeros``
    (SciPy's values; no derivative).

    >>> kei_zeros(2).round(6)
    array([3.914668, 8.344225])
    """
    return _scipy("kei_zeros", nt)


def kerp_zeros(nt: int) -> Any:
    """The first ``nt`` zeros of ``ker'``, as ``scipy.special.kerp_zeros`` (SciPy's values;
    no derivative).

    >>> kerp_zeros(2).round(6)
    array([2.66584 , 7.172122])
    """
    return _scipy("kerp_zeros", nt)


def keip_zeros(nt: int) -> Any:
    """The first ``nt`` zeros of ``kei'``, as ``scipy.special.keip_zeros`` (SciPy's values;
    no derivative).

    >>> keip_zeros(2).round(6)
    array([4.931812, 9.404055])
    """
    return _scipy("keip_zeros", nt)


def kelvin_zeros(nt: int) -> Any:
    """The first ``nt`` zeros of all the Kelvin functions: ``(ber, bei, ker, kei, ber',
    bei', ker', kei')``, as ``scipy.special.kelvin_zeros`` (SciPy's values; no derivative).

    >>> kelvin_zeros(1)[0].round(6)
    array([2.848918])
    """
    return _scipy("kelvin_zeros", nt)
