"""SciPy's orthogonal polynomial objects, re-exported by :mod:`funcgrad.scipy.special`:
``legendre``, ``chebyt``, ``chebyu``, ``chebyc``, ``chebys``, ``jacobi``, ``gegenbauer``,
``genlaguerre``, ``laguerre``, ``hermite``, ``hermitenorm``, ``sh_legendre``,
``sh_chebyt``, ``sh_chebyu``, ``sh_jacobi``, looked up on first use (importing funcgrad
never loads SciPy).

They are ``scipy.special``'s own functions, so they return SciPy's ``orthopoly1d``
objects (a ``numpy.poly1d`` with the quadrature ``weights``, ``weight_func`` and
``limits``).  Those differentiate as they are: calling one on a traced value runs its
``eval_*`` ufunc (or, for ``monic=True``, ``numpy.polyval``), which reach funcgrad's
differentiable functions through ``__array_ufunc__``/``__array_function__``; so
``fg.grad(legendre(3))`` is ``legendre(3).deriv()``, under ``jit`` and ``vmap`` too.

>>> import funcgrad as fg, funcgrad.scipy.special as fsp
>>> p = fsp.legendre(3)
>>> round(float(fg.grad(p)(0.5)), 12), round(float(p.deriv()(0.5)), 12)
(0.375, 0.375)
"""
NAMES = ["legendre", "chebyt", "chebyu", "chebyc", "chebys", "jacobi", "gegenbauer",
         "genlaguerre", "laguerre", "hermite", "hermitenorm", "sh_legendre", "sh_chebyt",
         "sh_chebyu", "sh_jacobi"]
