"""W8 of the benchmark suite: FFT and linear algebra, beside JAX, PyTorch and autograd.

Rows (float64; the full size is the issue's, the tiny one is the smoke test's)

  W8 fft grad      grad of sum(|fft(x)|^2 * w), x real, n = 4096
                   closed form: 2 n Re(ifft(w * fft(x)))
  W8 fft forward   fft of complex128 and rfft of float64, n = 2^20, beside numpy.fft
  W8 fft grad      grad of sum(|fft(x)|^2), x real, n = 2^20; closed form 2 n x
  W8 svd grad      grad of the sum of the singular values of A, 200x200
                   closed form: U @ Vt
  W8 eigh grad     grad of sum(w * eigvalsh((A + A.T) / 2)), 200x200; symmetrising
                   inside the function makes every library's convention for the
                   gradient with respect to a symmetric input give the same answer,
                   V diag(w) V.T
  W8 expm grad     grad of sum(W * expm(A)), 200x200, |A| ~ 1 (funcgrad.scipy.linalg,
                   jax.scipy.linalg, torch.linalg.matrix_exp; HIPS autograd has none)
                   reference: scipy.linalg.expm_frechet(A.T, W)
  W8 solve grad    grad with respect to A of sum(W * solve(A, B)), A 200x200, B 200x10
                   closed form: -solve(A.T, W) @ X.T

Each library runs its own spelling of the same function (``np.linalg`` for funcgrad and
autograd, ``jnp.linalg`` / ``jax.scipy.linalg``, ``torch.linalg`` / ``torch.fft``);
``funcgrad (np)`` is the function written with plain NumPy, except expm, which NumPy
lacks (both funcgrad columns call ``funcgrad.scipy.linalg.expm`` there).  Registered
in ``workloads.WORKLOADS``, so the suite checks, times and reports it like W1-W6:
``python benchmarks/suite.py --only W8``.
"""
from __future__ import annotations

import functools
import math

import numpy as np

if __package__:
    from . import workloads as wl
else:  # benchmarks/ is sys.path[0]
    import workloads as wl  # type: ignore[no-redef]

def _torch_grad_of(torch, f, *args):
    """Eager PyTorch: a fresh leaf for the first argument, forward, autograd.grad."""
    first, rest = args[0], args[1:]

    def run():
        a = first.detach().requires_grad_()
        return torch.autograd.grad(f(a, *rest), a)[0]
    return run


def _row(key, label, closed, fg_fn, np_fn, jax_fn, torch_fn, ag_fn, args, note="",
         rtol=1e-8, atol_rel=1e-10):
    """A task from one function per library family: ``*_fn(module) -> f(*args)``
    (a scalar loss, differentiated with respect to its first argument), or None;
    ``closed()``: the gradient in NumPy, the expected value and the reference row."""
    expected = closed()
    def fg_op(fg, xp):
        f = (fg_fn if xp is not np else np_fn)(fg)
        return fg.grad(f), args

    def jax_op(jax, xp):
        return jax.grad(jax_fn(jax)), args

    def torch_eager(torch, xp, lib):
        return _torch_grad_of(torch, torch_fn(torch), *lib.tree(args))

    def torch_func(torch, xp, lib):
        return functools.partial(torch.func.grad(torch_fn(torch)), *lib.tree(args))

    autograd_op = None
    if ag_fn is None:
        autograd_op = wl._not_applicable("HIPS autograd has no such operation")
    else:
        def autograd_op(ag, xp):
            return functools.partial(ag.grad(ag_fn(xp)), *args)
    return wl.Task(key, "W8", label, "ms", expected, wl._standard(
        fg_op=fg_op, jax_op=jax_op, torch_eager=torch_eager, torch_func=torch_func,
        autograd_op=autograd_op, reference=lambda: closed),
        rtol=rtol, atol_rel=atol_rel, note=note)


def _fft_row(n):
    rng = np.random.default_rng(81)
    x, w = rng.standard_normal(n), rng.uniform(0.5, 1.5, n)

    def closed():
        return 2 * n * np.real(np.fft.ifft(w * np.fft.fft(x)))

    def numpy_style(m):  # numpy, funcgrad.numpy, jax.numpy, autograd.numpy
        return lambda x, w: m.sum(m.abs(m.fft.fft(x)) ** 2 * w)

    import funcgrad.numpy as fnp
    return _row(
        "W8.fft", f"W8 fft grad, sum(|fft(x)|^2 w), n={n}", closed,
        fg_fn=lambda fg: numpy_style(fnp), np_fn=lambda fg: numpy_style(np),
        jax_fn=lambda jax: numpy_style(jax.numpy),
        torch_fn=lambda torch: lambda x, w: torch.sum(torch.abs(torch.fft.fft(x)) ** 2 * w),
        ag_fn=numpy_style, args=(x, w),
        note="reference: the closed form 2 n Re(ifft(w fft(x)))")


def _fft_large_rows(n):
    """Issue 19's FFT targets at n = 2^20: the forward transforms beside ``numpy.fft``
    itself, and the gradient of sum(|fft(x)|^2) (Parseval: 2 n x) beside them."""
    rng = np.random.default_rng(84)
    z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    x = rng.standard_normal(n)
    import funcgrad.numpy as fnp

    def forward(key, label, transform, arg, dtype, tol):
        def fg_op(fg, xp):  # fnp's function in the fnp column, NumPy's in the np column
            return getattr((fnp if xp is not np else np).fft, transform), (arg,)
        return wl.Task(key, "W8", label, "ms", getattr(np.fft, transform)(arg), wl._standard(
            fg_op=fg_op,
            jax_op=lambda jax, xp: (getattr(jax.numpy.fft, transform), (arg,)),
            torch_eager=lambda torch, xp, lib: functools.partial(
                getattr(torch.fft, transform), lib.native(arg)),
            torch_func=wl._not_applicable("torch.func has no forward of its own: see torch"),
            autograd_op=lambda ag, xp: functools.partial(getattr(xp.fft, transform), arg),
            reference=lambda: functools.partial(getattr(np.fft, transform), arg)),
            dtype=dtype, **tol, note="reference: numpy.fft itself")

    def numpy_style(m):
        return lambda x: m.sum(m.abs(m.fft.fft(x)) ** 2)

    tol = {"rtol": 1e-9, "atol_rel": 1e-11}
    return [
        forward("W8.fft_forward", f"W8 fft forward, complex128, n={n}", "fft", z,
                np.complex128, tol),
        forward("W8.rfft_forward", f"W8 rfft forward, float64, n={n}", "rfft", x,
                np.complex128, tol),
        _row("W8.fft_large_grad", f"W8 fft grad, sum(|fft(x)|^2), n={n}",
             lambda: 2 * n * x, fg_fn=lambda fg: numpy_style(fnp),
             np_fn=lambda fg: numpy_style(np), jax_fn=lambda jax: numpy_style(jax.numpy),
             torch_fn=lambda torch: lambda x: torch.sum(torch.abs(torch.fft.fft(x)) ** 2),
             ag_fn=numpy_style, args=(x,), note="reference: Parseval's closed form 2 n x"),
    ]


def _matrix(n, seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, n)) / math.sqrt(n)


def _svd_row(n):
    A = _matrix(n, 82) + np.eye(n)  # well separated singular values, full rank

    def closed():
        U, _, Vt = np.linalg.svd(A)
        return U @ Vt

    def numpy_style(m):
        return lambda A: m.sum(m.linalg.svd(A, compute_uv=False))

    import funcgrad.numpy as fnp
    return _row(
        "W8.svd", f"W8 svd grad, sum of singular values, {n}x{n}", closed,
        fg_fn=lambda fg: numpy_style(fnp), np_fn=lambda fg: numpy_style(np),
        jax_fn=lambda jax: numpy_style(jax.numpy),
        torch_fn=lambda torch: lambda A: torch.sum(torch.linalg.svdvals(A)),
        ag_fn=lambda anp: lambda A: anp.sum(anp.linalg.svd(A, full_matrices=False)[1]),
        args=(A,), note="autograd: svd(full_matrices=False)[1] (its svd has no gradient "
                        "with compute_uv=False or full_matrices=True)")


def _eigh_row(n):
    A = _matrix(n, 83)
    w = np.linspace(1.0, 2.0, n)

    def closed():
        _, V = np.linalg.eigh((A + A.T) / 2)
        return (V * w) @ V.T

    def torch_style(torch):
        tw = torch.tensor(w)
        return lambda A: torch.sum(tw * torch.linalg.eigvalsh((A + A.T) / 2))

    def numpy_style(m):
        return lambda A: m.sum(w * m.linalg.eigvalsh((A + A.T) / 2))

    import funcgrad.numpy as fnp
    return _row(
        "W8.eigh", f"W8 eigh grad, sum(w * eigvalsh(sym A)), {n}x{n}", closed,
        fg_fn=lambda fg: numpy_style(fnp), np_fn=lambda fg: numpy_style(np),
        jax_fn=lambda jax: numpy_style(jax.numpy),
        torch_fn=torch_style,
        ag_fn=lambda anp: lambda A: anp.sum(w * anp.linalg.eigh((A + A.T) / 2)[0]),
        args=(A,), note="autograd: eigh (it has no eigvalsh)")


def _expm_row(n):
    from scipy.linalg import expm_frechet
    A = _matrix(n, 84)
    W = np.random.default_rng(85).standard_normal((n, n))

    def closed():
        return expm_frechet(A.T, W, compute_expm=False)

    def fg_style(fg):
        import funcgrad.numpy as fnp
        import funcgrad.scipy.linalg as fsl
        return lambda A: fnp.sum(fsl.expm(A) * W)

    def torch_style(torch):
        tW = torch.tensor(W)
        return lambda A: torch.sum(torch.linalg.matrix_exp(A) * tW)

    return _row(
        "W8.expm", f"W8 expm grad, sum(W * expm(A)), {n}x{n}", closed,
        fg_fn=fg_style, np_fn=fg_style,
        jax_fn=lambda jax: lambda A: (jax.scipy.linalg.expm(A) * W).sum(),
        torch_fn=torch_style,
        ag_fn=None, args=(A,),
        note="funcgrad.scipy.linalg.expm in both funcgrad columns; torch.linalg.matrix_exp;"
             " reference: scipy.linalg.expm_frechet(A.T, W)")


def _solve_row(n, rhs):
    rng = np.random.default_rng(86)
    A = _matrix(n, 87) + 2 * np.eye(n)
    B, W = rng.standard_normal((n, rhs)), rng.standard_normal((n, rhs))

    def closed():
        return -np.linalg.solve(A.T, W) @ np.linalg.solve(A, B).T

    def torch_style(torch):
        tW = torch.tensor(W)
        return lambda A, B: torch.sum(tW * torch.linalg.solve(A, B))

    def numpy_style(m):
        return lambda A, B: m.sum(W * m.linalg.solve(A, B))

    import funcgrad.numpy as fnp
    return _row(
        "W8.solve", f"W8 solve grad (w.r.t. A), sum(W * solve(A, B)), {n}x{n}, B {n}x{rhs}",
        closed, fg_fn=lambda fg: numpy_style(fnp), np_fn=lambda fg: numpy_style(np),
        jax_fn=lambda jax: numpy_style(jax.numpy), torch_fn=torch_style,
        ag_fn=numpy_style, args=(A, B))


def w8(size: dict) -> list[wl.Task]:
    """The W8 tasks at ``size`` (an entry of ``workloads.SIZES``)."""
    n, rhs = size["w8_la"]
    return [_fft_row(size["w8_fft_n"]), *_fft_large_rows(size["w8_fft_large_n"]),
            _svd_row(n), _eigh_row(n), _expm_row(n), _solve_row(n, rhs)]
