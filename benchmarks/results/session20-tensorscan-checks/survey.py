import numpy as np, funcgrad as fg, traceback
X = np.array([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]])
I = np.array([[0, 1, 0], [1, 0, 1]])
calls = {
 "cummax": lambda t: t.cummax(1),
 "cummin": lambda t: t.cummin(0),
 "mode": lambda t: t.mode(1),
 "histc": lambda t: t.histc(4, 0, 5),
 "bincount": lambda t: t.long().flatten().bincount(minlength=6),
 "bincount_w": lambda t: fg.tensor([0, 1, 1, 3]).bincount(weights=t.flatten()[:4], minlength=5),
 "scatter": lambda t: t.scatter(1, fg.tensor(I), t * 2),
 "scatter_tindex": lambda t: t.scatter(1, (t > 2).long(), t * 2),
 "scatter_add": lambda t: t.scatter_add(1, fg.tensor(I), t * 2),
 "scatter_add_tindex": lambda t: t.scatter_add(1, (t > 2).long(), t * 2),
 "scatter_reduce": lambda t: t.scatter_reduce(1, fg.tensor(I), t * 2, "amax"),
 "scatter_reduce_mean_tindex": lambda t: t.scatter_reduce(1, (t > 2).long(), t * 2, "mean"),
 "index_add": lambda t: t.index_add(0, fg.tensor([1, 1]), t),
 "index_add_tindex": lambda t: t.index_add(1, t[0].argsort(), t),
 "index_copy_tindex": lambda t: t.index_copy(1, t[0].argsort(), t),
 "index_fill_tindex": lambda t: t.index_fill(1, t[0].argsort()[:1], 9.0),
 "index_put_tindex": lambda t: t.index_put((t[0].argsort(),), t[1], accumulate=True),
 "index_put": lambda t: t.index_put((fg.tensor([0, 0]),), t[1], accumulate=True),
 "index_select_tindex": lambda t: t.index_select(1, t[0].argsort()),
 "gather_tindex": lambda t: t.gather(1, t.argsort(1)),
 "searchsorted": lambda t: fg.searchsorted(t[0].sort().values, t[1]),
 "bucketize": lambda t: fg.bucketize(t, fg.tensor([1.0, 3.0])),
 "unique": lambda t: t.unique(),
 "nonzero": lambda t: t.nonzero(),
 "masked_select": lambda t: t.masked_select(t > 2),
 "masked_scatter": lambda t: t.masked_scatter(t > 2, t * 10),
 "take_along_dim": lambda t: t.take_along_dim(t.argsort(1), 1),
 "repeat_interleave_t": lambda t: t.repeat_interleave(fg.tensor([1, 2]), 0),
 "swapaxes": lambda t: t.swapaxes(0, 1),
 "swapdims": lambda t: t.swapdims(0, 1),
 "argwhere": lambda t: t.argwhere(),
 "count_nonzero": lambda t: t.count_nonzero(1),
 "quantile": lambda t: t.quantile(0.3, 1),
 "median": lambda t: t.median(1),
 "topk": lambda t: t.topk(2),
 "sort": lambda t: t.sort(1),
 "unique_consecutive": lambda t: t.unique_consecutive(),
 "put": lambda t: t.put(fg.tensor([0, 2]), fg.tensor([7.0, 8.0])),
 "take": lambda t: t.take(fg.tensor([0, 4])),
 "histogram": lambda t: t.histogram(3),
 "diff": lambda t: t.diff(),
 "msort": lambda t: t.msort(),
 "argsort": lambda t: t.argsort(1),
 "nan_to_num": lambda t: t.nan_to_num(),
 "isin": lambda t: fg.isin(t, fg.tensor([1.0, 5.0])),
 "renorm": lambda t: t.renorm(2, 0, 1.0),
 "tolist": lambda t: t.tolist(),
 "item": lambda t: t[0, 0].item(),
 "allclose": lambda t: t.allclose(t),
 "equal": lambda t: t.equal(t),
}
import sys
only = sys.argv[1:]
for name, f in calls.items():
    if only and name not in only: continue
    res = []
    try:
        f(fg.tensor(X))
    except Exception as e:
        print(f"{name:28s} EAGER FAIL {type(e).__name__}: {str(e)[:100]}"); continue
    for tn, run in (("jit", lambda: fg.jit(f)(fg.tensor(X))), ("vmap", lambda: fg.vmap(f)(fg.tensor(np.stack([X, X + 1]))))):
        try:
            run(); res.append(f"{tn}:ok")
        except Exception as e:
            res.append(f"{tn}:{type(e).__name__}: {str(e)[:140]}")
    print(f"{name:28s}", " | ".join(res))
