"""PyTorch-style optimizers over ``fg.Tensor`` parameters: ``SGD``, ``Adam``, ``AdamW``,
``RMSprop``, ``Adagrad`` (torch.optim's names, defaults, parameter groups, state keys and
update rules, in the order PyTorch's single-tensor code computes them).

``step()`` reads each parameter's ``.grad`` and writes the new value in place (under
``no_grad``), which bumps the parameter's version counter as PyTorch's in-place update
does. The arithmetic runs in NumPy, in the parameter's dtype: a float32 parameter stays
float32. A complex parameter is updated as torch.optim updates it: its real and imaginary
parts as separate coordinates (``torch.view_as_real``), each with its own moments.
Parameters placed on a GPU are not supported yet (a clear error says so).
"""
import math
from typing import Any, Callable, Iterable, Optional, Union

import numpy as np
from numpy import ndarray

from ..eager import Tensor
from ..modes import enable_grad, no_grad

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]

# the parameters, or parameter groups: dicts with "params" and hyperparameters to override
Params = Union[Iterable[Tensor], Iterable[dict[str, Any]]]


def _value(t):
    """A Tensor's value as a NumPy array (read-only view)."""
    value = np.asarray(t.detach())
    if value.dtype == object:
        raise TypeError("fg.optim optimizers run on CPU Tensors; move the parameter to the "
                        "CPU (fg.device_get) or use the functional optimizers")
    return value


def _array(t):
    """:func:`_value` without its calls for a CPU Tensor (the updates only read it, and
    funcgrad never writes a Tensor's array in place): its own array."""
    value = t._storage.value
    return value if type(value) is ndarray else _value(t)


def _write(t, value):
    """``t.copy_(value)`` under ``no_grad``: the new value, and a version bump.  A plain
    parameter (no view relations, not an inference Tensor) just takes ``value``, a fresh
    array of its dtype, shape and layout: copy_'s broadcast and copy cost a tenth of an
    MLP's training step (benchmarks/results/session16-bwalk.md) and give the same bits."""
    storage = t._storage
    old = storage.value
    if (storage.base is None and not storage.views and not t._inference
            and type(value) is ndarray and type(old) is ndarray and value.dtype == old.dtype
            and value.shape == old.shape and value.flags.c_contiguous):
        storage.value = value
        storage.version += 1
        return
    with no_grad():
        t.copy_(value)


def _new_buffer(value):
    return Tensor(np.array(value))


def _check(name, value, low=0.0, high=None):
    if not isinstance(value, (int, float, np.number)) or isinstance(value, bool):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if value < low or (high is not None and value >= high):
        raise ValueError(f"Invalid {name} value: {value}")


class Optimizer:
    """Base class: ``param_groups`` (a list of dicts, each with ``"params"`` and its
    hyperparameters), per-parameter ``state``, ``zero_grad``, ``step``, ``state_dict`` and
    ``load_state_dict``. Subclasses define ``_update(param, grad, state, group)``.

    >>> import funcgrad as fg
    >>> w, b = fg.ones(2, requires_grad=True), fg.zeros(1, requires_grad=True)
    >>> opt = fg.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.1)
    >>> [g["lr"] for g in opt.param_groups]
    [0.1, 0.5]
    """

    def __init__(self, params: Params, defaults: dict[str, Any]) -> None:
        self.defaults = dict(defaults)
        self.state: dict[Tensor, dict[str, Any]] = {}
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable "
                            "of Tensors or dicts, but got a Tensor (wrap it in a list)")
        groups: list[Any] = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            lines += [f"    {k}: {v}" for k, v in sorted(group.items()) if k != "params"]
        return "\n".join(lines + [")"])

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters, with hyperparameters that override the defaults.

        >>> import funcgrad as fg
        >>> opt = fg.optim.Adam([fg.ones(1, requires_grad=True)], lr=0.01)
        >>> opt.add_param_group({"params": fg.zeros(2, requires_grad=True), "lr": 0.1})
        >>> len(opt.param_groups), opt.param_groups[1]["betas"]
        (2, (0.9, 0.999))
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"a param group must be a dict, got {type(param_group).__name__}")
        params = param_group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params "
                                f"is {type(p).__name__}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
            if not np.issubdtype(p.dtype, np.inexact):
                raise TypeError(f"optimizer can only optimize floating-point Tensors, got "
                                f"one of dtype {p.dtype}")
        group = {**self.defaults, **param_group, "params": params}
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if len({id(p) for p in params}) != len(params) or seen & {id(p) for p in params}:
            raise ValueError("some parameters appear in more than one parameter group")
        self._check_group(group)
        self.param_groups.append(group)

    def _check_group(self, group):
        _check("learning rate", group["lr"])

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of every parameter (to ``None``, or to zeros).

        >>> import funcgrad as fg
        >>> w = fg.ones(2, requires_grad=True)
        >>> opt = fg.optim.SGD([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.zero_grad(); print(w.grad)
        None
        """
        for group in self.param_groups:
            for p in group["params"]:  # (leaves: .grad is ._grad, without the property)
                if p._grad is None:
                    continue
                if set_to_none:
                    p._grad = None
                else:
                    p.grad = Tensor(np.zeros_like(_value(p._grad)))

    def step(self, closure: Optional[Callable[[], Any]] = None) -> Any:
        """Update every parameter that has a ``.grad``; ``closure`` (optional)
        re-evaluates the loss, with gradients enabled, and its value is returned.

        >>> import funcgrad as fg
        >>> w = fg.Tensor([1.0, -2.0], requires_grad=True)
        >>> opt = fg.optim.SGD([w], lr=0.25)
        >>> (w * w).sum().backward(); opt.step(); w
        tensor([ 0.5, -1. ], requires_grad=True)
        """
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        update, states = self._update, self.state
        for group in self.param_groups:
            maximize = group.get("maximize", False)
            for p in group["params"]:
                g = p._grad  # (a leaf's .grad)
                if g is None:
                    continue
                grad = _array(g)
                if maximize:
                    grad = -grad
                state = states.get(p)
                if state is None:
                    state = states[p] = {}
                value = _array(p)
                if value.dtype.kind == "c":
                    _write(p, _complex_update(update, value, grad, state, group))
                else:
                    _write(p, update(value, grad, state, group))
        return loss

    def state_dict(self) -> dict[str, Any]:
        """The state (buffers copied) and the hyperparameters, parameters numbered in
        group order, as ``torch.optim.Optimizer.state_dict`` lays them out.

        >>> import funcgrad as fg
        >>> opt = fg.optim.SGD([fg.ones(1, requires_grad=True)], lr=0.1, momentum=0.9)
        >>> opt.state_dict()["param_groups"][0]["params"]
        [0]
        """
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = [index.setdefault(id(p), len(index)) for p in group["params"]]
            groups.append(packed)
        state = {}
        for group in self.param_groups:
            for p in group["params"]:
                if p in self.state:
                    state[index[id(p)]] = {k: v.clone() if isinstance(v, Tensor) else v
                                           for k, v in self.state[p].items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore what :meth:`state_dict` returned (buffers are copied in, cast to each
        parameter's dtype; hyperparameters are taken from the saved groups).

        >>> import funcgrad as fg
        >>> w = fg.ones(1, requires_grad=True)
        >>> opt = fg.optim.Adam([w], lr=0.1)
        >>> opt.load_state_dict(fg.optim.Adam([w], lr=0.5).state_dict())
        >>> opt.param_groups[0]["lr"]
        0.5
        """
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        by_index: dict[int, Tensor] = {}
        for group, saved in zip(self.param_groups, saved_groups):
            if len(group["params"]) != len(saved["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't "
                                 "match the size of optimizer's group")
            by_index.update(zip(saved["params"], group["params"]))
        self.state = {}
        for i, values in state_dict["state"].items():
            if i not in by_index:
                raise ValueError(f"loaded state dict has state for parameter {i}, which no "
                                 "parameter group lists")
            p = by_index[i]
            self.state[p] = {k: self._load_buffer(k, v, p) for k, v in values.items()}
        for group, saved in zip(self.param_groups, saved_groups):
            group.update({k: v for k, v in saved.items() if k != "params"})

    @staticmethod
    def _load_buffer(key, value, param):
        if not isinstance(value, Tensor):
            return value
        if key == "step":
            return value.clone()
        return Tensor(np.array(_value(value), dtype=param.dtype))

    def _update(self, param, grad, state, group):
        raise NotImplementedError


def _complex_update(update, value, grad, state, group):
    """``update`` of a complex parameter as torch.optim makes it: on its real and imaginary
    parts as separate coordinates (``torch.view_as_real``), each with its own moments;
    the buffers stay complex, as torch keeps them."""
    def real(a):
        return np.ascontiguousarray(a).reshape(-1).view(a.real.dtype)

    def back(r):
        return r.view(value.dtype).reshape(value.shape)
    pairs = real(value).shape
    views = {k: _new_buffer(real(_value(v))) if isinstance(v, Tensor) and v.dtype.kind == "c"
             else v for k, v in state.items()}
    new = update(real(value), real(grad), views, group)
    state.update({k: _new_buffer(back(_value(v))) if isinstance(v, Tensor)
                  and v.shape == pairs else v for k, v in views.items()})
    return back(new)


def _step_count(state):
    state["step"] = Tensor(np.float32(float(state.get("step", 0.0)) + 1))
    return float(state["step"])


class SGD(Optimizer):
    """Stochastic gradient descent, with optional momentum, dampening, Nesterov momentum
    and (L2, coupled) weight decay; ``torch.optim.SGD``'s rule and defaults.

    >>> import numpy as np, funcgrad as fg
    >>> w = fg.Tensor(np.array([1.0, -2.0], np.float32), requires_grad=True)
    >>> opt = fg.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True)
    >>> for _ in range(2):
    ...     opt.zero_grad(); (w * w).sum().backward(); opt.step()
    >>> print(w.detach().numpy().round(4))
    [ 0.2224 -0.4448]
    """

    def __init__(self, params: Params, lr: float = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float = 0, nesterov: bool = False, *,
                 maximize: bool = False) -> None:
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize))

    def _check_group(self, group):
        super()._check_group(group)
        _check("momentum", group["momentum"])
        _check("weight_decay", group["weight_decay"])
        if group["nesterov"] and (group["momentum"] <= 0 or group["dampening"] != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")

    def _update(self, param, grad, state, group):
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * param
        momentum = group["momentum"]
        if momentum:
            if "momentum_buffer" not in state:
                buf = np.array(grad)
            else:
                buf = (momentum * _value(state["momentum_buffer"])
                       + (1 - group["dampening"]) * grad)
            state["momentum_buffer"] = _new_buffer(buf)
            grad = grad + momentum * buf if group["nesterov"] else buf
        return param - group["lr"] * grad


class Adam(Optimizer):
    """Adam (Kingma and Ba, 2014), with optional L2 weight decay and AMSGrad;
    ``torch.optim.Adam``'s rule and defaults.

    >>> import numpy as np, funcgrad as fg
    >>> w = fg.Tensor(np.array([1.0, -2.0], np.float32), requires_grad=True)
    >>> opt = fg.optim.Adam([w], lr=0.1)
    >>> (w * w).sum().backward(); opt.step()
    >>> print(w.detach().numpy().round(6))          # the first step is lr * sign(grad)
    [ 0.9 -1.9]
    """

    _decoupled = False

    def __init__(self, params: Params, lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *, maximize: bool = False
                 ) -> None:
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps,
                                      weight_decay=weight_decay, amsgrad=amsgrad,
                                      maximize=maximize))

    def _check_group(self, group):
        super()._check_group(group)
        _check("epsilon", group["eps"])
        for i, beta in enumerate(group["betas"]):
            _check(f"beta parameter at index {i}", beta, 0.0, 1.0)
        _check("weight_decay", group["weight_decay"])

    def _update(self, param, grad, state, group):
        lr, (beta1, beta2), wd = group["lr"], group["betas"], group["weight_decay"]
        if wd and self._decoupled:
            param = param * (1 - lr * wd)
        elif wd:
            grad = grad + wd * param
        if "exp_avg" not in state:
            state["exp_avg"] = _new_buffer(np.zeros_like(param))
            state["exp_avg_sq"] = _new_buffer(np.zeros_like(param))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = _new_buffer(np.zeros_like(param))
        step = _step_count(state)
        exp_avg = _value(state["exp_avg"])
        exp_avg = exp_avg + (1 - beta1) * (grad - exp_avg)
        exp_avg_sq = beta2 * _value(state["exp_avg_sq"]) + (1 - beta2) * (grad * np.conj(grad))
        state["exp_avg"], state["exp_avg_sq"] = _new_buffer(exp_avg), _new_buffer(exp_avg_sq)
        if group["amsgrad"]:
            exp_avg_sq = np.maximum(_value(state["max_exp_avg_sq"]), exp_avg_sq)
            state["max_exp_avg_sq"] = _new_buffer(exp_avg_sq)
        step_size = lr / (1 - beta1 ** step)
        denom = np.sqrt(exp_avg_sq.real) / math.sqrt(1 - beta2 ** step) + group["eps"]
        return param - step_size * (exp_avg / denom)


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter, 2019): the parameter is
    first multiplied by ``1 - lr * weight_decay``; ``torch.optim.AdamW``'s defaults.

    >>> import numpy as np, funcgrad as fg
    >>> w = fg.Tensor(np.array([2.0]), requires_grad=True)
    >>> opt = fg.optim.AdamW([w], lr=0.1, weight_decay=0.5)
    >>> (w * w).sum().backward(); opt.step(); w     # 2 * (1 - 0.05) - 0.1
    tensor([1.8], dtype=float64, requires_grad=True)
    """

    _decoupled = True

    def __init__(self, params: Params, lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False
                 ) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class RMSprop(Optimizer):
    """RMSprop: ``g / (sqrt(v) + eps)`` with ``v`` a moving average of ``g**2`` (of its
    variance with ``centered``), optional momentum and L2 weight decay;
    ``torch.optim.RMSprop``'s rule and defaults (``alpha`` is the decay).

    >>> import numpy as np, funcgrad as fg
    >>> w = fg.Tensor(np.array([3.0]), requires_grad=True)
    >>> opt = fg.optim.RMSprop([w], lr=0.01, alpha=0.75, eps=0.0)
    >>> (w * 0.5).sum().backward(); opt.step(); w   # 3 - 0.01 * 0.5 / sqrt(0.25 * 0.25)
    tensor([2.98], dtype=float64, requires_grad=True)
    """

    def __init__(self, params: Params, lr: float = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0,
                 centered: bool = False, *, maximize: bool = False) -> None:
        super().__init__(params, dict(lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay,
                                      momentum=momentum, centered=centered,
                                      maximize=maximize))

    def _check_group(self, group):
        super()._check_group(group)
        _check("epsilon", group["eps"])
        _check("momentum", group["momentum"])
        _check("weight_decay", group["weight_decay"])
        _check("alpha", group["alpha"])

    def _update(self, param, grad, state, group):
        alpha, eps = group["alpha"], group["eps"]
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * param
        if "square_avg" not in state:
            state["square_avg"] = _new_buffer(np.zeros_like(param))
            if group["momentum"] > 0:
                state["momentum_buffer"] = _new_buffer(np.zeros_like(param))
            if group["centered"]:
                state["grad_avg"] = _new_buffer(np.zeros_like(param))
        _step_count(state)
        square_avg = alpha * _value(state["square_avg"]) + (1 - alpha) * (grad * np.conj(grad))
        state["square_avg"] = _new_buffer(square_avg)
        if group["centered"]:
            grad_avg = _value(state["grad_avg"])
            grad_avg = grad_avg + (1 - alpha) * (grad - grad_avg)
            state["grad_avg"] = _new_buffer(grad_avg)
            avg = np.sqrt((square_avg - grad_avg * np.conj(grad_avg)).real) + eps
        else:
            avg = np.sqrt(square_avg.real) + eps
        if group["momentum"] > 0:
            buf = group["momentum"] * _value(state["momentum_buffer"]) + grad / avg
            state["momentum_buffer"] = _new_buffer(buf)
            return param - group["lr"] * buf
        return param - group["lr"] * (grad / avg)


class Adagrad(Optimizer):
    """Adagrad (Duchi et al., 2011): ``clr * g / (sqrt(s) + eps)``, ``s`` the running sum
    of ``g**2`` and ``clr = lr / (1 + (step - 1) * lr_decay)``; ``torch.optim.Adagrad``'s
    rule and defaults.

    >>> import numpy as np, funcgrad as fg
    >>> w = fg.Tensor(np.array([1.0]), requires_grad=True)
    >>> opt = fg.optim.Adagrad([w], lr=0.5)
    >>> (w * 3.0).sum().backward(); opt.step(); w   # 1 - 0.5 * 3 / sqrt(9)
    tensor([0.5], dtype=float64, requires_grad=True)
    """

    def __init__(self, params: Params, lr: float = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, *, maximize: bool = False) -> None:
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value,
                                      eps=eps, maximize=maximize))
        # PyTorch builds Adagrad's state at construction (the sum starts at a chosen value).
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(self.state.setdefault(p, {}), p.shape, p.dtype, group)

    @staticmethod
    def _init_state(state, shape, dtype, group):
        state["step"] = Tensor(np.float32(0))
        v = group["initial_accumulator_value"]  # (complex: each part, as torch's pairs)
        state["sum"] = _new_buffer(np.full(shape, complex(v, v) if np.dtype(dtype).kind == "c"
                                           else v, dtype))

    def _check_group(self, group):
        super()._check_group(group)
        _check("lr_decay", group["lr_decay"])
        _check("weight_decay", group["weight_decay"])
        _check("initial_accumulator_value", group["initial_accumulator_value"])
        _check("epsilon", group["eps"])

    def _update(self, param, grad, state, group):
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * param
        if "sum" not in state:  # (a group added after construction)
            self._init_state(state, param.shape, param.dtype, group)
        step = _step_count(state)
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total = _value(state["sum"]) + grad * np.conj(grad)
        state["sum"] = _new_buffer(total)
        return param - clr * (grad / (np.sqrt(total.real) + group["eps"]))
