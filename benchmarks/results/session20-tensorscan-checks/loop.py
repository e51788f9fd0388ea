import numpy as np, funcgrad as fg
from funcgrad.eager.traced import TRACED_METHODS
x = np.array([[0.3, 0.5, 0.2], [0.4, 0.1, 0.7]])
skip = {"numpy", "data", "device", "requires_grad", "type", "is_inference", "size"}
for name in sorted(TRACED_METHODS):
    if name.endswith("_") or name in skip: continue
    for args in ((), (0,), (1,), (-1,), (0, True)):
        def f(t, args=args):
            attr = getattr(t, name)
            return attr(*args) if callable(attr) else attr
        try: f(fg.Tensor(x))
        except Exception: continue
        errs = []
        for tn, run in (("jit", lambda: fg.jit(f)(fg.Tensor(x))), ("vmap", lambda: fg.vmap(f)(fg.Tensor(x[None])))):
            try: run()
            except Exception as e: errs.append(f"{tn}: {type(e).__name__}: {str(e)[:110]}")
        if errs: print(f"{name}{args}:", " | ".join(errs))
        break
