"""``fg.lax``: JAX's ``jax.lax`` -- control flow on traced values, as differentiable
primitives, and the lax operations, under JAX's names, signatures and semantics.

Inside ``jit`` a Python ``if`` or ``while`` on a traced value cannot run (the value is
not known while tracing); these functions express value-dependent control flow as
primitives whose branches and bodies are traced into graphs:

* :func:`cond` / :func:`switch` — pick a branch by a (traced) predicate or index;
* :func:`fori_loop` — a counted loop; with Python-int bounds it is a :func:`scan`;
* :func:`while_loop` — a loop with a traced condition;
* :func:`scan` — a loop carrying state and stacking per-step outputs.

They also work eagerly and under every transform: each primitive has all its rules
(``impl``, ``abstract_eval``, ``jvp``, ``vjp``, ``batch``), built from its graphs by
:mod:`funcgrad.jit.derive`.  Reverse mode of ``scan``/``fori_loop`` saves the carry of
every step and runs the steps backwards; reverse mode of ``while_loop`` needs the
number of steps, so it works when the loop runs on concrete values (``grad`` outside
``jit``) and raises a clear error while tracing for ``jit`` (use ``fori_loop`` or
``scan`` there).

Eagerly (outside ``jit``) branches and bodies are evaluated operation by operation;
wrap the caller in ``fg.jit`` to compile them into one loop.

>>> import numpy as np, funcgrad as fg
>>> fg.lax.fori_loop(0, 3, lambda i, x: x * 2.0, 1.0)
array(8.)
>>> float(fg.jit(lambda x: fg.lax.cond(x > 0, np.sin, np.cos, x))(0.0))
1.0

The lax operations (``lax.add``, ``lax.dynamic_slice``, ``lax.dot_general``,
``lax.associative_scan``...) are compositions of ``funcgrad.numpy`` functions, so they
differentiate, batch and compile like any funcgrad code.  As in JAX they do not promote:
operands of a binary operation share one dtype (a Python number is an array of NumPy's
default dtype) and one shape (0-d operands broadcast); the error says so and names the
cast or the ``funcgrad.numpy`` function that promotes.

>>> fg.lax.div(np.array([7, -7]), 2)  # C's integer division, toward zero
array([ 3, -3])

Modules: ``_cond`` (``cond``, ``switch``), ``_scan``, ``_while``, ``_fori``, and
``_graphs``, what they share (tracing the user's functions, regrouping graphs);
``_arith`` (arithmetic, rounding, comparisons, conversion), ``_math`` (elementwise
functions), ``_bits`` (bitwise operations), ``_structural`` (slicing, padding, shapes,
constructors), ``_dynamic`` (slices at traced starts), ``_gather`` (XLA's general
``gather`` and ``scatter``, ``scatter_add``...), ``_sorting``, ``_reductions``
(reductions and cumulative ones), ``_linalg`` (``dot_general``...), ``_higher`` (``map``,
``associative_scan``, ``stop_gradient``, ``composite``, ``platform_dependent``),
``_implicit`` (``custom_linear_solve``, ``custom_root``: implicit differentiation),
``_windows`` (``reduce_window``, ``conv_general_dilated``), ``_conv_more``
(``conv_transpose``, ``conv_general_dilated_patches``/``_local`` and the convolution
shape helpers), ``_shaping`` (``split``, ``stack``, ``tile``, ``index_take``,
``broadcast_shapes``...), ``_fft``, ``_ragged`` (``ragged_dot``), ``_collectives``
(``psum``... over a ``vmap``'s named axis), ``_collectives_moving`` (``all_gather``,
``psum_scatter``, ``ppermute``, ``all_to_all``, ``pswapaxes``), ``_collectives_more``
(``axis_size``, ``pbroadcast``, ``pshuffle``, ``pcast``), ``_unsupported`` (the names
that need several devices, ordering tokens or XLA's random generators: they raise
``NotImplementedError`` saying why), ``_igamma_grad`` (``igamma_grad_a``,
``random_gamma_grad``), ``linalg`` (``jax.lax.linalg``: ``cholesky``, ``eigh``, ``qr``, ``svd``,
``triangular_solve``, ``tridiagonal_solve``...; with ``_householder``: ``hessenberg``,
``tridiagonal``, ``householder_product``, ``ormqr``; and ``_linalg_updates``:
``cholesky_update``, ``symmetric_product``, ``qdwh``), and ``_common``, their shared checks.
"""
from ._collectives import axis_index, pmax, pmean, pmin, psum
from ._collectives_moving import all_gather, all_to_all, ppermute, psum_scatter, pswapaxes
from ._cond import cond, cond_p, switch
from ._fori import fori_loop
from ._scan import scan, scan_p
from ._while import while_loop, while_loop_p
from . import (_arith, _bits, _collectives_more, _conv_more, _dynamic, _fft, _gather, _higher,
               _igamma_grad, _implicit, _linalg, _math, _ragged, _reductions, _shaping, _sorting,
               _structural, _unsupported, _windows)
from ._arith import *  # noqa: F401,F403 - each module's __all__ is explicit
from ._math import *  # noqa: F401,F403
from ._bits import *  # noqa: F401,F403
from ._structural import *  # noqa: F401,F403
from ._dynamic import *  # noqa: F401,F403
from ._gather import *  # noqa: F401,F403
from ._sorting import *  # noqa: F401,F403
from ._higher import *  # noqa: F401,F403
from ._reductions import *  # noqa: F401,F403
from ._linalg import *  # noqa: F401,F403
from ._implicit import *  # noqa: F401,F403
from ._windows import *  # noqa: F401,F403
from ._shaping import *  # noqa: F401,F403
from ._conv_more import *  # noqa: F401,F403
from ._fft import *  # noqa: F401,F403
from ._ragged import *  # noqa: F401,F403
from ._collectives_more import *  # noqa: F401,F403
from ._unsupported import *  # noqa: F401,F403
from ._igamma_grad import *  # noqa: F401,F403

__all__ = (["cond", "switch", "fori_loop", "while_loop", "scan", "cond_p", "scan_p",
            "while_loop_p"]
           + _arith.__all__ + _math.__all__ + _bits.__all__ + _structural.__all__
           + _dynamic.__all__ + _gather.__all__ + _sorting.__all__ + _higher.__all__
           + _reductions.__all__
           + _linalg.__all__ + _implicit.__all__ + _windows.__all__ + _shaping.__all__
           + _conv_more.__all__ + _fft.__all__ + _ragged.__all__ + _collectives_more.__all__
           + _unsupported.__all__ + _igamma_grad.__all__)
__all__ += ["psum", "pmean", "pmax", "pmin", "axis_index", "all_gather", "psum_scatter",
            "ppermute", "all_to_all", "pswapaxes"]

# (last: jax.lax.linalg builds on funcgrad.scipy.linalg, whose package imports names of
# this one -- custom_linear_solve, while_loop -- that must exist by then)
from . import linalg  # noqa: E402,F401  (jax.lax.linalg: fg.lax.linalg.cholesky...)
