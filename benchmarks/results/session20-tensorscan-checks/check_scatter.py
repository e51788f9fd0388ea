import numpy as np, torch, funcgrad as fg
rng = np.random.default_rng(1)
X = rng.standard_normal((3, 4)).round(1)
S = rng.standard_normal((3, 4)).round(1)
# index computed from the values (traced under jit/vmap): ranks of |x| mod 3 etc.
def idx_from(t, n):  # int64 in [0, n)
    return (t.abs() * 10).long() % n
cases = {
 "gather": lambda lib, t, s: t.gather(1, idx_from(s, 4)),
 "take_along_dim": lambda lib, t, s: t.take_along_dim(idx_from(s, 4), 1),
 "index_select": lambda lib, t, s: t.index_select(1, idx_from(s[0], 4)),
 "scatter": lambda lib, t, s: t.scatter(1, s.argsort(1)[:, :2], s[:, :2] * 3),
 "scatter_value": lambda lib, t, s: t.scatter(0, idx_from(s, 3), 2.5) * s,
 "scatter_add": lambda lib, t, s: t.scatter_add(1, idx_from(s, 4), s * 2),
 "scatter_add_dim0": lambda lib, t, s: t.scatter_add(0, idx_from(s, 3)[:2], s[:2]),
 "scatter_reduce_sum": lambda lib, t, s: t.scatter_reduce(1, idx_from(s, 4), s, "sum"),
 "scatter_reduce_mean": lambda lib, t, s: t.scatter_reduce(1, idx_from(s, 4), s, "mean"),
 "scatter_reduce_mean_noself": lambda lib, t, s: t.scatter_reduce(1, idx_from(s, 4), s, "mean", include_self=False),
 "scatter_reduce_amax": lambda lib, t, s: t.scatter_reduce(1, idx_from(s, 4), s, "amax"),
 "scatter_reduce_amin_noself": lambda lib, t, s: t.scatter_reduce(0, idx_from(s, 3), s, "amin", include_self=False),
 "scatter_reduce_prod": lambda lib, t, s: t.scatter_reduce(1, idx_from(s, 4), s, "prod"),
 "index_add": lambda lib, t, s: t.index_add(1, idx_from(s[0], 4), s, alpha=2),
 "index_copy": lambda lib, t, s: t.index_copy(1, s[0].argsort(), s),
 "index_fill": lambda lib, t, s: t.index_fill(1, idx_from(s[0], 4)[:2], -1.5),
 "index_put": lambda lib, t, s: t.index_put((idx_from(s[0], 3),), s[1], accumulate=True),
 "index_put_set": lambda lib, t, s: t.index_put((s[:, 0].argsort(),), s),
}
bad = 0
import sys
for name, f in cases.items():
    if sys.argv[1:] and name not in sys.argv[1:]: continue
    tt, ts = torch.tensor(X, requires_grad=True), torch.tensor(S, requires_grad=True)
    tout = f(torch, tt, ts)
    w = rng.standard_normal(tout.shape)
    (tout * torch.tensor(w)).sum().backward()
    g = lambda t, s: f(fg, t, s)
    eager = g(fg.tensor(X), fg.tensor(S)).detach().numpy()
    jitted = np.asarray(fg.jit(g)(fg.tensor(X), fg.tensor(S)))
    ok = np.allclose(eager, tout.detach().numpy()) and np.allclose(jitted, eager)
    SB = np.stack([S, S[::-1], S * 0.7 + 0.3])
    XB = np.stack([X, X * 2, -X])
    vm = np.asarray(fg.vmap(g)(fg.tensor(XB), fg.tensor(SB)))
    loop = np.stack([g(fg.tensor(x), fg.tensor(s)).detach().numpy() for x, s in zip(XB, SB)])
    ok_v = np.allclose(vm, loop)
    loss = lambda t, s: (g(t, s) * w).sum()
    expect = tuple(np.zeros((3, 4)) if v.grad is None else v.grad.numpy() for v in (tt, ts))
    res = {}
    for tn, run in (("grad", fg.grad(loss, argnums=(0, 1))), ("jitgrad", fg.jit(fg.grad(loss, argnums=(0, 1))))):
        try:
            gx, gs = run(fg.tensor(X), fg.tensor(S))
            res[tn] = np.allclose(np.asarray(gx), expect[0]) and np.allclose(np.asarray(gs), expect[1])
        except Exception as e:
            res[tn] = f"{type(e).__name__}: {str(e)[:160]}"
    try:
        vg = fg.vmap(fg.grad(loss, argnums=(0, 1)))(fg.tensor(XB), fg.tensor(SB))
        lg = [fg.grad(loss, argnums=(0, 1))(fg.tensor(x), fg.tensor(s)) for x, s in zip(XB, SB)]
        res["vmapgrad"] = all(np.allclose(np.asarray(vg[k][i]), np.asarray(lg[i][k])) for i in range(3) for k in range(2))
    except Exception as e:
        res["vmapgrad"] = f"{type(e).__name__}: {str(e)[:160]}"
    print(f"{name:28s} value={ok} vmap={ok_v} {res}")
