import timeit, numpy as np, funcgrad as fg
print(fg.__file__)
x = fg.tensor(np.arange(6.0).reshape(2, 3)); i = fg.tensor([[0, 1, 0], [1, 0, 1]]); r = fg.tensor([0, 1])
for name, f in (("scatter_add", lambda: x.scatter_add(1, i, x)), ("scatter", lambda: x.scatter(1, i, x)), ("index_add", lambda: x.index_add(0, r, x)),
                ("gather", lambda: x.gather(1, i)), ("cummax", lambda: x.cummax(1)), ("histc", lambda: x.histc(4)), ("div_floor", lambda: x.div(2.0, rounding_mode="floor"))):
    f()
    print(f"{name}: {min(timeit.repeat(f, number=300, repeat=5)) / 300 * 1e6:.1f} us")
