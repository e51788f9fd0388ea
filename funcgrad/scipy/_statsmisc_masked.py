"""The differentiable twins behind :mod:`funcgrad.scipy.stats.mstats` that funcgrad's
other statistics do not already give: trimmed means and variances, winsorizing, the
Hyndman-Fan quantiles (``mquantiles``), Harrell and Davis's quantiles, the ideal fourths
and Sen's seasonal slopes, on data without a mask (traced data cannot carry one), along
the last axis after ``along`` moved the requested one there; and the two helpers of the
public module and :mod:`._statsmisc_mstats_tests` (``traced``, ``scipy_mstats``).

Each is a weighted sum of order statistics (sorting only picks which value sits where),
with SciPy's arithmetic for the counts and weights, so its derivative in the data is the
weights' on the values they pick.
"""
import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray


def traced(*values):
    """Whether any of ``values`` (lists and tuples walked) is traced: then the twin."""
    return any(isinstance(v, Tracer) or (isinstance(v, (list, tuple)) and traced(*v))
               or _traced_masked(v) for v in values)


def _traced_masked(v):
    """A funcgrad masked array of traced data: the twins take plain arrays only, and
    SciPy would see the data without the mask, so say how to call instead."""
    if isinstance(v, fnp.ma.MaskedArray) and isinstance(v.data, Tracer):
        raise TypeError(
            "funcgrad.scipy.stats.mstats: a funcgrad masked array holding traced data is "
            "not supported yet; pass x.compressed() (the unmasked values, 1-d) or the "
            "plain traced data (every value counts), or call on values outside the "
            "transform")
    return False


def _as_numpy_masked(v):
    """A funcgrad masked array (its values known) as NumPy's, so that SciPy sees its
    mask: NumPy would otherwise read the data alone (np.asarray), every value counting."""
    if isinstance(v, fnp.ma.MaskedArray):
        return np.ma.MaskedArray(np.asarray(v.data), mask=np.asarray(v.mask),
                                 fill_value=v.fill_value)
    if isinstance(v, (list, tuple)) and any(isinstance(e, fnp.ma.MaskedArray) for e in v):
        return type(v)(_as_numpy_masked(e) for e in v)
    return v


def scipy_mstats(name, *args, **kwargs):
    """SciPy's ``scipy.stats.mstats.<name>`` (loaded on the first call)."""
    from scipy.stats import mstats
    return getattr(mstats, name)(*[_as_numpy_masked(a) for a in args],
                                 **{k: _as_numpy_masked(v) for k, v in kwargs.items()})


def along(a, axis):
    """``a`` as a float array with ``axis`` last (all of it, flattened, for ``None``)."""
    a = asarray(a)
    if a.dtype.kind in "biu":
        a = fnp.astype(a, np.float64)
    if axis is None:
        return fnp.reshape(a, (-1,))
    return fnp.moveaxis(a, axis, -1)


def _cuts(n, limits, inclusive):
    """SciPy's ``trimr``: how many of the ``n`` sorted values go from each end
    (``int`` of the proportion when inclusive, its rounding otherwise)."""
    low, up = limits
    for value, end in ((low, "beginning"), (up, "end")):
        if value is not None and not 0 <= value <= 1:
            raise ValueError(f"The proportion to cut from the {end} should be between 0. and "
                             f"1. (got {value})")
    low_n = 0 if not low else (int(low * n) if inclusive[0] else int(np.round(low * n)))
    up_n = n if up is None else (n - int(n * up) if inclusive[1]
                                 else n - int(np.round(n * up)))
    return low_n, up_n


def _limits(limits):
    return (limits, limits) if isinstance(limits, float) else limits


def trimmed(a, limits, inclusive, relative, axis):
    """The kept values (sorted) of a relative trim, or a mask of those inside the absolute
    ``limits`` (``trima``) with the values: ``(values, kept mask or None)``."""
    x = along(a, axis)
    limits = _limits(limits)
    if relative:
        low_n, up_n = _cuts(x.shape[-1], limits, inclusive)
        return fnp.sort(x, axis=-1)[..., low_n:up_n], None
    low, up = limits
    keep = np.ones(x.shape, dtype=bool)
    values = np.asarray(fnp.stop_gradient(x))
    if low is not None:
        keep &= values >= low if inclusive[0] else values > low
    if up is not None:
        keep &= values <= up if inclusive[1] else values < up
    return x, keep


def trimmed_moments(a, limits, inclusive, relative, axis, ddof):
    """``(mean, variance with ddof)`` of the trimmed data along ``axis``."""
    x, keep = trimmed(a, limits, inclusive, relative, axis)
    if keep is None:
        return fnp.mean(x, axis=-1), fnp.var(x, axis=-1, ddof=ddof)
    count = keep.sum(axis=-1)
    mean = fnp.sum(fnp.where(keep, x, 0.0), axis=-1) / count
    spread = fnp.sum(fnp.where(keep, fnp.square(x - fnp.expand_dims(mean, -1)), 0.0), axis=-1)
    return mean, spread / (count - ddof)


def winsorized(a, limits, inclusive, axis):
    """Each value clipped to the order statistics that SciPy's ``winsorize`` keeps."""
    x = along(a, axis)
    if limits is None:
        return x
    n = x.shape[-1]
    low_n, up_n = _cuts(n, _limits(limits), inclusive)
    ordered = fnp.sort(x, axis=-1)
    out = x
    if low_n > 0:
        low = ordered[..., low_n:low_n + 1]
        out = fnp.where(x < fnp.stop_gradient(low), low, out)
    if up_n < n:
        high = ordered[..., up_n - 1:up_n]
        out = fnp.where(x > fnp.stop_gradient(high), high, out)
    return out


def mquantiles(a, prob, alphap, betap, axis):
    """Hyndman and Fan's quantiles with plotting positions ``(alphap, betap)``, the
    quantiles on the last axis."""
    x = fnp.sort(along(a, axis), axis=-1)
    n = x.shape[-1]
    p = np.atleast_1d(np.asarray(prob, dtype=np.float64))
    if n == 1:
        return fnp.broadcast_to(x, x.shape[:-1] + p.shape)
    aleph = n * p + alphap + p * (1.0 - alphap - betap)
    k = np.floor(aleph.clip(1, n - 1)).astype(int)
    gamma = (aleph - k).clip(0, 1).astype(x.dtype)
    return (1.0 - gamma) * x[..., k - 1] + gamma * x[..., k]


def hdquantiles(a, prob, axis, var):
    """Harrell and Davis's quantiles (and their variances with ``var``): each a
    beta-weighted sum of the order statistics, the weights SciPy's (differences of the
    beta(p (n + 1), (1 - p)(n + 1)) CDF at ``i / n``)."""
    from scipy.special import betainc
    x = fnp.sort(along(a, axis), axis=-1)
    n = x.shape[-1]
    p = np.atleast_1d(np.asarray(prob, dtype=np.float64))
    if n < 2:
        nan = fnp.full(x.shape[:-1] + p.shape, np.nan, dtype=np.float64)
        return fnp.stack([nan, nan], axis=-2) if var else nan
    inner = (p > 0) & (p < 1)
    q = np.where(inner, p, 0.5)
    grid = np.arange(n + 1) / float(n)
    cdf = betainc((n + 1) * q[:, None], (n + 1) * (1 - q[:, None]), grid[None, :])
    weights = np.diff(cdf, axis=-1).astype(x.dtype)   # (len(p), n)
    means = fnp.sum(weights * x[..., None, :], axis=-1)
    ends = np.where(p == 0, 0, n - 1)
    means = fnp.where(inner, means, x[..., ends])
    if not var:
        return means
    spread = fnp.sum(weights * fnp.square(x[..., None, :] - means[..., None]), axis=-1)
    return fnp.stack([means, fnp.where(inner, spread, np.nan)], axis=-2)


def idealfourths(a, axis):
    """The ideal fourths: the interpolated order statistics at ``n/4 + 5/12`` from each
    end (NaN below three values)."""
    x = fnp.sort(along(a, axis), axis=-1)
    n = x.shape[-1]
    if n < 3:
        nan = fnp.full(x.shape[:-1], np.nan, dtype=x.dtype)
        return fnp.stack([nan, nan], axis=-1)
    j, h = divmod(n / 4.0 + 5 / 12.0, 1)
    j = int(j)
    low = (1 - h) * x[..., j - 1] + h * x[..., j]
    high = (1 - h) * x[..., n - j] + h * x[..., n - j - 1]
    return fnp.stack([low, high], axis=-1)


def seasonal_slopes(x):
    """Sen's slopes: per season (column) the median of the pairwise slopes between
    years (rows), and the median of all of them."""
    x = asarray(x)
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    x = fnp.reshape(x, (1,) * (2 - x.ndim) + x.shape) if x.ndim < 2 else x
    n = x.shape[0]
    later, earlier = np.triu_indices(n, 1)[1], np.triu_indices(n, 1)[0]
    slopes = (x[later] - x[earlier]) / (later - earlier).astype(x.dtype)[:, None]
    return fnp.median(slopes, axis=0), fnp.median(slopes)
