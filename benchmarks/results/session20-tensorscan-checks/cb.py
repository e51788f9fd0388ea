import numpy as np, funcgrad as fg
def check(i):
    def host(i):
        if (i < 0).any() or (i >= 3).any(): raise IndexError(f"index {i[(i<0)|(i>=3)].flat[0]} is out of bounds")
        return i
    return fg.pure_callback(host, np.zeros(i.shape, np.int64), i, vmap_method="expand_dims")
f = lambda x, i: fg.numpy.take(x, check(i))
x = np.arange(3.0)
print(fg.jit(f)(x, np.array([2, 1])))
print(fg.vmap(f, in_axes=(None, 0))(x, np.array([[2, 1], [0, 0]])))
print(fg.jit(fg.vmap(f, in_axes=(None, 0)))(x, np.array([[2, 1], [0, 0]])))
print(fg.grad(lambda x, i: fg.jit(f)(x, i).sum())(x, np.array([2, 2])))
print(fg.jit(fg.grad(lambda x, i: f(x, fg.jit(lambda i: i)(i)).sum()))(x, np.array([2, 2])))
g = lambda x: fg.numpy.take(x, check(fg.numpy.argsort(x)))
print(fg.jit(fg.grad(lambda x: (g(x) * np.arange(3.0)).sum()))(np.array([3.0, 1.0, 2.0])))
print(fg.grad(lambda x: (fg.jit(g)(x) * np.arange(3.0)).sum())(np.array([3.0, 1.0, 2.0])))
print(fg.vmap(fg.grad(lambda x: (fg.jit(g)(x) * np.arange(3.0)).sum()))(np.array([[3.0, 1.0, 2.0]])))
print(fg.jvp(lambda x: fg.jit(g)(x), (np.array([3.0, 1.0, 2.0]),), (np.ones(3),)))
try: fg.jit(f)(x, np.array([-1]))
except Exception as e: print(type(e).__name__, e)
try: fg.vmap(f, in_axes=(None, 0))(x, np.array([[2, 1], [0, 5]]))
except Exception as e: print(type(e).__name__, e)
