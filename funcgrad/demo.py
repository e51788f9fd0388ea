"""A short tour of funcgrad: ``python -m funcgrad.demo`` (or ``make demo``).

Each section differentiates an ordinary NumPy function with a funcgrad transform and
prints the result beside a central finite-difference estimate computed from function
values only, with the largest absolute difference between the two:

1. the gradient of a tanh loss (``grad`` with ``argnums``), as in the README quickstart;
2. a second derivative, ``grad(grad(np.sin))``;
3. a Jacobian, by forward mode (``jacfwd``) and by reverse mode (``jacrev``);
4. the Hessian of the Rosenbrock function (``hessian``);
5. per-example gradients (``vmap(grad(loss), in_axes=(None, 0, 0))``).

The whole tour runs in well under a second once NumPy is loaded.
"""
import numpy as np

import funcgrad as fg

EPS = 1e-6


# --- finite differences, from function values only -------------------------------------------

def fd_jacobian(f, x, eps=EPS):
    """Central differences of ``f`` at ``x``: an array of shape ``f(x).shape + x.shape``."""
    x = np.array(x, dtype=np.float64)
    out_shape = np.shape(f(x))
    jac = np.zeros(out_shape + x.shape)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        jac[(...,) + i] = (np.asarray(f(up)) - np.asarray(f(down))) / (2 * eps)
    return jac


def fd_second_derivative(f, x, eps=1e-4):
    """``f''(x)`` by the central second difference."""
    return (f(x + eps) - 2 * f(x) + f(x - eps)) / eps ** 2


def fd_hessian(f, x, eps=1e-4):
    """The Hessian of a scalar ``f`` by central second differences of its values."""
    x = np.array(x, dtype=np.float64)
    n = x.size
    hess = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            def at(di, dj):
                y = x.copy()
                y[i] += di
                y[j] += dj
                return f(y)
            hess[i, j] = (at(eps, eps) - at(eps, -eps) - at(-eps, eps) + at(-eps, -eps)) / (
                4 * eps ** 2)
    return hess


# --- printing --------------------------------------------------------------------------------

def section(number, title):
    print(f"\n{number}. {title}")
    print("-" * (len(title) + 3 + len(str(number))))


def show(label, value):
    text = np.array2string(np.asarray(value, dtype=np.float64) + 0.0, prefix=" " * 22)
    print(f"  {label:<19} {text}")


def compare(value, reference, what=""):
    """Print the largest absolute difference and return it."""
    diff = float(np.max(np.abs(np.asarray(value, dtype=np.float64) - reference)))
    print(f"  max abs difference{' ' + what if what else ''}: {diff:.2e}")
    return diff


# --- the tour ---------------------------------------------------------------------------------

def tanh_loss(W, x):
    return np.sum(np.tanh(x @ W) ** 2)


def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def logistic_loss(w, x, y):
    """The loss of one example: log(1 + exp(-y * <w, x>))."""
    return np.log1p(np.exp(-y * np.sum(w * x)))


def main():
    rng = np.random.default_rng(0)
    diffs = []
    with np.printoptions(precision=5, suppress=True, linewidth=90):
        print("funcgrad demo: each derivative beside a central finite-difference check")

        section(1, "gradient of a tanh loss: fg.grad(loss, argnums=(0, 1))")
        W, x = rng.normal(size=(3, 2)), rng.normal(size=(4, 3))
        dW, dx = fg.grad(tanh_loss, argnums=(0, 1))(W, x)
        show("loss(W, x) =", tanh_loss(W, x))
        show("dloss/dW =", dW)
        show("finite differences", fd_jacobian(lambda w: tanh_loss(w, x), W))
        diffs.append(compare(dW, fd_jacobian(lambda w: tanh_loss(w, x), W), "in dW"))
        diffs.append(compare(dx, fd_jacobian(lambda v: tanh_loss(W, v), x), "in dx"))

        section(2, "second derivative: fg.grad(fg.grad(np.sin))")
        points = [0.0, 0.5, 1.0, 2.0]
        d2 = [fg.grad(fg.grad(np.sin))(p) for p in points]
        show("points", points)
        show("grad(grad(sin)) =", d2)
        show("finite differences", [fd_second_derivative(np.sin, p) for p in points])
        diffs.append(compare(d2, [fd_second_derivative(np.sin, p) for p in points]))

        section(3, "Jacobian of f(x) = (x0 * x1, sin(x1 + x2), exp(x0) * x2)")

        def f(x):
            return np.stack([x[0] * x[1], np.sin(x[1] + x[2]), np.exp(x[0]) * x[2]])

        x3 = np.array([0.5, -1.0, 2.0])
        reference = fd_jacobian(f, x3)
        show("jacfwd(f)(x) =", fg.jacfwd(f)(x3))
        show("jacrev(f)(x) =", fg.jacrev(f)(x3))
        show("finite differences", reference)
        diffs.append(compare(fg.jacfwd(f)(x3), reference, "of jacfwd"))
        diffs.append(compare(fg.jacrev(f)(x3), reference, "of jacrev"))

        section(4, "Hessian of the Rosenbrock function: fg.hessian(rosenbrock)")
        xr = np.array([1.2, 0.9, 1.1, 0.8])
        H = fg.hessian(rosenbrock)(xr)
        show("hessian(f)(x) =", H)
        show("finite differences", fd_hessian(rosenbrock, xr))
        diffs.append(compare(H, fd_hessian(rosenbrock, xr)))

        section(5, "per-example gradients: fg.vmap(fg.grad(loss), in_axes=(None, 0, 0))")
        w = rng.normal(size=3)
        xs, ys = rng.normal(size=(5, 3)), np.sign(rng.normal(size=5))
        per_example = fg.vmap(fg.grad(logistic_loss), in_axes=(None, 0, 0))(w, xs, ys)
        reference = np.stack([fd_jacobian(lambda v: logistic_loss(v, xi, yi), w)
                              for xi, yi in zip(xs, ys)])
        show("gradients =", per_example)
        show("finite differences", reference)
        diffs.append(compare(per_example, reference))

        print(f"\nlargest difference over the tour: {max(diffs):.2e}")
    return diffs


if __name__ == "__main__":
    main()
