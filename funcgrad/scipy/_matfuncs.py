"""Matrix functions of ``funcgrad.scipy.linalg``: ``expm``, ``sqrtm``, ``solve_sylvester``,
``logm``, ``funm``, composed of differentiable funcgrad operations.

* ``expm``: Padé approximants with scaling and squaring (Higham 2005).  Where ``A`` has
  one known value (not under ``vmap``/``jit``) its 1-norm picks the degree (3, 5, 7, 9 or
  13) and the number of squarings ``s``, as SciPy's; under ``vmap``/``jit`` degree 13 is
  used with ``s`` computed on the traced norm and ``_MAX_SQUARINGS`` masked squarings.
  The derivative is that of the approximant, which approximates the Fréchet derivative
  to the same accuracy (Al-Mohy & Higham 2009), so ``jvp``, ``grad`` and higher orders all
  come from ``matmul`` and ``solve``.
* ``sqrtm``: the principal square root, ``V sqrt(D) V^-1`` where the eigenvectors are
  well conditioned, else the scaled product Denman-Beavers iteration (defective and
  nearly defective matrices; always under ``vmap``/``jit``), with a custom JVP solving
  the Sylvester equation ``X dX + dX X = dA`` (reverse mode transposes it).
* ``solve_sylvester``: ``A X + X B = Q`` as one linear system with the Kronecker matrix
  ``A ⊗ I + I ⊗ B^T`` (size ``n m``: meant for small matrices).
* ``logm``, ``funm``: ``V f(D) V^-1`` through ``eig`` (complex eigenvalues included),
  with a JVP rule of its own, the Fréchet derivative of a diagonalizable matrix
  (Daleckii-Krein: ``V (G * (V^-1 dA V)) V^-1`` with ``G[i, j]`` the divided difference of
  ``f`` at ``w[i], w[j]``, ``f'`` where they tie; eig's own derivative would drop that
  part at repeated eigenvalues).  ``funm``'s ``func`` is differentiated by funcgrad for
  ``f'``, and must not use traced values it captured.  Neither JAX nor PyTorch has
  ``logm``; SciPy's Schur-based values are matched to rounding where the eigenvectors are
  well conditioned, and
  (nearly) defective matrices, where this route loses accuracy, raise.  As SciPy, a
  real matrix gives a real result where its imaginary part is negligible, which needs the
  values: under ``vmap``/``jit`` real matrices raise (pass ``a.astype(complex)``).
"""
import functools
import math

from typing import Callable, Union

import numpy as np

from .. import lax, numpy as fnp
from ..forward_mode import _jvp, jvp
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ..custom._guard import CapturedTracerError
from ._captured import lift_captures
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..callback import pure_callback
from ..primitives import eig as _eig, linalg as _la
from ..typing import Array, ArrayLike
from ._linalg_tools import as_float, over_batch

__all__ = ["expm", "sqrtm", "solve_sylvester", "logm", "funm"]

_PADE = {
    3: (120., 60., 12., 1.),
    5: (30240., 15120., 3360., 420., 30., 1.),
    7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
    9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160., 110880.,
        3960., 90., 1.),
    13: (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
         129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
         40840800., 960960., 16380., 182., 1.),
}
_THETA = {3: 1.495585217958292e-2, 5: 2.539398330063230e-1, 7: 9.504178996162932e-1,
          9: 2.097847961257068e0, 13: 5.371920351148152e0}
_MAX_SQUARINGS = 16



def _pade(a, m):
    """``(U, V)``: odd and even parts of the degree-``m`` Padé numerator at ``a``."""
    b = _PADE[m]
    eye = fnp.astype(fnp.asarray(np.eye(a.shape[-1])), a.dtype)
    a2 = a @ a
    if m == 13:
        a4 = a2 @ a2
        a6 = a4 @ a2
        u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2)
                 + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye)
        v = (a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2)
             + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye)
        return u, v
    powers = [eye, a2]
    while len(powers) < (m + 1) // 2:
        powers.append(powers[-1] @ a2)
    u = a @ sum(b[2 * k + 1] * p for k, p in enumerate(powers))
    v = sum(b[2 * k] * p for k, p in enumerate(powers))
    return u, v


def _one_norm(a):
    return fnp.max(fnp.sum(fnp.abs(a), axis=-2), axis=-1)


def expm(A: ArrayLike) -> Array:
    """The matrix exponential ``sum_k A^k / k!`` of a square matrix or a stack of them
    (``scipy.linalg.expm``), differentiable to any order (see the module docstring).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.linalg as fsl
    >>> fsl.expm(np.array([[0.0, 1.0], [0.0, 0.0]]))
    array([[1., 1.],
           [0., 1.]])
    >>> round(float(fg.grad(lambda t: fsl.expm(t * np.eye(2))[0, 0])(1.0)), 12)  # d/dt e^t
    2.718281828459
    """
    a = as_float(A)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"expm: expected a square matrix (or a stack, shape (..., n, n)), "
                         f"got shape {a.shape}")
    if a.shape[-1] == 0:
        return a
    if is_concrete(a):
        norm = float(np.max(_one_norm(concrete_values(a, "expm", "")))) if a.size else 0.0
        for m in (3, 5, 7, 9):
            if norm <= _THETA[m]:
                u, v = _pade(a, m)
                return _la.solve(v - u, v + u)
        s = max(0, int(math.ceil(math.log2(norm / _THETA[13])))) if norm > 0 else 0
        u, v = _pade(a / 2.0 ** s, 13)
        r = _la.solve(v - u, v + u)
        for _ in range(s):
            r = r @ r
        return r
    norm = _one_norm(a)[..., None, None]
    s = fnp.clip(fnp.ceil(fnp.log2(fnp.maximum(norm, 1e-300) / _THETA[13])), 0,
                 _MAX_SQUARINGS)
    u, v = _pade(a / 2.0 ** s, 13)
    r = _la.solve(v - u, v + u)
    if a.ndim == 2:  # one matrix: a runtime branch squares only as often as its norm asks
        count = fnp.reshape(s, ())
        for i in range(_MAX_SQUARINGS):
            r = lax.cond(i < count, _square, _same, r)
        return r
    for i in range(_MAX_SQUARINGS):
        r = fnp.where(i < s, r @ r, r)
    return r


def _square(r):
    return r @ r


def _same(r):
    return r


# --- Sylvester equations and the square root -----------------------------------------------

@over_batch(("a", 2), ("b", 2), ("q", 2))
def solve_sylvester(a: ArrayLike, b: ArrayLike, q: ArrayLike) -> Array:
    """``X`` with ``a @ X + X @ b == q`` (``scipy.linalg.solve_sylvester``), differentiable
    in all three; one ``(n m)``-square linear system (the Kronecker form), so for small
    matrices.  Unique where ``a`` and ``-b`` share no eigenvalue.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.solve_sylvester(np.eye(2), 2 * np.eye(2), np.array([[3.0, 6.0], [0.0, 3.0]]))
    array([[1., 2.],
           [0., 1.]])
    """
    a, b, q = as_float(a), as_float(b), as_float(q)
    for name, x in (("a", a), ("b", b)):
        if x.ndim != 2 or x.shape[0] != x.shape[1]:
            raise ValueError(f"solve_sylvester: {name} must be a square matrix, got shape "
                             f"{x.shape}")
    n, m = a.shape[0], b.shape[0]
    if q.shape != (n, m):
        raise ValueError(f"solve_sylvester: q must have shape {(n, m)} for a {a.shape} and "
                         f"b {b.shape}, got {q.shape}")
    dtype = np.result_type(a.dtype, b.dtype, q.dtype)
    a, b, q = (fnp.astype(x, dtype) for x in (a, b, q))
    big = fnp.kron(a, np.eye(m, dtype=dtype)) + fnp.kron(np.eye(n, dtype=dtype),
                                                          fnp.swapaxes(b, 0, 1))
    return fnp.reshape(_la.solve(big, fnp.reshape(q, (n * m,))), (n, m))


_DB_STEPS = 60  # a bound: ~5-10 steps usually suffice
_WELL_CONDITIONED = 1e4  # eigenvectors at most this ill-conditioned: V sqrt(D) V^-1


@custom_jvp
def _sqrtm_eig(a):
    """``V sqrt(D) V^-1``: accurate where ``V`` is well conditioned (zero eigenvalues too)."""
    w, v = fnp.linalg.eig(a)
    root = (v * fnp.sqrt(w)[None, :]) @ fnp.linalg.inv(v)
    return fnp.real(root)


@custom_jvp
def _sqrtm_db(a):
    """The scaled product Denman-Beavers iteration (Higham, Functions of Matrices, 6.29):
    ``Y -> A^(1/2)`` while ``M -> I``, quadratically, for any nonsingular ``a`` with a
    principal root, defective ones included (where ``V sqrt(D) V^-1`` is wrong: for
    ``[[4, 1], [0, 4]]`` its square was off by 1)."""
    n = a.shape[-1]
    eye = fnp.astype(fnp.asarray(np.eye(n)), a.dtype)
    tol = 4 * n * np.finfo(a.dtype).eps
    norm1 = lambda x: fnp.max(fnp.sum(fnp.abs(x), axis=0))  # noqa: E731

    def step(m, y):
        m_inv = _la.inv(m)
        mu = fnp.exp(fnp.linalg.slogdet(m)[1] * (-0.5 / n))  # determinant scaling
        y = (mu * 0.5) * (y @ (eye + m_inv / (mu * mu)))
        m = 0.5 * (eye + 0.5 * ((mu * mu) * m + m_inv / (mu * mu)))
        return m, y

    if is_concrete(a):  # (M -> I: stop once the 1-norm of M - I is within the tolerance)
        m, y = a, a
        for _ in range(_DB_STEPS):
            m, y = step(m, y)
            if np.max(np.sum(np.abs(concrete_values(m, "sqrtm", "") - np.eye(n)),
                             axis=0)) <= tol:
                break
    else:  # (one loop, compiled once: 60 steps written out took jit 30 s to compile)
        _, m, y = lax.while_loop(
            lambda s: (s[0] < _DB_STEPS) & (norm1(s[1] - eye) > tol),
            lambda s: (s[0] + 1,) + step(s[1], s[2]), (0, a, a))
    # Under vmap/jit the iteration runs on whatever it is given, and where the real
    # matrix has no real principal root (an eigenvalue on the negative axis; singular)
    # it ends anywhere: a check at run time makes that an error, not a wrong root.
    fixed = fnp.stop_gradient(y)
    residual = norm1(fixed @ fixed - fnp.stop_gradient(a)) / fnp.maximum(
        norm1(fnp.stop_gradient(a)), np.finfo(a.dtype).tiny)
    check = _root_check(n, a.dtype)
    if is_concrete(residual):  # (eagerly; also jit's evaluation while it compiles)
        check(concrete_values(residual, "sqrtm", ""))
        return y
    ok = pure_callback(check, np.ones((), a.dtype), residual,  # (its shape and dtype)
                       vmap_method="sequential")
    return y * ok  # (times one: the same bits, signed zeros too)


def _root_check(n, dtype):
    tol = n * math.sqrt(np.finfo(dtype).eps)

    def check(residual):
        if not float(residual) <= tol:
            raise ValueError(
                f"sqrtm: under vmap/jit the real matrix has no real principal square root "
                f"(|X @ X - A| / |A| = {float(residual):.3g}): an eigenvalue on the closed "
                f"negative real axis, or a singular defective matrix. Its root is complex, "
                f"a result type funcgrad can only choose from the values: pass "
                f"A.astype(complex) for the complex root, or call sqrtm outside vmap/jit")
        return np.ones((), dtype)
    return check


def _sqrtm_jvp(root):
    def jvp(primals, tangents):
        x = root(primals[0])
        return x, solve_sylvester(x, x, tangents[0])
    return jvp


_sqrtm_eig.defjvp(_sqrtm_jvp(_sqrtm_eig))
_sqrtm_db.defjvp(_sqrtm_jvp(_sqrtm_db))


@over_batch(("A", 2))
def sqrtm(A: ArrayLike, disp: bool = True, blocksize: int = 64) -> Array:
    """The principal square root ``X`` of a square matrix (``X @ X == A``;
    ``scipy.linalg.sqrtm``), real for a real matrix whose eigenvalues are off the closed
    negative real axis (diagonalizable if singular): its derivative solves ``X dX + dX X =
    dA``.  As SciPy 1.17's, a real matrix with a negative eigenvalue, and a complex matrix,
    get the complex principal root, through ``eig`` (diagonalizable matrices; the
    derivative is the Daleckii-Krein one of :func:`funm`).  ``disp``/``blocksize`` are
    accepted and ignored.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.sqrtm(np.array([[4.0, 0.0], [0.0, 9.0]]))
    array([[2., 0.],
           [0., 3.]])
    >>> fsl.sqrtm(-np.eye(2))
    array([[0.+1.j, 0.+0.j],
           [0.+0.j, 0.+1.j]])
    """
    a = as_float(A)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"sqrtm: expected a square matrix, got shape {a.shape}")
    if a.dtype.kind == "c":
        return _through_eig("sqrtm", a, fnp.sqrt)[0]
    if not is_concrete(a):  # (under vmap/jit: the iteration, with its fixed step count)
        return _sqrtm_db(a)
    values = concrete_values(a, "sqrtm", "")
    w, v = np.linalg.eig(values)
    big = max(1.0, float(np.max(np.abs(w)))) if w.size else 1.0
    if np.any((np.abs(w.imag) <= 1e-14 * big) & (w.real < 0)):  # a complex root
        return _through_eig("sqrtm", a, fnp.sqrt)[0]
    if not w.size or np.linalg.cond(v) <= _WELL_CONDITIONED:
        return _sqrtm_eig(a)
    if np.any(np.abs(w) <= 1e-14 * big):
        raise ValueError("sqrtm: the matrix is singular and (nearly) defective, so it may "
                         "have no square root (e.g. [[0, 1], [0, 0]]); funcgrad's sqrtm "
                         "needs it nonsingular or diagonalizable")
    return _sqrtm_db(a)


# --- logm and funm: through the eigendecomposition ------------------------------------------

_DEFECTIVE = 1e8  # eigenvectors more ill-conditioned than this: V f(D) V^-1 is not trusted


_TIE = 1e-8  # eigenvalues closer than this (relative): f' instead of the divided difference


@functools.partial(custom_jvp, nondiff_argnums=(0,))
def _eig_function(fn, a, *params):
    """``V fn(w, *params) V^-1`` from a square matrix's eigendecomposition (complex)."""
    w, v = _eig.eig(a, complex_out=True)
    return (v * fn(w, *params)[None, :]) @ _la.inv(v)


@_eig_function.defjvp
def _eig_function_jvp(fn, primals, tangents):
    # The Frechet derivative (Daleckii-Krein): V (G * (V^-1 dA V)) V^-1 with G[i, j] the
    # divided difference (f(w_i) - f(w_j)) / (w_i - w_j), f'(w_i) where they (nearly) tie.
    # Through eig's own derivative the ties would lose the f' part: eig's rule leaves out
    # the rotation inside a repeated eigenvalue's eigenspace, which f(A) does not.
    (a, *params), (da, *dparams) = primals, tangents
    w, v = _eig.eig(a, complex_out=True)
    v_inv = _la.inv(v)
    fw = fn(w, *params)
    _, slope = jvp(lambda x: fn(x, *params), (w,), (fnp.ones_like(w),))
    gap = w[:, None] - w[None, :]
    scale = fnp.maximum(fnp.max(fnp.abs(fnp.stop_gradient(w))), 1.0)
    tie = fnp.abs(fnp.stop_gradient(gap)) <= _TIE * scale
    divided = fnp.where(tie, 0.5 * (slope[:, None] + slope[None, :]),
                        (fw[:, None] - fw[None, :]) / fnp.where(tie, 1.0, gap))
    moved = v_inv @ fnp.astype(da, v.dtype) @ v
    tangent = v @ (divided * moved) @ v_inv
    if params:  # (a parameter of fn moves each f(w_i) alone)
        # (funcgrad's lenient jvp: a parameter's tangent may come in another float dtype)
        _, along = _jvp(lambda *ps: fn(w, *ps), tuple(params), tuple(dparams), False, "jvp")
        tangent = tangent + (v * along[None, :]) @ v_inv
    return (v * fw[None, :]) @ v_inv, tangent


def _through_eig(name, a, fn, check=None, maybe_real=True, params=()):
    """``(V fn(w, *params) V^-1, cond(V))`` for one square matrix, SciPy's result type
    (with ``maybe_real=False``: complex, the caller decides); derivatives by
    :func:`_eig_function`'s rule."""
    a = as_float(a)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"{name}: expected a square matrix, got shape {a.shape}")
    real = a.dtype.kind != "c"
    if real and not is_concrete(a):
        raise NotImplementedError(
            f"{name}: under vmap/jit a real matrix's result type (real or complex, as "
            f"SciPy decides from the values) is not known; pass a.astype(complex) for a "
            f"complex result, or call {name} outside vmap/jit")
    cond = 1.0
    if is_concrete(a) and a.shape[0]:
        # a real matrix's own eigenvalues (LAPACK's real routine): a real one is exactly
        # real, with +0 imaginary part, on the principal branch's side of the negative axis
        # as SciPy's real Schur form puts it; the complex routine leaves a rounding-sized
        # imaginary part of either sign there, and log / sqrt / w**t jump across the cut
        w, v = np.linalg.eig(concrete_values(a, name, ""))
        if check is not None:
            check(w.astype(np.result_type(w.dtype, np.complex64)))
        cond = float(np.linalg.cond(v))
        if not cond <= _DEFECTIVE:
            raise ValueError(
                f"{name}: the matrix is defective or nearly so (its eigenvectors have "
                f"condition number {cond:.3g}), where funcgrad's route through the "
                f"eigendecomposition loses accuracy; use scipy.linalg.{name} on values "
                f"(no derivative), or perturb the matrix slightly")
    out = _eig_function(fn, a, *params)
    if real and maybe_real:  # SciPy's _maybe_real: drop a negligible imaginary part
        eps = np.finfo(a.dtype).eps
        tol = eps * 1e6 if a.dtype == np.float64 else eps * 1e3
        if np.allclose(np.imag(concrete_values(out, name, "")), 0.0, atol=tol):
            out = fnp.real(out)
    return out, cond


def _nonsingular(values):
    if np.any(values == 0):
        raise ValueError("logm: the matrix is singular (an eigenvalue is 0), so it has no "
                         "logarithm")


@over_batch(("A", 2))
def logm(A: ArrayLike, disp: bool = True) -> Union[Array, tuple[Array, float]]:
    """The principal matrix logarithm (``scipy.linalg.logm``): ``expm(logm(A)) == A``,
    real for a real ``A`` where SciPy's is (no eigenvalue on the negative real axis),
    complex otherwise; differentiable, its derivative the Fréchet derivative (see the
    module docstring).  On plain arrays (nothing to differentiate) SciPy's own values.
    ``disp=False`` also returns SciPy's error estimate
    ``|expm(F) - A|_1 / |A|_1`` (a float).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.linalg as fsl
    >>> np.round(fsl.logm(np.array([[1.0, 3.0], [1.0, 4.0]])), 6)
    array([[-1.025711,  2.051422],
           [ 0.683807,  1.025711]])
    >>> round(float(fg.grad(lambda t: fsl.logm(t * np.eye(2))[0, 0])(2.0)), 12)  # 1/t
    0.5
    """
    if type(asarray(A)) is np.ndarray:  # no derivative to carry: SciPy's own values
        import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
        out = scipy.linalg.logm(A)
    else:
        out, _ = _through_eig("logm", A, fnp.log, _nonsingular)
    if disp:
        return out
    f, a = concrete_values(out, "logm(disp=False)", ""), concrete_values(
        as_float(A), "logm(disp=False)", "")
    err = np.linalg.norm(concrete_values(expm(f), "logm", "") - a, 1) / np.linalg.norm(a, 1)
    return out, float(err)


def _plain_function(func):
    """Whether ``func`` gives plain values for plain eigenvalues (no traced value it
    captured: then SciPy's funm, which cannot carry a derivative, may compute it)."""
    with np.errstate(all="ignore"):
        return isinstance(func(np.ones(1, complex)), (np.ndarray, np.generic, complex, float))


@over_batch(("A", 2))
def funm(A: ArrayLike, func: Callable[[Array], ArrayLike], disp: bool = True
         ) -> Union[Array, tuple[Array, float]]:
    """The matrix function of the scalar function ``func`` (``scipy.linalg.funm``): ``func``
    takes an array of eigenvalues and is applied to each (it must be differentiable by
    funcgrad: NumPy's ufuncs are), giving ``V func(w) V^-1``, real for a real ``A`` where
    the imaginary part is negligible (as SciPy).  ``disp=False`` also returns an estimate
    of the relative error, ``cond(V) * eps`` (SciPy estimates its Schur-Parlett
    algorithm's instead).  On plain arrays SciPy's own values.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.funm(np.array([[1.0, 2.0], [0.0, 3.0]]), lambda w: w ** 2)
    array([[1., 8.],
           [0., 9.]])
    """
    if not callable(func):
        raise TypeError(f"funm: func must be a function of an array of eigenvalues, got "
                        f"{type(func).__name__}")
    if type(asarray(A)) is np.ndarray and _plain_function(func):  # SciPy's own values
        import scipy.linalg
        return scipy.linalg.funm(A, func, disp)
    # (values func captures become parameters of the derivative rule, which moves each
    # f(w_i) with them; left captured, the rule refuses them)
    n = np.shape(A)[-1] if np.ndim(A) == 2 else 0
    func, consts = lift_captures(func, (np.ones(n, np.complex128),), "funm")
    try:
        out, cond = _through_eig("funm", A, func, params=tuple(consts))
    except CapturedTracerError as e:
        raise CapturedTracerError(
            "funm: func uses a traced value it captured from the enclosing function; funm's "
            "derivative rule differentiates func as a function of the eigenvalues alone. "
            "Keep the traced value outside func (funm(A, f) * x rather than funm(A, lambda "
            "w: f(w) * x)), or differentiate V func(w) V^-1 from fnp.linalg.eig yourself "
            "(exact where the eigenvalues are distinct)") from e
    if disp:
        return out
    return out, cond * float(np.finfo(np.result_type(out.dtype, np.float16)).eps)
