import torch
T = torch.tensor
L = lambda v: torch.tensor(v, dtype=torch.int64)
cases = {
 "index_add 0d idx[0,0] src0d": lambda: T(2.0).index_add(0, L([0, 0]), T(5.0)),
 "index_add 0d idx0d src[5]": lambda: T(2.0).index_add(0, L(0), T([5.0])),
 "index_add 0d dim1": lambda: T(2.0).index_add(1, L(0), T(5.0)),
 "index_add 0d neg": lambda: T(2.0).index_add(0, L(-1), T(5.0)),
 "index_add 0d idx2d": lambda: T(2.0).index_add(0, L([[0]]), T(5.0)),
 "index_copy 0d idx[0,0]": lambda: T(2.0).index_copy(0, L([0, 0]), T(5.0)),
 "index_copy 0d neg": lambda: T(2.0).index_copy(0, L(-1), T(5.0)),
 "index_copy 0d src[5]": lambda: T(2.0).index_copy(0, L(0), T([5.0])),
 "index_fill 0d tensor value": lambda: T(2.0).index_fill(0, L(0), T(5.0)),
 "index_fill 0d [-2]": lambda: T(2.0).index_fill(0, L([-2]), 5.0),
 "index_fill 0d dim1": lambda: T(2.0).index_fill(1, L(0), 5.0),
 "scatter 0d idx[0,0] src[5,6]": lambda: T(2.0).scatter(0, L([0, 0]), T([5.0, 6.0])),
 "scatter 0d idx2d": lambda: T(2.0).scatter(0, L([[0]]), T([[5.0]])),
 "scatter 0d idx neg": lambda: T(2.0).scatter(0, L(-1), T(5.0)),
 "scatter 0d src big": lambda: T(2.0).scatter(0, L(0), T([5.0, 6.0])),
 "scatter 0d reduce add": lambda: T(2.0).scatter(0, L(0), T(5.0), reduce="add"),
 "scatter 0d reduce mult value": lambda: T(2.0).scatter(0, L(0), 3.0, reduce="multiply"),
 "scatter_add 0d idx[0,0] src0d": lambda: T(2.0).scatter_add(0, L([0, 0]), T(5.0)),
 "scatter_add 1d idx[0,1] src[5]": lambda: torch.zeros(3).scatter_add(0, L([0, 1]), T([5.0])),
 "scatter 1d idx[0,1] src[5]": lambda: torch.zeros(3).scatter(0, L([0, 1]), T([5.0])),
 "scatter_add 1d idx[0,1] src0d": lambda: torch.zeros(3).scatter_add(0, L([0, 1]), T(5.0)),
 "scatter_reduce 1d idx[0,1] src[5]": lambda: torch.zeros(3).scatter_reduce(0, L([0, 1]), T([5.0]), "sum"),
 "scatter_add 2d idx rows src small": lambda: torch.zeros(2, 3).scatter_add(1, L([[0, 1]]), T([[5.0]])),
 "scatter_reduce 0d amax idx[0,0]": lambda: T(2.0).scatter_reduce(0, L([0, 0]), T([5.0, 7.0]), "amax"),
 "scatter_reduce 0d prod noself": lambda: T(2.0).scatter_reduce(0, L([0, 0]), T([5.0, 7.0]), "prod", include_self=False),
 "gather 0d idx2d": lambda: T(2.0).gather(0, L([[0]])),
 "scatter 1d idx 2d": lambda: torch.zeros(3).scatter(0, L([[0]]), T([[5.0]])),
}
for k, f in cases.items():
    try: r = f(); print(f"{k}: {tuple(r.shape)} {r.tolist()}")
    except Exception as e: print(f"{k}: {type(e).__name__}: {str(e)[:200]}")
# gradients
x = T(2.0, requires_grad=True); s = T(5.0, requires_grad=True)
x.scatter_reduce(0, L([0]), s, "amax").backward(); print("amax grad", x.grad, s.grad)
x = T(2.0, requires_grad=True); s = T([5.0, 7.0], requires_grad=True)
x.scatter_reduce(0, L([0, 0]), s, "prod").backward(); print("prod grad", x.grad, s.grad)
x = T(2.0, requires_grad=True); s = T(5.0, requires_grad=True)
x.index_add(0, L(0), s, alpha=3).backward(); print("index_add grad", x.grad, s.grad)
x = T(2.0, requires_grad=True); s = T(5.0, requires_grad=True)
x.index_copy(0, L(0), s).backward(); print("index_copy grad", x.grad, s.grad)
x = T(2.0, requires_grad=True); s = T([5.0, 6.0], requires_grad=True)
x.scatter(0, L([0]), s).backward(); print("scatter grad", x.grad, s.grad)
x = T(2.0, requires_grad=True); s = T(5.0, requires_grad=True)
x.scatter(0, L(0), s).backward(); print("scatter0 grad", x.grad, s.grad)
x = T(2.0, requires_grad=True); s = T(5.0, requires_grad=True)
x.index_fill(0, L(0), s).backward(); print("index_fill grad", x.grad, s.grad)
