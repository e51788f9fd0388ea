"""``funcgrad.nn.initializers``: JAX's weight initialisers (``jax.nn.initializers``).

Each builder (``glorot_normal()``, ``he_uniform()``...) returns ``init(rng, shape,
dtype=float64)``, as JAX's do, with one difference: ``rng`` is a NumPy random
generator (``np.random.default_rng(seed)``; an int seed is taken as one), not a JAX
PRNG key.  The generator advances as it draws, so successive calls give fresh
weights; equal seeds give equal weights.  Shapes, dtypes, distributions and variances
are JAX's (not its bits: the random streams differ).  The result is a plain NumPy
array.

>>> import numpy as np, funcgrad.nn as nn
>>> init = nn.initializers.glorot_uniform()
>>> w = init(np.random.default_rng(0), (256, 128))
>>> w.shape, w.dtype, bool(abs(w.var() - 2 / (256 + 128)) < 2e-4)
((256, 128), dtype('float64'), True)
"""
import math
from typing import Any, Callable, Sequence

import numpy as np

__all__ = ["zeros", "ones", "constant", "uniform", "normal", "truncated_normal",
           "variance_scaling", "glorot_uniform", "glorot_normal", "xavier_uniform",
           "xavier_normal", "lecun_uniform", "lecun_normal", "he_uniform", "he_normal",
           "kaiming_uniform", "kaiming_normal", "orthogonal"]

Initializer = Callable[..., np.ndarray]
Axes = int | Sequence[int]

# The standard deviation of a standard normal truncated to (-2, 2), and of the complex
# normal whose modulus is truncated to 2 (JAX's corrections, so that the truncated
# samples have the variance asked for).
_TRUNCATED_STD = .87962566103423978
_COMPLEX_TRUNCATED_STD = .95311164380491208


def _generator(rng):
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise TypeError(f"funcgrad.nn.initializers draw from a NumPy random generator: pass "
                    f"np.random.default_rng(seed) (or an int seed) where JAX takes a PRNG "
                    f"key; got {type(rng).__name__}")


def _dtype(dtype):
    dtype = np.dtype(np.float64 if dtype is None else dtype)
    if dtype.kind not in "fc":
        raise TypeError(f"initializers make floating-point or complex weights; got dtype "
                        f"{dtype}. Pass dtype=np.float32, np.float64 or a complex type.")
    return dtype


def _shape(shape):
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(map(int, shape))


def _real(dtype):
    return np.zeros((), dtype).real.dtype


def zeros(rng: Any, shape: Sequence[int], dtype: Any = None) -> np.ndarray:
    """An array of zeros (``rng`` is not used).

    >>> import funcgrad.nn as nn
    >>> nn.initializers.zeros(None, (2,))
    array([0., 0.])
    """
    return np.zeros(_shape(shape), _dtype(dtype))


def ones(rng: Any, shape: Sequence[int], dtype: Any = None) -> np.ndarray:
    """An array of ones (``rng`` is not used).

    >>> import funcgrad.nn as nn
    >>> nn.initializers.ones(None, (2,))
    array([1., 1.])
    """
    return np.ones(_shape(shape), _dtype(dtype))


def constant(value: Any, dtype: Any = None) -> Initializer:
    """An initializer of arrays full of ``value``.

    >>> import funcgrad.nn as nn
    >>> nn.initializers.constant(-7.0)(None, (2,))
    array([-7., -7.])
    """
    def init(rng, shape, dtype=dtype):
        return np.full(_shape(shape), value, _dtype(dtype))
    return init


def uniform(scale: float = 1e-2, dtype: Any = None) -> Initializer:
    """An initializer of values uniform on ``[0, scale)``.

    >>> import numpy as np, funcgrad.nn as nn
    >>> w = nn.initializers.uniform(2.0)(np.random.default_rng(0), (1000,))
    >>> bool(w.min() >= 0.0 and w.max() < 2.0)
    True
    """
    def init(rng, shape, dtype=dtype):
        dtype = _dtype(dtype)
        return _uniform(_generator(rng), _shape(shape), dtype, 0.0, scale)
    return init


def normal(stddev: float = 1e-2, dtype: Any = None) -> Initializer:
    """An initializer of normal values, mean 0 and standard deviation ``stddev`` (complex
    dtypes: a complex normal of that standard deviation).

    >>> import numpy as np, funcgrad.nn as nn
    >>> w = nn.initializers.normal(3.0)(np.random.default_rng(0), (100_000,))
    >>> round(float(w.std()), 1)
    3.0
    """
    def init(rng, shape, dtype=dtype):
        dtype = _dtype(dtype)
        return (_normal(_generator(rng), _shape(shape), dtype) * stddev).astype(dtype)
    return init


def truncated_normal(stddev: float = 1e-2, dtype: Any = None, lower: float = -2.0,
                     upper: float = 2.0) -> Initializer:
    """An initializer of standard normal values truncated to ``(lower, upper)``, times
    ``stddev`` (no variance correction, as in JAX).

    >>> import numpy as np, funcgrad.nn as nn
    >>> w = nn.initializers.truncated_normal(1.0)(np.random.default_rng(0), (1000,))
    >>> bool(w.min() > -2.0 and w.max() < 2.0)
    True
    """
    def init(rng, shape, dtype=dtype):
        dtype = _dtype(dtype)
        if dtype.kind == "c":
            raise TypeError("truncated_normal makes real values; for complex weights use "
                            "variance_scaling(..., 'truncated_normal') or normal()")
        sample = _truncated(_generator(rng), _shape(shape), lower, upper)
        return (sample * stddev).astype(dtype)
    return init


def _uniform(gen, shape, dtype, low, high):
    if dtype.kind == "c":
        raise TypeError("uniform makes real values; for complex weights use "
                        "variance_scaling(..., 'uniform'), which draws from a disk")
    return gen.uniform(low, high, shape).astype(dtype)


def _normal(gen, shape, dtype):
    if dtype.kind == "c":  # real and imaginary parts each of variance 1/2: |z|^2 has mean 1
        return (gen.standard_normal(shape) + 1j * gen.standard_normal(shape)) * math.sqrt(0.5)
    return gen.standard_normal(shape)


def _truncated(gen, shape, lower, upper):
    """Standard normal values inside ``(lower, upper)``, by redrawing those outside."""
    if not lower < upper:
        raise ValueError(f"truncated_normal: lower ({lower}) must be below upper ({upper})")
    sample = gen.standard_normal(shape)
    outside = (sample <= lower) | (sample >= upper)
    while outside.any():
        sample[outside] = gen.standard_normal(int(outside.sum()))
        outside = (sample <= lower) | (sample >= upper)
    return sample


def _fans(shape, in_axis, out_axis, batch_axis):
    """Effective numbers of inputs and outputs of a dense or convolution kernel: axes not
    named are its receptive field (spatial axes), which multiply both."""
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise ValueError(f"variance scaling needs the input and output sizes of the "
                         f"weights, but a {len(shape)}-d shape {shape} has no default "
                         f"in_axis (-2): use a 2-d shape or pass in_axis and out_axis")

    def size(axes):
        return shape[axes] if isinstance(axes, int) else math.prod(shape[i] for i in axes)
    in_size, out_size, batch_size = size(in_axis), size(out_axis), size(batch_axis)
    receptive_field = math.prod(shape) / in_size / out_size / batch_size
    return in_size * receptive_field, out_size * receptive_field


def variance_scaling(scale: float, mode: str, distribution: str, in_axis: Axes = -2,
                     out_axis: Axes = -1, batch_axis: Axes = (), dtype: Any = None
                     ) -> Initializer:
    """An initializer whose values have mean 0 and variance ``scale / n``, ``n`` the
    number of inputs (``mode="fan_in"``), outputs (``"fan_out"``), their mean
    (``"fan_avg"``) or geometric mean (``"fan_geo_avg"``).  ``distribution``:
    ``"truncated_normal"`` (cut at two standard deviations), ``"normal"`` or
    ``"uniform"`` (for complex dtypes, uniform on a disk).  Axes not named in
    ``in_axis``/``out_axis``/``batch_axis`` are a convolution's receptive field.

    >>> import numpy as np, funcgrad.nn as nn
    >>> init = nn.initializers.variance_scaling(2.0, "fan_in", "normal")
    >>> w = init(np.random.default_rng(0), (500, 400))
    >>> round(float(w.var() * 500), 1)
    2.0
    """
    if mode not in ("fan_in", "fan_out", "fan_avg", "fan_geo_avg"):
        raise ValueError(f"variance_scaling: invalid mode {mode!r}; use 'fan_in', 'fan_out', "
                         f"'fan_avg' or 'fan_geo_avg'")
    if distribution not in ("truncated_normal", "normal", "uniform"):
        raise ValueError(f"variance_scaling: invalid distribution {distribution!r}; use "
                         f"'truncated_normal', 'normal' or 'uniform'")

    def init(rng, shape, dtype=dtype):
        shape, dtype = _shape(shape), _dtype(dtype)
        gen = _generator(rng)
        fan_in, fan_out = _fans(shape, in_axis, out_axis, batch_axis)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2,
             "fan_geo_avg": math.sqrt(fan_in * fan_out)}[mode]
        std = math.sqrt(scale / n)
        if distribution == "normal":
            sample = _normal(gen, shape, dtype)
        elif distribution == "uniform":
            if dtype.kind == "c":  # uniform on the disk of radius sqrt(2): variance 1
                radius = np.sqrt(2 * gen.uniform(size=shape))
                sample = radius * np.exp(2j * np.pi * gen.uniform(size=shape))
            else:  # uniform on (-sqrt(3), sqrt(3)): variance 1
                sample = gen.uniform(-1.0, 1.0, shape) * math.sqrt(3.0)
        elif dtype.kind == "c":  # complex normal, modulus truncated at 2
            t = (1 - math.exp(-4.0)) * gen.uniform(size=shape)
            sample = np.sqrt(-np.log1p(-t)) * np.exp(2j * np.pi * gen.uniform(size=shape))
            std /= _COMPLEX_TRUNCATED_STD
        else:
            sample = _truncated(gen, shape, -2.0, 2.0)
            std /= _TRUNCATED_STD
        return (sample * std).astype(dtype)
    return init


def _specialised(scale, mode, distribution, name, paper):
    def builder(in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (),
                dtype: Any = None) -> Initializer:
        return variance_scaling(scale, mode, distribution, in_axis, out_axis, batch_axis,
                                dtype)
    builder.__name__ = builder.__qualname__ = name
    builder.__doc__ = f"""{paper}: :func:`variance_scaling` with ``scale={scale}``,
    ``mode="{mode}"``, ``distribution="{distribution}"``.

    >>> import numpy as np, funcgrad.nn as nn
    >>> nn.initializers.{name}()(np.random.default_rng(0), (3, 2), np.float32).dtype
    dtype('float32')
    """
    return builder


glorot_uniform = _specialised(1.0, "fan_avg", "uniform", "glorot_uniform",
                              "Glorot (Xavier) uniform")
glorot_normal = _specialised(1.0, "fan_avg", "truncated_normal", "glorot_normal",
                             "Glorot (Xavier) normal")
lecun_uniform = _specialised(1.0, "fan_in", "uniform", "lecun_uniform", "LeCun uniform")
lecun_normal = _specialised(1.0, "fan_in", "truncated_normal", "lecun_normal", "LeCun normal")
he_uniform = _specialised(2.0, "fan_in", "uniform", "he_uniform", "He (Kaiming) uniform")
he_normal = _specialised(2.0, "fan_in", "truncated_normal", "he_normal", "He (Kaiming) normal")
xavier_uniform, xavier_normal = glorot_uniform, glorot_normal
kaiming_uniform, kaiming_normal = he_uniform, he_normal


def orthogonal(scale: float = 1.0, column_axis: int = -1, dtype: Any = None) -> Initializer:
    """An initializer of (semi-)orthogonal matrices, uniformly distributed (Haar): the
    array as a matrix with ``shape[column_axis]`` columns and the other axes as rows
    has orthonormal columns, or rows if there are fewer rows, times ``scale``.

    >>> import numpy as np, funcgrad.nn as nn
    >>> q = nn.initializers.orthogonal()(np.random.default_rng(0), (4, 3))
    >>> np.allclose(q.T @ q, np.eye(3))
    True
    """
    def init(rng, shape, dtype=dtype):
        shape, dtype = _shape(shape), _dtype(dtype)
        if len(shape) < 2:
            raise ValueError(f"orthogonal needs a shape of at least 2 axes, got {shape}")
        if 0 in shape:
            return np.zeros(shape, dtype)
        n_cols = shape[column_axis]
        n_rows = math.prod(shape) // n_cols
        tall = n_rows >= n_cols
        gen = _generator(rng)
        a = _normal(gen, (n_rows, n_cols) if tall else (n_cols, n_rows), dtype)
        q, r = np.linalg.qr(a)
        # Signs of R's diagonal moved into Q: without them QR's convention would bias
        # the distribution away from the uniform one.
        d = np.diagonal(r)
        q = q * (d / np.where(d == 0, 1, np.abs(d)))
        q = q if tall else q.T.conj()
        rows = tuple(s for i, s in enumerate(shape) if i != column_axis % len(shape))
        q = np.moveaxis(q.reshape(rows + (n_cols,)), -1, column_axis)
        return (scale * q).astype(dtype)
    return init
