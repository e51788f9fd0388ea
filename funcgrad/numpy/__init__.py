"""``funcgrad.numpy``: NumPy's names, differentiable.

Every function here works on plain arrays, Python numbers and lists, and on
traced values inside transforms.  Code written with plain ``import numpy as
np`` works too: traced values implement ``__array_ufunc__`` and
``__array_function__`` and land here.

>>> import funcgrad as fg, funcgrad.numpy as fnp
>>> float(fg.grad(lambda x: fnp.sum(fnp.sin(x) ** 2))(0.5))
0.8414709848078965

Arrays seen by a transform are immutable: write ``x = x.at[i].set(v)``
instead of ``x[i] = v``.

The functions live by family: :mod:`~funcgrad.numpy.constructors`,
:mod:`~funcgrad.numpy.ufuncs` (elementwise), :mod:`~funcgrad.numpy.manipulation`, :mod:`~funcgrad.numpy.padding`,
:mod:`~funcgrad.numpy.reductions`, :mod:`~funcgrad.numpy.indexing`,
:mod:`~funcgrad.numpy.products`, :mod:`~funcgrad.numpy.ranges`,
:mod:`~funcgrad.numpy.statistics`,
:mod:`~funcgrad.numpy.histograms`, :mod:`~funcgrad.numpy.nanfunctions`,
:mod:`~funcgrad.numpy.signal`, :mod:`~funcgrad.numpy.polynomial`,
:mod:`~funcgrad.numpy.building`, :mod:`~funcgrad.numpy.floatfuncs`,
:mod:`~funcgrad.numpy.complexfuncs`, :mod:`~funcgrad.numpy.searching`,
:mod:`~funcgrad.numpy.sets`, :mod:`~funcgrad.numpy.indextricks`,
:mod:`~funcgrad.numpy.functional`, :mod:`~funcgrad.numpy.linalg`,
:mod:`~funcgrad.numpy.fft`, :mod:`~funcgrad.numpy.emath`,
:mod:`~funcgrad.numpy.stride_tricks` (as ``funcgrad.numpy.lib.stride_tricks``),
:mod:`~funcgrad.numpy.bits`, :mod:`~funcgrad.numpy.memory`,
:mod:`~funcgrad.numpy.inout` (printing and files) and :mod:`~funcgrad.numpy.iteration`.
``funcgrad.numpy.random`` is NumPy's own (as in HIPS autograd): it makes constant arrays.
"""
# NumPy's own constants, scalar types and dtype helpers, as they are.
# (the dtype and memory questions answer traced values too: see funcgrad.numpy.queries)
from numpy import (bool_, can_cast, cdouble, clongdouble, common_type, complex64, complex128,
                   complexfloating, csingle, double, dtype, e, euler_gamma, finfo, float16,
                   float32, float64, floating, generic, half, iinfo, inexact, inf, int_, int8,
                   index_exp, int16, int32, int64, integer, intp, issubdtype, longdouble,
                   may_share_memory, mgrid, ogrid, s_, min_scalar_type, nan, ndarray, newaxis, number, pi,
                   promote_types, result_type, shares_memory, signedinteger, single, uint8, uint16, uint32,
                   uint64, unsignedinteger)
# More of NumPy's own, as they are: they describe types, print, read files and set NumPy's
# state, and never see a traced value (funcgrad's twins of those that may are in bits,
# memory, inout and iteration).
from numpy import (False_, ScalarType, True_, base_repr, binary_repr, byte, bytes_, character,
                   datetime64, errstate, flexible, format_float_positional,
                   format_float_scientific, from_dlpack, frombuffer, fromregex,
                   fromstring, genfromtxt, get_printoptions, getbufsize, geterr, geterrcall,
                   intc, isfortran, iterable, little_endian, load, loadtxt, long,
                   longlong, mintypecode, ndindex, object_, printoptions, random, sctypeDict,
                   set_printoptions, setbufsize, seterr, seterrcall, short, str_, timedelta64,
                   typecodes, typename, ubyte, uint, uintc, uintp, ulong, ulonglong, ushort,
                   void)
from numpy import bool  # (NumPy 2's name of bool_; it shadows the builtin only here)
# NumPy 1's aliases, which NumPy 2 removed and jax.numpy keeps
float_, complex_ = float64, complex128

from ..core import Tracer
from . import (bits, building, complexfuncs, constructors, emath, fft, floatfuncs, functional,
               histograms, indexing, indextricks, inout, iteration, lib, linalg,
               manipulation, memory, nanfunctions, padding, polynomial, products, ranges,
               reductions, searching, sets, signal, statistics, ufuncs)
from ._convert import normalize_axis, one_axis, operand
from ._conversions import attach_conversions
from ._layout import attach_layout
from ._methods import attach_array_methods
from .queries import isdtype
from .constructors import *  # noqa: F403 - each module's __all__ is explicit
from .indexing import *  # noqa: F403
from .products import *  # noqa: F403
from .reductions import *  # noqa: F403
from .manipulation import *  # noqa: F403
from .padding import *  # noqa: F403
from .ufuncs import *  # noqa: F403
from .ranges import *  # noqa: F403
from .statistics import *  # noqa: F403
from .histograms import *  # noqa: F403
from .nanfunctions import *  # noqa: F403
from .signal import *  # noqa: F403
from .polynomial import *  # noqa: F403
from .building import *  # noqa: F403
from .floatfuncs import *  # noqa: F403
from .complexfuncs import *  # noqa: F403
from .searching import *  # noqa: F403
from .sets import *  # noqa: F403
from .indextricks import *  # noqa: F403
from .functional import *  # noqa: F403
from .bits import *  # noqa: F403
from .memory import *  # noqa: F403
from .inout import *  # noqa: F403
from .iteration import *  # noqa: F403
from . import ma
from ._poly1d import poly1d
from . import testing
from . import _numpy_rest
from ._numpy_rest import *  # noqa: F403 - NumPy's helpers for plain values

attach_array_methods(Tracer)
attach_conversions(Tracer)  # float(), .tolist()...: never a silently dropped derivative
attach_layout(Tracer)  # .flags, .strides, .flat... (not the eager Tensor's: it has memory)

_NUMPY_OWN = ["bool_", "can_cast", "common_type", "dtype", "e", "euler_gamma", "finfo",
              "float16", "float32", "float64", "floating", "iinfo", "inexact", "inf", "int8",
              "int16", "int32", "int64", "integer", "intp", "issubdtype", "may_share_memory",
              "min_scalar_type", "nan", "ndarray", "newaxis", "pi", "promote_types",
              "result_type",
              "shares_memory", "uint8",
              # the other numeric scalar types (fnp.complex128, fnp.double...), as jax.numpy
              "cdouble", "clongdouble", "complex64", "complex128", "complexfloating",
              "csingle", "double", "generic", "half", "int_", "longdouble", "number",
              "signedinteger", "single", "uint16", "uint32", "uint64", "unsignedinteger",
              # index helpers that build static indices and grids (jax.numpy has them too)
              "index_exp", "mgrid", "ogrid", "s_",
              # NumPy's other scalar types and type helpers (jax.numpy's bool, float_...)
              "bool", "byte", "ubyte", "short", "ushort", "intc", "uintc", "uint", "long",
              "ulong", "longlong", "ulonglong", "uintp", "float_", "complex_", "str_",
              "bytes_", "object_", "void", "character", "flexible", "datetime64",
              "timedelta64", "False_", "True_", "ScalarType", "typecodes",
              "sctypeDict", "little_endian", "mintypecode", "typename", "isfortran",
              "iterable", "ndindex", "binary_repr", "base_repr",
              # printing options, floating-point error handling
              "printoptions", "get_printoptions", "set_printoptions",
              "format_float_positional", "format_float_scientific", "errstate", "seterr",
              "geterr", "seterrcall", "geterrcall", "getbufsize", "setbufsize",
              # readers: they make constant arrays
              "load", "loadtxt", "genfromtxt", "fromregex", "frombuffer",
              "fromstring", "from_dlpack"]

# (normalize_axis, one_axis and operand have been public since the first release)
__all__ = (_NUMPY_OWN + ["isdtype","linalg", "fft", "emath", "lib", "random", "normalize_axis",
                         "one_axis", "operand"]
           + constructors.__all__ + ufuncs.__all__ + manipulation.__all__ + padding.__all__
           + reductions.__all__
           + indexing.__all__ + products.__all__ + ranges.__all__ + statistics.__all__
           + histograms.__all__
           + nanfunctions.__all__ + signal.__all__ + polynomial.__all__
           + building.__all__ + floatfuncs.__all__ + complexfuncs.__all__
           + searching.__all__ + sets.__all__ + indextricks.__all__ + functional.__all__
           + bits.__all__ + memory.__all__ + inout.__all__ + iteration.__all__)
__all__ += ["ma", "poly1d", "testing"] + _numpy_rest.__all__
