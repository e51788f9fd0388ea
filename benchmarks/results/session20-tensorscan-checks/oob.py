import numpy as np, funcgrad as fg
x = np.arange(3.0)
for i in (np.array([5]), np.array([-1])):
    for name, f in (("gather", lambda x, i: x[i]), ("add", lambda x, i: x.at[i].add(1.0)), ("set", lambda x, i: x.at[i].set(7.0))):
        for tn, tr in (("jit", fg.jit(f)), ("vmap", lambda x, i: fg.vmap(f, in_axes=(None, 0))(x, i[None]))):
            try: print(name, tn, i, tr(x, i))
            except Exception as e: print(name, tn, i, type(e).__name__, str(e)[:200])
