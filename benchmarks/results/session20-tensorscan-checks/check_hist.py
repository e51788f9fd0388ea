import numpy as np, torch, funcgrad as fg
rng = np.random.default_rng(2)
bad = 0
for trial in range(60):
    dt = [np.float64, np.float32][trial % 2]
    n = rng.integers(1, 30)
    a = (rng.integers(-20, 40, n) / rng.choice([1, 3, 7, 10])).astype(dt)
    if trial % 5 == 0: a[:2] = a[0]
    bins = int(rng.integers(1, 12))
    lo, hi = [(0, 0), (-1, 2), (0.1, 1.7), (-2, 4), (1, 1)][trial % 5]
    expect = torch.histc(torch.tensor(a), bins, lo, hi).numpy()
    f = lambda t: t.histc(bins, lo, hi)
    eager = f(fg.tensor(a)).numpy()
    jit = np.asarray(fg.jit(f)(fg.tensor(a)))
    B = np.stack([a, a[::-1] * 2, a + 0.5]).astype(dt)
    vm = np.asarray(fg.vmap(f)(fg.tensor(B)))
    loop = np.stack([torch.histc(torch.tensor(b), bins, lo, hi).numpy() for b in B])
    if not (np.array_equal(eager, expect) and np.array_equal(jit, expect) and np.array_equal(vm, loop) and eager.dtype == expect.dtype and jit.dtype == expect.dtype):
        bad += 1; print("HISTC MISMATCH", a.tolist(), bins, lo, hi, expect, eager, jit)
print("histc bad", bad)
for a in (np.array([1.0, np.inf]), np.array([1.0, np.nan])):
    for run in (lambda t: t.histc(4), fg.jit(lambda t: t.histc(4))):
        try: run(fg.tensor(a)); print("no error!")
        except Exception as e: print(type(e).__name__, e)
try: fg.vmap(lambda t: t.histc(4))(fg.tensor(np.array([[1.0, 2.0], [1.0, np.inf]]))); print("no error")
except Exception as e: print(type(e).__name__, e)
# bincount
for trial in range(20):
    v = rng.integers(0, 6, rng.integers(0, 10))
    w = rng.standard_normal(v.size)
    for kw in ({"minlength": 6}, {"minlength": 8}):
        expect = torch.bincount(torch.tensor(v), **kw).numpy()
        ew = torch.bincount(torch.tensor(v), weights=torch.tensor(w), **kw).numpy()
        got = np.asarray(fg.jit(lambda t: t.bincount(**kw))(fg.tensor(v)))
        gw = np.asarray(fg.jit(lambda t, w: t.bincount(w, **kw))(fg.tensor(v), fg.tensor(w)))
        if not (np.array_equal(got, expect) and got.dtype == expect.dtype and np.allclose(gw, ew)):
            bad += 1; print("BINCOUNT", v, kw, got, expect)
V = rng.integers(0, 5, (3, 7)); W = rng.standard_normal((3, 7))
vm = np.asarray(fg.vmap(lambda t, w: t.bincount(w, minlength=5))(fg.tensor(V), fg.tensor(W)))
print("vmap bincount", np.allclose(vm, np.stack([np.bincount(v, w, minlength=5) for v, w in zip(V, W)])))
g = fg.jit(fg.grad(lambda w, v: (v.bincount(w, minlength=5) * fg.tensor(np.arange(5.0))).sum()))(fg.tensor(W[0]), fg.tensor(V[0]))
print("grad weights", np.allclose(np.asarray(g), V[0].astype(float)))
for call in (lambda: fg.jit(lambda t: t.bincount())(fg.tensor([1, 2])), lambda: fg.jit(lambda t: t.bincount(minlength=2))(fg.tensor([1, 2])),
             lambda: fg.vmap(lambda t: t.bincount(minlength=3))(fg.tensor([[1, 2], [0, -1]]))):
    try: call(); print("no error!")
    except Exception as e: print(type(e).__name__, e)
print("bad", bad)
