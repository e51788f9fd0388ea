"""Which SciPy function met a traced value, and what funcgrad offers in its place.

SciPy's ufuncs reach funcgrad by themselves (``__array_ufunc__``), but its Python-level
functions (``scipy.special.logsumexp``, ``scipy.stats.norm.logpdf``, ``scipy.linalg.solve``)
convert their inputs with ``np.asarray`` or call what funcgrad does not support.  The
error raised there names the function the user called and its ``funcgrad.scipy`` twin,
found by walking the stack: only on the error path, so it costs nothing otherwise.

funcgrad.numpy cannot import funcgrad.scipy (which is built on it): whether a twin exists
is asked of the resolver registered with :func:`register_twin_resolver` (funcgrad
registers one; without it, the message names the ``funcgrad.scipy`` module only when it
is already loaded).
"""
import sys
from typing import Any, Callable, NamedTuple, Optional

__all__ = ["ScipyCall", "scipy_call", "scipy_fix", "register_twin_resolver"]

# Modules whose frames may sit between SciPy's code and the failure (or between two of
# SciPy's frames) without being the user's code.
_PASS_THROUGH = ("funcgrad", "numpy", "functools", "contextlib")

_RESOLVERS: list = []


def register_twin_resolver(resolve: Callable[[str], Any]) -> None:
    """Let errors name ``funcgrad.scipy``'s twin of a SciPy function:
    ``resolve("special.logsumexp")`` returns the object ``funcgrad.scipy`` has under that
    dotted name (a module, a function, a distribution), else None."""
    _RESOLVERS.append(resolve)


def _resolve(path):
    for resolve in _RESOLVERS:
        found = resolve(path)
        if found is not None:
            return found
    # (no resolver: a loaded module can still be read)
    obj = sys.modules.get("funcgrad.scipy." + path.split(".")[0])
    for part in path.split(".")[1:]:
        if obj is None:  # (not None.__init__, which is callable)
            break
        obj = getattr(obj, part, None)
    return obj


class ScipyCall(NamedTuple):
    """The SciPy function the user called (``scipy.special.logsumexp``,
    ``scipy.stats.norm.logpdf``, ``scipy.stats.norm(...).logpdf`` for a frozen
    distribution) and ``funcgrad.scipy``'s replacement (None when it has none)."""
    function: str
    twin: Optional[str]
    subpackage: str  # "special", "stats", "spatial.distance"...
    name: str  # the function's name inside scipy.<subpackage> ("logsumexp", "norm.logpdf")
    # the funcgrad.scipy function that called SciPy (its own code handing SciPy a value
    # the user passed it), else None: naming that function as the fix would send the user
    # back where they are
    caller: Optional[str] = None


def scipy_call() -> Optional[ScipyCall]:
    """The SciPy function on the stack that met a traced value, or None when the failure
    did not happen inside SciPy's code.

    The outermost SciPy frame next to the failure is the function the user called (the
    innermost is often a private helper, ``scipy._lib._array_api``, with no twin).  A
    frame of the user's code ends the walk: SciPy further out (``scipy.optimize`` calling
    the user's function back) did not meet the traced value.  A frame of funcgrad.scipy
    further out than SciPy's is the function the user called (``caller``)."""
    found = caller = None
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module.startswith("scipy."):
            found, caller = _public_call(frame, module) or found, None
        elif module.split(".")[0] not in _PASS_THROUGH:
            break
        elif found is not None and module.startswith("funcgrad.scipy."):
            caller = (module, frame.f_code.co_name)
        frame = frame.f_back
    del frame  # (a frame in a local keeps the whole stack alive)
    if found is None:
        return None
    subpackage, name, frozen = found
    if frozen is None:
        twin = _resolve(f"{subpackage}.{name}")
        twin_name = f"funcgrad.scipy.{subpackage}.{name}" if callable(twin) else None
        return ScipyCall(f"scipy.{subpackage}.{name}", twin_name, subpackage, name,
                         _caller_name(caller, twin_name))
    distribution, method = name.rsplit(".", 1)
    label = f"scipy.{subpackage}.{distribution}"
    if frozen:
        label += "(...)"
    twin = callable(_resolve(f"{subpackage}.{name}")) and (
        not frozen or callable(_resolve(f"{subpackage}.{distribution}")))
    twin_name = f"funcgrad.{label}.{method}" if twin else None
    return ScipyCall(f"{label}.{method}", twin_name, subpackage, name,
                     _caller_name(caller, twin_name))


def _caller_name(caller, twin):
    """The public name of the funcgrad.scipy function of ``caller`` (``(module,
    function)``): the twin when it is that function, else its module's name and its own
    (a private module's, ``funcgrad.scipy._quadrature.quad``, when it is not the twin)."""
    if caller is None:
        return None
    module, function = caller
    if twin is not None and twin.rsplit(".", 1)[-1] == function:
        return twin
    return f"{module}.{function}"


def _public_call(frame, module):
    """``(subpackage, name, frozen)`` for a frame of SciPy that is a public function
    (``("special", "logsumexp", None)``) or a method of a distribution
    (``("stats", "norm.logpdf", False)``; ``True`` for a frozen one), else None."""
    parts = module.split(".")
    code = frame.f_code
    if not parts[1].startswith("_"):
        subpackage = parts[1]
        bound = _bound_method(frame, subpackage)
        if bound is not None:
            return bound
        # (a method's qualified name, "gaussian_kde.logpdf", from Python 3.11)
        name = getattr(code, "co_qualname", code.co_name)
        if name.endswith(".__init__"):  # (a class the user constructs: named by the class)
            name = name[:-len(".__init__")]
        head = name.split(".")[0]
        if head.startswith("_") or "<" in name:
            return None
        # the deepest public module that has the name: scipy.spatial.distance.pdist is
        # ("spatial.distance", "pdist"), scipy.spatial._kdtree.KDTree ("spatial", "KDTree")
        public_parts = []
        for part in parts[1:]:
            if part.startswith("_"):
                break
            public_parts.append(part)
        for k in range(len(public_parts), 0, -1):
            subpackage = ".".join(public_parts[:k])
            if getattr(sys.modules.get(f"scipy.{subpackage}"), head, None) is not None:
                return subpackage, name, None
        return None
    # A frame of scipy._lib (a decorator that converts the arguments before calling the
    # function it wraps): that function is among its locals.
    for value in frame.f_locals.values():
        owner = getattr(value, "__module__", None)
        name = getattr(value, "__name__", None)
        if callable(value) and isinstance(owner, str) and isinstance(name, str) \
                and owner.startswith("scipy.") and not owner.split(".")[1].startswith("_") \
                and not name.startswith("_"):
            return owner.split(".")[1], name, None
    return None


def _bound_method(frame, subpackage):
    """``(subpackage, name, frozen)`` when ``frame`` runs a method of an object of
    ``scipy.<subpackage>``'s namespace: a callable object (``scipy.special.sph_harm_y``, a
    ``MultiUFunc``: ``("special", "sph_harm_y", None)``) or a distribution
    (``("stats", "norm.logpdf", False)``; ``True`` for a frozen one), else None."""
    self = frame.f_locals.get("self")
    method = frame.f_code.co_name
    if self is None or not type(self).__module__.startswith("scipy.") or (
            method.startswith("_") and method != "__call__"):
        return None
    namespace = vars(sys.modules.get(f"scipy.{subpackage}"))
    name = next((n for n, v in namespace.items() if v is self), None)
    if name is not None and method == "__call__":
        return subpackage, name, None
    if subpackage != "stats":
        return None
    # a frozen distribution (norm(0, 2)) holds the distribution it freezes
    dist = getattr(self, "dist", None)
    if dist is None:
        dist = getattr(self, "_dist", None)
    frozen = dist is not None
    # (by type: freezing copies the distribution, so norm(0, 2).dist is not scipy.stats.norm)
    kind = type(dist if frozen else self)
    name = next((n for n, v in namespace.items() if type(v) is kind), None)
    if name is None:
        return None
    return subpackage, f"{name}.{method}", frozen


def scipy_fix(call: ScipyCall) -> str:
    """The sentence that tells what to call instead of ``call.function``."""
    if call.caller is not None:
        return (f"{call.caller} hands this value to {call.function}, which runs on plain "
                f"values and cannot carry its derivative (or, under vmap or jit, its batch or "
                f"unknown values): see {call.caller}'s docstring for the arguments that may be "
                f"differentiated or traced, and pass plain values (or fg.stop_gradient(x)) in "
                f"the others.")
    if call.twin is not None:
        return (f"funcgrad cannot differentiate SciPy's Python code: call {call.twin} "
                f"instead (same signature).")
    package = f"funcgrad.scipy.{call.subpackage}"
    if _resolve(call.subpackage) is None:
        where = f"funcgrad.scipy has no {call.subpackage} module"
    else:
        where = f"{package} has no {call.name} (see {package}.__all__)"
    return (f"funcgrad cannot differentiate SciPy's Python code, and {where}: write the "
            f"computation with funcgrad.numpy (plain NumPy functions on traced values work "
            f"too) and funcgrad.scipy, or give it its own derivative with fg.custom_vjp.")
