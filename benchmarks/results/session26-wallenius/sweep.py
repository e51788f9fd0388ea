import sys, time, numpy as np
sys.path.insert(0, __import__("os").path.dirname(__file__))
from ref import exact
import funcgrad as fg, funcgrad.scipy.stats as fst
from funcgrad.scipy._statsrest_wallenius import _log_integral
from scipy.special import gammaln
d = fst.nchypergeom_wallenius
import os
cases = eval(os.environ.get("CASES", "[(20, 8, 6), (140, 80, 60), (30, 25, 10), (30, 5, 28), (50, 10, 45), (12, 6, 12), (400, 150, 200)]"))
odds = eval(os.environ.get("ODDS", "[1e-3, 0.05, 0.5, 1.0, 2.0, 20.0, 1e3]"))
def lcomb(a, b): return gammaln(a + 1) - gammaln(b + 1) - gammaln(a - b + 1)
W = {"scipy": 0, "ours": 0, "d": 0}
t0 = time.time()
for M, n, N in cases:
    lo, hi = max(0, N - (M - n)), min(n, N)
    ks = sorted(set([lo, lo + 1, (lo + hi) // 2, hi - 1, hi]) & set(range(lo, hi + 1)))
    for w in odds:
        ks_arr = np.array(ks, float)
        v = np.asarray(d.logpmf(ks_arr, M, n, N, w))
        ours = np.asarray(_log_integral(ks_arr, M, n, N, w)) + lcomb(n, ks_arr) + lcomb(M - n, N - ks_arr)
        g = np.asarray(fg.jacfwd(lambda o: d.logpmf(ks_arr, M, n, N, o))(w))
        for k, vv, oo, gg in zip(ks, v, ours, g):
            ev, e1, e2 = map(float, exact(k, M, n, N, w))
            r = {"scipy": abs(vv - ev) / max(abs(ev), 1), "ours": abs(oo - ev) / max(abs(ev), 1),
                 "d": abs(gg - e1) / max(abs(e1), 1e-300)}
            if max(r.values()) > 1e-10:
                print("BAD", (k, M, n, N, w), f"scipy {vv:.15g} ours {oo:.15g} true {ev:.15g} d {gg:.12g} true {e1:.12g}",
                      {a: f"{b:.1e}" for a, b in r.items()})
            for key in W: W[key] = max(W[key], r[key] if np.isfinite(r[key]) else 1)
print(W, time.time() - t0)
