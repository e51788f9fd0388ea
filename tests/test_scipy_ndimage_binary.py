"""Binary morphology of funcgrad.scipy.ndimage against scipy.ndimage, bit for bit: random
boolean images of 1 to 3 dimensions, structures, origins, iterations (0: until nothing
changes), masks and borders; vmap and jit of them; a mask from them inside grad."""
import types

import numpy as np
import pytest
from numpy.testing import assert_array_equal

import funcgrad as fg
import funcgrad.scipy.ndimage as fnd

nd = pytest.importorskip("scipy.ndimage")

SHAPES = {1: (23,), 2: (9, 11), 3: (5, 6, 7)}


# SciPy's references take its brute-force path: its shortcut for repeated passes
# (iterations != 1, which binary_propagation and binary_fill_holes use too) corrupted the
# heap in a fuzz run (a double free at exit), which would take a test worker down; the two
# paths give the same result by definition.
def _brute(name):
    function = getattr(nd, name)
    return lambda *args, **kwargs: function(*args, **{**kwargs, "brute_force": True})


def _propagation(seed, structure=None, mask=None, output=None, border_value=0, origin=0, *,
                 axes=None):
    return nd.binary_dilation(seed, structure, -1, mask, output, border_value, origin,
                              brute_force=True, axes=axes)


def _fill_holes(x, structure=None, output=None, origin=0, *, axes=None):
    x = np.asarray(x).astype(bool)
    return ~nd.binary_dilation(np.zeros(x.shape, bool), structure, -1, ~x, output, 1, origin,
                               brute_force=True, axes=axes)


ref = types.SimpleNamespace(
    binary_erosion=_brute("binary_erosion"), binary_dilation=_brute("binary_dilation"),
    binary_opening=_brute("binary_opening"), binary_closing=_brute("binary_closing"),
    binary_propagation=_propagation, binary_fill_holes=_fill_holes,
    binary_hit_or_miss=nd.binary_hit_or_miss)


def _image(rng, shape, density=0.6):
    return rng.random(shape) < density


def _structures(rng, ndim):
    """Default (None), the cross, the box, and a random one with an even extent."""
    random = rng.random((2,) + (3,) * (ndim - 1)) < 0.6
    random.flat[0] = True
    return [None, nd.generate_binary_structure(ndim, 1),
            nd.generate_binary_structure(ndim, ndim), random]


def _origins(structure, ndim):
    shape = (3,) * ndim if structure is None else structure.shape
    low = tuple(-(s // 2) for s in shape)
    high = tuple((s - 1) // 2 for s in shape)
    return [0, low, high]


def _centre_set(structure, origin, ndim):
    structure = nd.generate_binary_structure(ndim, 1) if structure is None else structure
    origin = (origin,) * ndim if np.isscalar(origin) else origin
    return bool(structure[tuple(s // 2 + o for s, o in zip(structure.shape, origin))])


@pytest.mark.parametrize("ndim", [1, 2, 3])
@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation", "binary_opening",
                                  "binary_closing"])
def test_matches_scipy_over_structures_origins_iterations_masks_borders(name, ndim):
    rng = np.random.default_rng(ndim * 10 + len(name))
    ours, theirs = getattr(fnd, name), getattr(ref, name)
    checked = 0
    for structure in _structures(rng, ndim):
        for origin in _origins(structure, ndim):
            for iterations in (1, 2, 0):
                for border_value in (0, 1):
                    x = _image(rng, SHAPES[ndim])
                    mask = None if rng.random() < 0.5 else _image(rng, SHAPES[ndim], 0.7)
                    kwargs = dict(structure=structure, iterations=iterations, mask=mask,
                                  border_value=border_value, origin=origin)
                    if iterations == 0 and not _centre_set(structure, origin, ndim):
                        with pytest.raises(ValueError, match="centre"):
                            ours(x, **kwargs)  # (SciPy's loop can run for ever here)
                        continue
                    got = ours(x, **kwargs)
                    assert got.dtype == np.bool_
                    assert_array_equal(got, theirs(x, **kwargs), err_msg=str(kwargs))
                    checked += 1
    assert checked >= 4 * 3 * 2 * 2


@pytest.mark.parametrize("name", ["binary_erosion", "binary_dilation"])
def test_many_iterations_and_brute_force_match_scipy(name):
    rng = np.random.default_rng(5)
    x = _image(rng, (15, 16), 0.75 if name == "binary_erosion" else 0.1)
    mask = _image(rng, (15, 16), 0.8)
    for iterations in (3, 5, -1):
        for brute_force in (False, True):
            kwargs = dict(iterations=iterations, mask=mask, brute_force=brute_force)
            assert_array_equal(getattr(fnd, name)(x, **kwargs),
                               getattr(ref, name)(x, **kwargs))


def test_non_boolean_input_counts_nonzero_as_set():
    x = np.array([[0.5, -2.0, 0.0, 3.0], [1.0, 1.0, 1.0, np.nan], [0.0, 7.0, 2.0, 1.0]])
    for name in ["binary_erosion", "binary_dilation", "binary_fill_holes",
                 "binary_hit_or_miss", "binary_propagation"]:
        assert_array_equal(getattr(fnd, name)(x), getattr(ref, name)(x), err_msg=name)
    ints = (x[:, :3] * 2).astype(np.int64)
    assert_array_equal(fnd.binary_closing(ints), ref.binary_closing(ints))


@pytest.mark.parametrize("ndim", [1, 2, 3])
def test_propagation_fill_holes_hit_or_miss_match_scipy(ndim):
    rng = np.random.default_rng(100 + ndim)
    for structure in _structures(rng, ndim):
        for origin in _origins(structure, ndim):
            x = _image(rng, SHAPES[ndim], 0.55)
            seed = _image(rng, SHAPES[ndim], 0.05)
            assert_array_equal(fnd.binary_hit_or_miss(x, structure, origin1=origin),
                               nd.binary_hit_or_miss(x, structure, origin1=origin))
            if not _centre_set(structure, origin, ndim):
                continue  # (propagation and filling run until stable: see the errors test)
            for border_value in (0, 1):
                kwargs = dict(structure=structure, origin=origin, border_value=border_value)
                assert_array_equal(fnd.binary_propagation(seed, mask=x, **kwargs),
                                   _propagation(seed, mask=x, **kwargs),
                                   err_msg=str(kwargs))
            assert_array_equal(fnd.binary_fill_holes(x, structure, origin=origin),
                               _fill_holes(x, structure, origin=origin))
    s1 = nd.generate_binary_structure(ndim, 1)
    s2 = ~nd.generate_binary_structure(ndim, ndim)
    s2.flat[0] = True
    x = _image(rng, SHAPES[ndim], 0.5)
    high = (1,) * ndim
    for origin2 in (None, 0, high):
        assert_array_equal(fnd.binary_hit_or_miss(x, s1, s2, origin2=origin2),
                           nd.binary_hit_or_miss(x, s1, s2, origin2=origin2))


def test_fill_holes_fills_an_enclosed_hole_only():
    x = np.zeros((7, 7), bool)
    x[1:6, 1:6] = True
    x[3, 3] = False  # enclosed: a hole
    x[1, 2] = False  # a notch open to the background outside the square: not a hole
    filled = fnd.binary_fill_holes(x)
    assert filled[3, 3] and not filled[1, 2]
    assert_array_equal(filled, _fill_holes(x))


def test_axes_match_scipy():
    rng = np.random.default_rng(7)
    x = _image(rng, (6, 7, 8))
    structure = rng.random((2, 3)) < 0.7
    structure[0, 0] = True
    # (origins follow the axes as given; SciPy's dilation pairs them with the structure's
    # dimensions, so for unsorted axes only some origins are valid in both)
    for axes, origin in [((0, 2), (0, -1)), ((2, 0), (-1, 0)), ((1,), -1)]:
        s = structure if len(axes) == 2 else structure[0]
        for name in ["binary_erosion", "binary_dilation", "binary_opening",
                     "binary_closing"]:
            assert_array_equal(getattr(fnd, name)(x, s, origin=origin, axes=axes),
                               getattr(nd, name)(x, s, origin=origin, axes=axes),
                               err_msg=f"{name} {axes}")
        assert_array_equal(fnd.binary_erosion(x, axes=axes), ref.binary_erosion(x, axes=axes))
        assert_array_equal(fnd.binary_fill_holes(x, axes=axes),
                           ref.binary_fill_holes(x, axes=axes))
        assert_array_equal(fnd.binary_hit_or_miss(x, axes=axes),
                           nd.binary_hit_or_miss(x, axes=axes))


def test_structure_helpers_match_scipy():
    for rank in range(0, 4):
        for connectivity in range(0, 5):
            assert_array_equal(fnd.generate_binary_structure(rank, connectivity),
                               nd.generate_binary_structure(rank, connectivity))
    for structure in [nd.generate_binary_structure(2, 1), np.array([[1, 0], [1, 1]]),
                      nd.generate_binary_structure(3, 2)]:
        for iterations in (1, 2, 3):
            assert_array_equal(fnd.iterate_structure(structure, iterations),
                               nd.iterate_structure(structure, iterations))
        grown, origin = fnd.iterate_structure(structure, 3, origin=-1)
        want, want_origin = nd.iterate_structure(structure, 3, origin=-1)
        assert_array_equal(grown, want)
        assert origin == want_origin


def test_empty_and_zero_dimensional_inputs_and_empty_structure():
    for x in [np.zeros((0, 4), bool), np.array(True), np.array(False)]:
        for name in ["binary_erosion", "binary_dilation", "binary_fill_holes"]:
            assert_array_equal(getattr(fnd, name)(x), getattr(ref, name)(x))
    x = np.array([0, 1, 1, 0, 1], bool)
    mask = np.array([1, 1, 0, 0, 1], bool)
    for name in ["binary_erosion", "binary_dilation"]:
        assert_array_equal(getattr(fnd, name)(x, [0, 0, 0], mask=mask),
                           getattr(nd, name)(x, [0, 0, 0], mask=mask))


def test_output_dtype_is_ignored_and_an_output_array_is_filled():
    x = np.array([0, 1, 1, 1, 0, 1, 1], bool)
    assert fnd.binary_erosion(x, output=np.float64).dtype == ref.binary_erosion(
        x, output=np.float64).dtype == np.bool_
    out = np.full(7, 5.0, np.float32)
    returned = fnd.binary_dilation(x, output=out)
    assert returned is out
    assert_array_equal(out, ref.binary_dilation(x).astype(np.float32))
    out = np.zeros(7, bool)
    assert fnd.binary_hit_or_miss(x, output=out) is out
    assert_array_equal(out, nd.binary_hit_or_miss(x))
    with pytest.raises(TypeError, match="complex"):
        fnd.binary_erosion(x, output=np.zeros(7, complex))
    with pytest.raises(TypeError, match="output must be None"):
        fnd.binary_erosion(x, output="not a dtype")
    with pytest.raises(TypeError, match="traced"):
        fg.jit(lambda v: fnd.binary_erosion(v, output=np.zeros(7, bool)))(x)


def test_bad_arguments_raise_clear_errors():
    x = np.array([0, 1, 1, 1, 0, 1, 1], bool)
    with pytest.raises(ValueError, match="invalid origin"):
        fnd.binary_erosion(x, origin=-2)  # (SciPy reads outside the structure here)
    with pytest.raises(ValueError, match="invalid origin"):
        fnd.binary_dilation(x, origin=2)
    with pytest.raises(RuntimeError, match="mask"):
        fnd.binary_erosion(x, mask=np.ones(6, bool))
    with pytest.raises(ValueError, match="centre"):  # (SciPy never returns from this one)
        fnd.binary_dilation(x, [1, 0, 1], iterations=0)
    with pytest.raises(ValueError, match="centre"):
        fnd.binary_propagation(x, [1, 1, 0], origin=1)
    with pytest.raises(TypeError, match="iterations"):
        fnd.binary_erosion(x, iterations=1.0)
    with pytest.raises(TypeError, match="complex"):
        fnd.binary_erosion(x.astype(complex))
    with pytest.raises(RuntimeError, match="empty"):
        fnd.binary_erosion(x, structure=np.zeros(0, bool))
    with pytest.raises(RuntimeError, match="dimensions"):
        fnd.binary_dilation(x, structure=np.ones((3, 3), bool))
    with pytest.raises(RuntimeError, match="dimensions"):
        fnd.binary_erosion(x, structure=np.ones((3, 3), bool))
    with pytest.raises(fg.ConcretizationError, match="structure"):
        fg.jit(lambda s: fnd.binary_erosion(x, s))(np.ones(3, bool))


def test_vmap_equals_scipy_per_example():
    rng = np.random.default_rng(11)
    xs = _image(rng, (4, 8, 9), 0.6)
    masks = _image(rng, (4, 8, 9), 0.7)
    box = nd.generate_binary_structure(2, 2)
    cases = [
        (lambda x, m: fnd.binary_erosion(x, box, 2, mask=m, border_value=1),
         lambda x, m: ref.binary_erosion(x, box, 2, mask=m, border_value=1)),
        (lambda x, m: fnd.binary_dilation(x, iterations=0, mask=m, origin=(0, -1)),
         lambda x, m: ref.binary_dilation(x, iterations=0, mask=m, origin=(0, -1))),
        (lambda x, m: fnd.binary_opening(x, box, mask=m),
         lambda x, m: ref.binary_opening(x, box, mask=m)),
        (lambda x, m: fnd.binary_propagation(x & ~m, mask=m),
         lambda x, m: ref.binary_propagation(x & ~m, mask=m)),
        (lambda x, m: fnd.binary_fill_holes(x), lambda x, m: ref.binary_fill_holes(x)),
        (lambda x, m: fnd.binary_hit_or_miss(x, box, ~box),
         lambda x, m: nd.binary_hit_or_miss(x, box, ~box)),
    ]
    for ours, theirs in cases:
        got = fg.vmap(ours)(xs, masks)
        assert_array_equal(got, np.stack([theirs(x, m) for x, m in zip(xs, masks)]))


def test_vmap_of_until_stable_runs_each_example_to_its_own_fixed_point():
    # one example needs many more passes than the other: the batched loop must freeze
    # the finished one, not stop early or overshoot
    xs = np.zeros((2, 30), bool)
    xs[0, 0] = True
    xs[1, 14:16] = True
    got = fg.vmap(lambda x: fnd.binary_dilation(x, iterations=0))(xs)
    assert_array_equal(got, np.stack([ref.binary_dilation(x, iterations=0) for x in xs]))
    masks = np.ones((2, 30), bool)
    masks[0, 10] = False
    got = fg.vmap(lambda x, m: fnd.binary_propagation(x, mask=m))(xs, masks)
    assert_array_equal(got, np.stack([ref.binary_propagation(x, mask=m)
                                      for x, m in zip(xs, masks)]))


def test_jit_equals_scipy():
    rng = np.random.default_rng(12)
    x = _image(rng, (10, 12), 0.6)
    mask = _image(rng, (10, 12), 0.7)
    s = np.array([[1, 1, 0], [0, 1, 1]], bool)
    cases = [
        (lambda v, m: fnd.binary_closing(v, s, 2, origin=(0, 1), mask=m, border_value=1),
         lambda v, m: ref.binary_closing(v, s, 2, origin=(0, 1), mask=m, border_value=1)),
        (lambda v, m: fnd.binary_erosion(v, iterations=0, mask=m),
         lambda v, m: ref.binary_erosion(v, iterations=0, mask=m)),
        (lambda v, m: fnd.binary_fill_holes(v), lambda v, m: ref.binary_fill_holes(v)),
        (lambda v, m: fnd.binary_propagation(v & ~m, mask=m),
         lambda v, m: ref.binary_propagation(v & ~m, mask=m)),
    ]
    for ours, theirs in cases:
        assert_array_equal(fg.jit(ours)(x, mask), theirs(x, mask))


def _masked_energy(v):
    # a float function gated by a binary mask made from the same input
    keep = fnd.binary_opening(v > 0.3, iterations=1)
    grown = fnd.binary_dilation(keep, iterations=0, mask=v > 0.1)
    return fg.numpy.sum(fg.numpy.where(grown, v ** 2, 0.0)) + fg.numpy.sum(keep * v)


def test_grad_through_a_mask_treats_it_as_a_constant():
    rng = np.random.default_rng(13)
    v = rng.random((7, 8))
    keep = ref.binary_opening(v > 0.3)
    grown = ref.binary_dilation(keep, iterations=0, mask=v > 0.1)
    expected = np.where(grown, 2 * v, 0.0) + keep
    assert_array_equal(fg.grad(_masked_energy)(v), expected)
    np.testing.assert_allclose(fg.jit(fg.grad(_masked_energy))(v), expected, rtol=1e-15)
    np.testing.assert_allclose(fg.vmap(fg.grad(_masked_energy))(np.stack([v, v[::-1]])),
                               np.stack([expected, fg.grad(_masked_energy)(v[::-1])]),
                               rtol=1e-15)
