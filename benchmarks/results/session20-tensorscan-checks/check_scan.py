import numpy as np, torch, funcgrad as fg
rng = np.random.default_rng(0)
def arr(shape, nan=False):
    a = rng.integers(0, 4, shape).astype(np.float64)
    if nan: a[rng.random(shape) < 0.15] = np.nan
    return a
bad = 0
for trial in range(40):
    shape = [(5,), (3, 6), (2, 3, 4), (4, 1), (1, 7)][trial % 5]
    a = arr(shape, nan=trial % 3 == 0)
    for meth, dims in (("cummax", range(-len(shape), len(shape))), ("cummin", range(len(shape))), ("mode", range(len(shape)))):
        if meth == "mode" and trial % 3 == 0: continue
        for d in dims:
            tv, ti = getattr(torch.tensor(a), meth)(d)
            f = lambda t: tuple(getattr(t, meth)(d))
            ev, ei = f(fg.tensor(a))
            jv, ji = fg.jit(f)(fg.tensor(a))
            batch = np.stack([a, arr(shape), a[::-1].copy() if a.ndim == 1 else a])
            vv, vi = fg.vmap(f)(fg.tensor(batch))
            for name, v, i in (("eager", ev, ei), ("jit", jv, ji), ("vmap", vv[0], vi[0])):
                v, i = np.asarray(v.detach().numpy() if hasattr(v, 'detach') else v), np.asarray(i.numpy() if hasattr(i, 'numpy') else i)
                if not (np.array_equal(v, tv.numpy(), equal_nan=True) and np.array_equal(i, ti.numpy())):
                    bad += 1; print("MISMATCH", meth, d, name, a.tolist(), v.tolist(), i.tolist(), tv.tolist(), ti.tolist())
            for k in range(3):
                ek = [np.asarray(x.numpy()) for x in f(fg.tensor(batch[k]))]
                if not (np.array_equal(np.asarray(vv[k]), ek[0], equal_nan=True) and np.array_equal(np.asarray(vi[k]), ek[1])):
                    bad += 1; print("VMAP MISMATCH", meth, d, k)
            # gradients vs torch
            w = rng.standard_normal(tv.shape)
            tt = torch.tensor(a, requires_grad=True)
            (getattr(tt, meth)(d)[0].nan_to_num(0.0) * torch.tensor(w)).sum().backward()
            loss = lambda t: (getattr(t, meth)(d)[0].nan_to_num(0.0) * fg.tensor(w)).sum()
            for name, g in (("grad", fg.grad(loss)(fg.tensor(a))), ("jitgrad", fg.jit(fg.grad(loss))(fg.tensor(a)))):
                if not np.allclose(np.asarray(g), tt.grad.numpy()):
                    bad += 1; print("GRAD MISMATCH", meth, d, name)
            vg = fg.vmap(fg.grad(loss))(fg.tensor(batch))
            for k in range(3):
                if not np.allclose(np.asarray(vg[k]), np.asarray(fg.grad(loss)(fg.tensor(batch[k])))):
                    bad += 1; print("VMAP GRAD MISMATCH", meth, d, k)
print("bad", bad)
# dtypes / ints
for dt in (np.int64, np.float32, np.int32):
    a = np.array([[3, 1, 3, 2], [0, 5, 5, 1]], dtype=dt)
    for meth in ("cummax", "cummin", "mode"):
        tv, ti = getattr(torch.tensor(a), meth)(1)
        jv, ji = fg.jit(lambda t: tuple(getattr(t, meth)(1)))(fg.tensor(a))
        print(dt.__name__, meth, jv.dtype, ji.dtype, tv.dtype, ti.dtype, np.array_equal(np.asarray(jv), tv.numpy()), np.array_equal(np.asarray(ji), ti.numpy()))
