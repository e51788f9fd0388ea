import numpy as np, torch, funcgrad as fg
bad = 0
for a, b in ((np.array([7.0, -7.0, 2.5, -0.5]), 2.0), (np.array([7, -7, 3, 0]), 2), (np.array([7, -7, 3, 0], np.int32), np.array([2, 3, -2, 5], np.int32)), (np.array([7.0, -7.0, 1.0, 0.0], np.float32), np.array([0.0, 2.0, -3.0, 0.0], np.float32))):
    for mode in ("floor", "trunc"):
        tb = torch.tensor(b) if isinstance(b, np.ndarray) else b
        fb = fg.tensor(b) if isinstance(b, np.ndarray) else b
        t = torch.tensor(a).div(tb, rounding_mode=mode)
        f = lambda x, y: x.div(y, rounding_mode=mode)
        e = f(fg.tensor(a), fb); j = fg.jit(f)(fg.tensor(a), fb)
        v = fg.vmap(f, in_axes=(0, None))(fg.tensor(a[None]), fb)
        ok = np.array_equal(e.numpy(), t.numpy(), equal_nan=True) and np.array_equal(np.asarray(j), t.numpy(), equal_nan=True) and e.dtype == j.dtype == t.numpy().dtype and np.array_equal(np.asarray(v)[0], t.numpy(), equal_nan=True)
        if not ok: bad += 1; print(a, b, mode, e, j, t)
    fd = fg.jit(lambda x, y: x.floor_divide(y))(fg.tensor(a), fb)
    if not np.array_equal(np.asarray(fd), torch.tensor(a).floor_divide(tb).numpy(), equal_nan=True): bad += 1; print("fd", a, b)
    h = fg.jit(lambda x: x.heaviside(fg.tensor(np.array(0.5, a.dtype))))(fg.tensor(a))
    if a.dtype.kind == "f" and not np.array_equal(np.asarray(h), torch.tensor(a).heaviside(torch.tensor(np.array(0.5, a.dtype))).numpy()): bad += 1; print("heav", a)
for run in (fg.jit(lambda x, y: x // y), fg.jit(lambda x, y: x.div(y, rounding_mode="trunc")), lambda x, y: fg.vmap(lambda x, y: x.div(y, rounding_mode='floor'))(x[None], y[None])):
    try: run(fg.tensor([1, 2]), fg.tensor([1, 0])); print("no error")
    except Exception as e: print(type(e).__name__, e)
try: fg.tensor([1, 2]).div(fg.tensor([1, 0]), rounding_mode="floor"); print("no error")
except Exception as e: print("eager", type(e).__name__, e)
x = fg.tensor([1.5, -2.5], requires_grad=True)
y = x.div(2.0, rounding_mode="floor"); print(y, y.grad_fn); y.sum().backward(); print(x.grad)
print(fg.grad(lambda t: (t.div(2.0, rounding_mode='floor') * t).sum())(fg.tensor([1.5, -2.5])))
print("bad", bad)
