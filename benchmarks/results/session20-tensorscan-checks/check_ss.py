import numpy as np, torch, funcgrad as fg
rng = np.random.default_rng(3)
bad = 0
for trial in range(30):
    seq = np.sort(rng.integers(0, 6, rng.integers(1, 7))).astype(float)
    v = rng.integers(-1, 8, (2, 3)).astype(float)
    if trial % 4 == 0: v[0, 0] = np.nan
    if trial % 6 == 0: seq[-1] = np.nan
    for right in (False, True):
        f = lambda s, x: fg.searchsorted(s, x, right=right)
        e = f(fg.tensor(seq), fg.tensor(v)).numpy()
        t = torch.searchsorted(torch.tensor(seq), torch.tensor(v), right=right).numpy()
        j = np.asarray(fg.jit(f)(fg.tensor(seq), fg.tensor(v)))
        VB = np.stack([v, v + 1, v[::-1]])
        vm = np.asarray(fg.vmap(f, in_axes=(None, 0))(fg.tensor(seq), fg.tensor(VB)))
        loop = np.stack([f(fg.tensor(seq), fg.tensor(x)).numpy() for x in VB])
        b = np.asarray(fg.jit(lambda x: fg.bucketize(x, fg.tensor(seq), right=right))(fg.tensor(v)))
        tb = torch.bucketize(torch.tensor(v), torch.tensor(seq), right=right).numpy()
        seq2 = np.sort(rng.standard_normal((2, 5)), -1)
        v2 = rng.standard_normal((2, 4))
        e2 = f(fg.tensor(seq2), fg.tensor(v2)).numpy()
        j2 = np.asarray(fg.jit(f)(fg.tensor(seq2), fg.tensor(v2)))
        t2 = torch.searchsorted(torch.tensor(seq2), torch.tensor(v2), right=right).numpy()
        ok = [np.array_equal(e, t), np.array_equal(j, e), np.array_equal(vm, loop), np.array_equal(b, tb), j.dtype == t.dtype, np.array_equal(e2, t2), np.array_equal(j2, t2)]
        if not all(ok): bad += 1; print("NaN in seq" if np.isnan(seq).any() else "NO NAN", right, ok, seq, v.tolist(), e.tolist(), t.tolist())
print("bad", bad)
