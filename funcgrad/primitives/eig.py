"""The general (nonsymmetric) eigenproblem: ``eig``, with complex eigenvalues and vectors.

The rules are PyTorch's and JAX's: ``dw = diag(V^-1 dA V)``, ``dV = V (E * V^-1 dA V)``
with ``E[i, j] = 1 / (w[j] - w[i])`` (0 for equal eigenvalues, as for ``eigh`` in
:mod:`.decompositions`, whose helpers and conventions, complex ones included, this module
shares), less the part along each ``v_i`` that would change its norm.
"""
import numpy as np

from ..core import Primitive, ShapedArray, reads_inputs_and_output
from .decompositions import (_as_col, _as_row, _check_phase_free, _cj, _diag_embed,
                             _diag_part, _eigh_abstract, _is_complex, _re, _safe_reciprocal,
                             _stacked, _tolerance)
from .linalg import matmul, solve, swap
from .structural import convert_element_type, reduce_sum


# --- eig ----------------------------------------------------------------------------------

COMPLEX_EIG = (
    "eig: this real matrix has complex eigenvalues, but the result was traced as real: "
    "under vmap or jit the values of a real matrix are not known when its result type is "
    "chosen, so NumPy's rule (real eigenvalues give real arrays) is applied as if they were "
    "real. Pass a complex matrix (a.astype(complex), or a + 0j) to get complex eigenvalues "
    "and eigenvectors there.")


def _eig_abstract(a, *, complex_out):
    w, v = _eigh_abstract(a, lower=True)
    dtype = np.result_type(v.dtype, np.complex64) if complex_out else v.dtype
    return ShapedArray(w.shape, dtype), ShapedArray(v.shape, dtype)


def _eig_impl(a, *, complex_out):
    w, v = np.linalg.eig(a)
    if complex_out:
        dtype = np.result_type(a.dtype, np.complex64)
        return w.astype(dtype), v.astype(dtype)
    if w.dtype.kind == "c":
        raise NotImplementedError(COMPLEX_EIG)
    return w, v


def _eig_gaps(w):
    return _safe_reciprocal(_as_row(w) - _as_col(w), _tolerance(w, w.shape[-1]))


def _eig_jvp(primals, tangents, *, complex_out):
    # dw = diag(V^-1 dA V), dV = V (E * V^-1 dA V) with E_ij = 1/(w_j - w_i) (0 on the
    # diagonal), then the part along each v_i that would change its norm removed:
    # Re(v_i^H dv_i) = 0 (PyTorch's and JAX's gauge: unit vectors, Im(v_i^H dv_i) = 0 too)
    a, = primals
    w, v = eig(a, complex_out)
    if a.shape[-1] == 0:
        return (w, v), (w * 0.0, v * 0.0)
    m = solve(v, matmul(convert_element_type(tangents[0], v.dtype), v))
    dv = matmul(v, m * _eig_gaps(w))
    dv = dv - v * _as_row(_re(reduce_sum(_cj(v) * dv, (v.ndim - 2,))))
    return (w, v), (_diag_part(m), dv)


def _eig_vjp(needs, gs, outs, a, *, complex_out):
    # the transpose of the JVP under the real pairing Re sum(x * y) (JAX's)
    w, v = outs
    gw, gv = gs
    if a.shape[-1] == 0:
        return (a * 0.0,)
    g_m = 0.0 if gw is None else _diag_embed(gw)
    if gv is not None:
        _check_phase_free("eig", v, gv)
        g0 = gv - _cj(v) * _as_row(_re(reduce_sum(v * gv, (v.ndim - 2,))))
        g_m = g_m + matmul(swap(v), g0) * _eig_gaps(w)
    ga = solve(swap(v), matmul(g_m, swap(v)))
    return (ga if _is_complex(a) else _re(ga),)


eig_p = Primitive("eig", _eig_impl, abstract_eval=_eig_abstract, jvp=_eig_jvp, vjp=_eig_vjp,
                  multiple_results=True, vjp_reads=reads_inputs_and_output,
                  grad_fn_name="LinalgEigBackward0")


def eig(a, complex_out=False):
    """``(w, v)`` with ``a @ v = v * w``, ``v``'s columns of unit norm.  ``complex_out``:
    complex results (always for complex ``a``); else a real ``a`` must have real
    eigenvalues (NumPy's result type, which depends on the values)."""
    return tuple(eig_p.bind(a, complex_out=bool(complex_out) or _is_complex(a)))


eig_p.batch = _stacked(eig, 2)
