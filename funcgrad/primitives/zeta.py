"""The Hurwitz zeta function ``zeta(s, q) = sum over n >= 0 of (n + q)**-s`` and its
derivatives in the exponent ``s``, as elementwise primitives.

- ``zeta``: Euler-Maclaurin summation as Cephes' ``zeta`` (the algorithm SciPy uses): the
  first terms directly, up to ``a = q + N > 9``, then the integral of the rest, half the
  term at ``a`` and the Bernoulli corrections.
- ``zeta_ds1`` ... ``zeta_ds4``: ``d^m/ds^m zeta(s, q) = (-1)**m sum log(n + q)**m (n + q)**-s``
  (``m = 1..4``), by the same summation applied to ``f(x) = log(x)**m x**-s``: the
  integral ``int_a^inf log(x)**m x**-s dx = a**(1-s) I_m`` with ``I_0 = 1/(s-1)``,
  ``I_m = (log(a)**m + m I_{m-1}) / (s-1)``; and the odd derivatives of ``f`` at ``a``,
  ``-f^(2k-1)(a) = sum_i binom(m, i) (-1)**i P_k^(i)(s) log(a)**(m-i) a**(-s-2k+1)`` with
  ``P_k(s) = s (s+1) ... (s+2k-2)`` (Leibniz on the ``m``-th ``s``-derivative of
  ``x**-s``'s), ``P_k``'s derivatives carried factor by factor.  Every term of the tail is
  of one sign: no cancellation beyond the one ``log(q) < 0`` brings when ``q < 1``.

Derivatives: in ``q``, ``d/dq zeta(s, q) = -s zeta(s + 1, q)`` and, for the ``m``-th
``s``-derivative, ``-m zeta_ds{m-1}(s + 1, q) - s zeta_ds{m}(s + 1, q)``; in ``s``, the next
order, up to the fourth: a fifth derivative in the exponent raises ``NotImplementedError``.

Where the value is not finite the derivatives follow it: ``s = 1`` (the pole) gives
``(-1)**m inf``; ``s < 1`` NaN, as the value.  For ``q <= 0`` the derivatives in ``s`` are
NaN: the terms ``(n + q)**-s`` with ``n + q < 0`` are real only at integer ``s`` (which is
where SciPy gives a value), so no real derivative in ``s`` exists there.
"""
import math

from ._elementwise import elementwise
from .elementwise import _fn2 as _fn

__all__ = ["zeta", "zeta_ds1", "zeta_ds2", "zeta_ds3", "zeta_ds4", "MAX_ORDER"]

EPS = 2.220446049250313e-16
MAX_ORDER = 4
"""The highest derivative in the exponent that is a primitive (a higher one raises)."""

# Cephes' zeta(x, q): the A[i] of its Euler-Maclaurin tail, (2k)! / B_2k.
_ZETA_A = [12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
           7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
           -4.5979787224074726105e15, 1.8152105401943546773e17, -7.1661652561756670113e18]


def _zeta_body():
    tail = []
    for a in _ZETA_A:
        tail.append(f"""            if not done:
                fa = fa * (s + k)
                b = b / w
                t = fa * b / C({a!r})
                acc = acc + t
                if abs(t / acc) < C({EPS / 2!r}):
                    done = True
                k = k + C(1)
                fa = fa * (s + k)
                b = b / w
                k = k + C(1)""")
    return f"""s = x0
q = x1
ok = True
if s == C(1):
    r = C(F.INF)
    ok = False
elif s < C(1) or s != s or q != q:
    r = C(F.NAN)
    ok = False
elif q <= C(0):
    if q == F.floor(q):
        r = C(F.INF)
        ok = False
    elif s != F.floor(s):
        r = C(F.NAN)
        ok = False
if ok:
    if q > C(1e8):
        r = (C(1) / (s - C(1)) + C(0.5) / q) * F.pow(q, C(1) - s)
    else:
        acc = F.pow(q, -s)
        a = q
        n = C(0)
        b = C(0)
        # (q**-s underflowed, q >= 1: every later term is smaller, the sum is 0; the
        # tests below would divide 0 by 0 and the tail overflow, NaN in float32)
        done = acc == C(0)
        while (n < C(9) or a <= C(9)) and not done:
            n = n + C(1)
            a = a + C(1)
            b = F.pow(a, -s)
            acc = acc + b
            if abs(b / acc) < C({EPS / 2!r}):
                done = True
        if not done:
            w = a
            acc = acc + b * w / (s - C(1))
            acc = acc - C(0.5) * b
            fa = C(1)
            k = C(0)
{chr(10).join(tail)}
        r = acc"""


def _powers(m, base, prefix):
    """Lines setting ``{prefix}0 .. {prefix}m`` to ``base**0 .. base**m`` (products: exact
    signs for a negative base)."""
    lines = [f"{prefix}0 = C(1)"]
    lines += [f"{prefix}{k} = {prefix}{k - 1} * {base}" for k in range(1, m + 1)]
    return lines


def _times_factor(m, c):
    """Lines multiplying the scaled polynomial ``e_i = P^(i)(s) / a**j`` (``i <= m``) by
    ``(s + c) / a``: Leibniz, ``(P (s+c))^(i) = P^(i) (s+c) + i P^(i-1)``."""
    lines = [f"e{i} = (e{i} * (s + C({float(c)!r})) + C({float(i)!r}) * e{i - 1}) / a"
             for i in range(m, 0, -1)]
    return lines + [f"e0 = e0 * (s + C({float(c)!r})) / a"]


def _times_factor_var(m, c):
    """As :func:`_times_factor`, by ``(s + c) / a`` for a variable ``c``."""
    lines = [f"e{i} = (e{i} * (s + {c}) + C({float(i)!r}) * e{i - 1}) / a"
             for i in range(m, 0, -1)]
    return lines + [f"e0 = e0 * (s + {c}) / a"]


def _zeta_ds_body(m):
    """The scalar code of ``d^m/ds^m zeta(s, q)`` (see the module docstring)."""
    sign = "" if m % 2 == 0 else "-"
    indent = " " * 8
    combination = " + ".join(
        f"C({(-1) ** i * math.comb(m, i)!r}.0) * e{i} * l{m - i}" for i in range(m + 1))
    integral = ["u = C(1) / (s - C(1))", "big_i = u"] + [
        f"big_i = u * (l{k} + C({float(k)!r}) * big_i)" for k in range(1, m + 1)]
    # (one loop over the Bernoulli terms, their constants picked by an if-chain: unrolled,
    # the four orders' kernels took ~15 s each to compile)
    bernoulli = [f"e{i} = C(0)" for i in range(1, m + 1)] + ["e0 = C(1)"]
    bernoulli += _times_factor(m, 0) + [f"e{i} = e{i} / a" for i in range(m + 1)]
    bernoulli += ["c = C(1)", f"for k in range({len(_ZETA_A)}):", "    if not bdone:"]
    pick = []
    for k, a_k in enumerate(_ZETA_A):
        pick += [f"{'if' if k == 0 else 'elif'} k == {k}:" if k < len(_ZETA_A) - 1 else "else:",
                 f"    big_a = C({a_k!r})"]
    body = (["if k > 0:"] + ["    " + line for line in _times_factor_var(m, "c")
                             + ["c = c + C(1)"] + _times_factor_var(m, "c") + ["c = c + C(1)"]]
            + pick + [
                f"t = ({combination}) / big_a",
                "tail = tail + t",
                f"if abs(t) < C({EPS / 2!r}) * abs(tail + acc / scale):",
                "    bdone = True"])
    bernoulli += ["        " + line for line in body]
    tail_lines = (["L = F.log(a)", "scale = F.pow(a, C(1) - s)", "if scale != C(0):"]
                  + ["    " + line for line in _powers(m, "L", "l") + integral + [
                      f"tail = big_i + C(0.5) * l{m} / a", "bdone = False"] + bernoulli
                     + ["acc = acc + scale * tail"]])
    direct = _powers(m, "L", "l")
    return f"""s = x0
q = x1
if s != s or q != q:
    r = C(F.NAN)
elif s == C(1):
    r = {sign}C(F.INF)
elif s < C(1) or q <= C(0):
    r = C(F.NAN)
else:
    acc = C(0)
    x = q
    n = C(0)
    # (beyond q = 1e8 the tail alone, from a = q: x**-s may underflow where the sum of
    # the tail, a**(1-s) I_m, does not)
    big = q > C(1e8)
    done = False
    while (n < C(9) or x <= C(9)) and not done and not big:
        p = F.pow(x, -s)
        L = F.log(x)
{chr(10).join(indent + line for line in direct)}
        t = l{m} * p
        acc = acc + t
        if p == C(0):  # (x**-s underflowed: so does every later term)
            done = True
        elif L * s > C({float(m)!r}) and abs(t) < C({EPS / 2!r}) * abs(acc):
            done = True  # (terms decreasing from here on, log(x) > m/s, and negligible)
        x = x + C(1)
        n = n + C(1)
    if not done:
        a = x
{chr(10).join("        " + line for line in tail_lines)}
    r = {sign}acc"""


def _zeta_lin_s(g, s, q, out):
    return g * zeta_ds1(s, q)


# d/dq sum (k + q)**-s = -s * zeta(s + 1, q)
def _zeta_lin_q(g, s, q, out):
    return g * (zeta(s + 1.0, q) * -s)


def _declare(m):
    def lin_s(g, s, q, out):
        if m == MAX_ORDER:
            raise NotImplementedError(
                f"zeta(x, q): derivatives of order above {MAX_ORDER} with respect to x (the "
                "exponent) are not implemented; stop one derivative short, or wrap x in "
                "fg.stop_gradient(x) where no derivative should flow")
        return g * _ORDERS[m + 1](s, q)

    def lin_q(g, s, q, out):
        # d/dq of (-1)^m sum log(n+q)^m (n+q)^-s: -m D_{m-1}(s+1, q) - s D_m(s+1, q)
        lower = zeta(s + 1.0, q) if m == 1 else _ORDERS[m - 1](s + 1.0, q)
        return g * (lower * float(-m) - _ORDERS[m](s + 1.0, q) * s)

    return _fn(elementwise(f"zeta_ds{m}", None, {"f": _zeta_ds_body(m)}, lin_s, lin_q))


def _declare_zeta():
    return _fn(elementwise("zeta", None, {"f": _zeta_body()}, _zeta_lin_s, _zeta_lin_q))


zeta = _declare_zeta()
zeta_p = zeta.primitive
_ORDERS = {m: _declare(m) for m in range(1, MAX_ORDER + 1)}
zeta_ds1, zeta_ds2, zeta_ds3, zeta_ds4 = (_ORDERS[m] for m in range(1, MAX_ORDER + 1))
