"""funcgrad.scipy.spatial.transform's RigidTransform and Rotation's powers and
approx_equal: SciPy's values, derivatives against central differences (at the identity
too, where the exponential coordinates switch to their series)."""
import numpy as np
import pytest

scipy_transform = pytest.importorskip("scipy.spatial.transform")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
from funcgrad.scipy.spatial.transform import RigidTransform, Rotation  # noqa: E402
from helpers import check_jvp_fd  # noqa: E402

RNG = np.random.default_rng(7)
ST = getattr(scipy_transform, "RigidTransform", None)
needs_scipy_rigid = pytest.mark.skipif(ST is None, reason="SciPy < 1.16 has no RigidTransform")


def close(a, b, atol=1e-13):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=0, atol=atol)


def _exp_coords():
    e = RNG.normal(size=(5, 6))
    e[0, :3] = 1e-5  # (below the series' switch)
    e[1, :3] = 0.0
    return e


@needs_scipy_rigid
def test_constructors_and_conversions_are_scipys():
    e = _exp_coords()
    ours, theirs = RigidTransform.from_exp_coords(e), ST.from_exp_coords(e)
    close(ours.as_matrix(), theirs.as_matrix())
    close(ours.as_exp_coords(), theirs.as_exp_coords())
    for first in (False, True):
        close(ours.as_dual_quat(scalar_first=first), theirs.as_dual_quat(scalar_first=first))
        dq = RNG.normal(size=(5, 8))
        close(RigidTransform.from_dual_quat(dq, scalar_first=first).as_matrix(),
              ST.from_dual_quat(dq, scalar_first=first).as_matrix())
    m = theirs.as_matrix()
    m[:, :3, :3] += 1e-3 * RNG.normal(size=(5, 3, 3))  # (made orthonormal, as SciPy)
    close(RigidTransform.from_matrix(m).as_matrix(), ST.from_matrix(m).as_matrix())
    t, q = RNG.normal(size=(5, 3)), RNG.normal(size=(5, 4))
    close(RigidTransform.from_components(t, Rotation.from_quat(q)).as_matrix(),
          ST.from_components(t, scipy_transform.Rotation.from_quat(q)).as_matrix())
    close(RigidTransform.from_translation(t[0]).as_matrix(), ST.from_translation(t[0]).as_matrix())
    translation, rotation = ours.as_components()
    close(translation, theirs.translation)
    close(rotation.as_quat(), theirs.rotation.as_quat())
    assert ours.shape == (5,) and len(ours) == 5 and not ours.single and ours[2].single
    with pytest.raises(ValueError, match="last row"):
        RigidTransform.from_matrix(np.ones((4, 4)))
    with pytest.raises(TypeError, match="no len"):
        len(ours[0])


@needs_scipy_rigid
def test_action_composition_powers_and_mean_are_scipys():
    e = _exp_coords()
    ours, theirs = RigidTransform.from_exp_coords(e), ST.from_exp_coords(e)
    v = RNG.normal(size=(5, 3))
    for inverse in (False, True):
        close(ours.apply(v, inverse=inverse), theirs.apply(v, inverse=inverse))
        close(ours[1].apply(v, inverse=inverse), theirs[1].apply(v, inverse=inverse))
    close((ours * ours.inv()).as_matrix(), np.broadcast_to(np.eye(4), (5, 4, 4)))
    close((ours[0] * ours).as_matrix(), (theirs[0] * theirs).as_matrix())
    # (0.5, 2.5: SciPy's own power rounds other exponents to float32 on the way)
    for n in (0, 1, -1, 0.5, 2.5, -2):
        close((ours ** n).as_matrix(), (theirs ** n).as_matrix(), 1e-12)
    w = np.arange(1.0, 6.0)
    close(ours.mean(w).as_matrix(), theirs.mean(w).as_matrix(), 1e-12)
    close(ours.mean().as_matrix(), theirs.mean().as_matrix(), 1e-12)
    close(RigidTransform.concatenate([ours[:2], ours[3]]).as_matrix(),
          ST.concatenate([theirs[:2], theirs[3]]).as_matrix())
    close(RigidTransform.identity(3).as_matrix(), ST.identity(3).as_matrix())


@pytest.mark.parametrize("where", ["identity", "near", "general"])
def test_exponential_coordinates_differentiate_at_and_off_the_identity(where):
    x0 = {"identity": np.zeros(6), "near": np.array([1e-4, -2e-4, 0.0, 1.0, 2.0, 3.0]),
          "general": np.array([0.5, -0.3, 0.2, 1.0, 2.0, 3.0])}[where]
    v = np.array([0.3, -1.0, 2.0])

    def f(x):
        tf = RigidTransform.from_exp_coords(x)
        return fnp.sum(tf.as_exp_coords() * np.arange(1.0, 7.0)) + fnp.sum(tf.apply(v) ** 2) \
            + fnp.sum(tf.as_dual_quat() * np.arange(8.0))
    g = fg.grad(f)(x0)
    assert np.all(np.isfinite(g))
    fd = np.array([(f(x0 + h) - f(x0 - h)) / 2e-6 for h in np.eye(6) * 1e-6])
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-6)


def test_rigid_transforms_jvp_and_vjp_agree_with_differences():
    top = RigidTransform.from_exp_coords(np.array([0.4, 0.1, -0.7, 1.0, -2.0, 0.5])
                                         ).as_matrix()[:3]
    v = RNG.normal(size=(4, 3))
    bottom = np.array([[0.0, 0.0, 0.0, 1.0]])
    check_jvp_fd(lambda a, b: RigidTransform(fnp.concatenate([a, bottom])).apply(
        b, inverse=True), [top, v], RNG)
    check_jvp_fd(lambda d: RigidTransform.from_dual_quat(d).as_matrix(), [RNG.normal(size=8)],
                 RNG)
    check_jvp_fd(lambda e: (RigidTransform.from_exp_coords(e) ** 0.7).as_matrix(),
                 [np.array([0.4, 0.1, -0.7, 1.0, -2.0, 0.5])], RNG)


def test_rotation_from_matrix_takes_the_nearest_rotation_as_scipy_and_its_slope():
    """A matrix off the rotations: SciPy's quaternion (its polar factor's); the gradient
    in the matrix is the one of SciPy's function (central differences of SciPy's values
    leave the rotations, where SciPy orthogonalizes), a left-handed one raises."""
    m = scipy_transform.Rotation.from_rotvec([0.4, -0.8, 1.1]).as_matrix()
    off = m + 1e-3 * RNG.normal(size=(3, 3))
    for a in (m, off, np.stack([m, off])):
        close(Rotation.from_matrix(a).as_quat(), scipy_transform.Rotation.from_matrix(a).as_quat())
    w = np.array([1.0, 2.0, 3.0, 4.0])
    g = fg.grad(lambda a: fnp.sum(Rotation.from_matrix(a).as_quat() * w))(m)
    theirs = lambda a: float(np.sum(scipy_transform.Rotation.from_matrix(a).as_quat() * w))
    fd = np.array([(theirs(m + h) - theirs(m - h)) / 2e-6
                   for h in np.eye(9).reshape(9, 3, 3) * 1e-6]).reshape(3, 3)
    np.testing.assert_allclose(g, fd, atol=1e-8)
    with pytest.raises(ValueError, match="Non-positive determinant"):
        Rotation.from_matrix(-m)


def test_rotation_power_and_approx_equal_are_scipys():
    rv = RNG.normal(size=(4, 3))
    ours, theirs = Rotation.from_rotvec(rv), scipy_transform.Rotation.from_rotvec(rv)
    for n in (0, 1, -1, 0.5, 2.5):
        close((ours ** n).as_quat(), (theirs ** n).as_quat(), 1e-12)
    near = Rotation.from_rotvec(rv + np.array([1e-9, 0.0, 0.0]))
    np.testing.assert_array_equal(ours.approx_equal(near), [True] * 4)
    np.testing.assert_array_equal(ours.approx_equal(near, atol=1e-12), [False] * 4)
    np.testing.assert_array_equal(ours.approx_equal(ours ** 1.001, atol=1.0, degrees=True),
                                  theirs.approx_equal(theirs ** 1.001, atol=1.0, degrees=True))
    assert ours.shape == (4,) and ours[0].shape == ()
    f = lambda s: fnp.sum((Rotation.from_rotvec(np.array([0.3, -0.2, 0.9])) ** s).as_rotvec())
    g = fg.grad(f)(1.7)
    np.testing.assert_allclose(g, (f(1.7 + 1e-6) - f(1.7 - 1e-6)) / 2e-6, rtol=1e-7)


def test_align_vectors_is_scipys_and_differentiates_as_scipys_function():
    """Kabsch (weights, sensitivity), one infinite weight, one pair, antiparallel and
    parallel pairs: SciPy's rotation and rssd; the gradient in ``a`` matches central
    differences of SciPy's own results."""
    SR = scipy_transform.Rotation
    a = RNG.normal(size=(6, 3))
    b = SR.from_rotvec([0.3, -1.2, 0.5]).apply(a) + 0.01 * RNG.normal(size=(6, 3))
    w = RNG.uniform(0.5, 2.0, 6)
    cases = [(a, b), (a, b, w), (a, b, np.r_[np.inf, w[1:]]), (a[:1], b[:1]), (a[0], b[0]),
             (np.array([1.0, 0, 0]), np.array([-1.0, 0, 0])),
             (np.array([1.0, 1e-5, 0]), np.array([-1.0, 0, 0])),
             (np.array([1.0, 2, 3]), np.array([1.0, 2, 3]))]
    for args in cases:
        ours, theirs = Rotation.align_vectors(*args), SR.align_vectors(*args)
        close(ours[0].as_quat(), theirs[0].as_quat())
        close(ours[1], theirs[1], 1e-12)
    ours = Rotation.align_vectors(a, b, w, return_sensitivity=True)
    close(ours[2], SR.align_vectors(a, b, w, return_sensitivity=True)[2])
    weights = np.arange(1.0, 5.0)
    for args in cases[1:4]:
        def f(x):
            r, rssd = Rotation.align_vectors(x, *args[1:])
            return fnp.sum(r.as_quat() * weights) + rssd

        def theirs(x):
            r, rssd = SR.align_vectors(x, *args[1:])
            return float(np.sum(r.as_quat() * weights) + rssd)
        x0 = args[0]
        steps = np.eye(x0.size).reshape((-1,) + x0.shape) * 1e-6
        fd = np.array([(theirs(x0 + h) - theirs(x0 - h)) / 2e-6 for h in steps])
        np.testing.assert_allclose(fg.grad(f)(x0), fd.reshape(x0.shape), atol=1e-6)
    with pytest.raises(ValueError, match="infinite weight"):
        Rotation.align_vectors(a, b, np.r_[np.inf, np.inf, w[2:]])
    with pytest.raises(ValueError, match="zero length primary"):
        Rotation.align_vectors(np.zeros(3), np.ones(3))


def test_rotation_spline_is_scipys_and_differentiates_in_rotations_and_times():
    """Rotations, angular rates and accelerations at and between the knots and beyond
    them (the end cubics continue), SciPy's; gradients in the Euler angles and the knot
    times against central differences of SciPy's spline."""
    from funcgrad.scipy.spatial.transform import RotationSpline
    SR, SRS = scipy_transform.Rotation, scipy_transform.RotationSpline
    times = np.array([0.0, 10.0, 20.0, 40.0])
    angles = np.array([[-10, 20, 30], [0, 15, 40], [-30, 45, 30], [20, 45, 90.0]])
    ours = RotationSpline(times, Rotation.from_euler("XYZ", angles, degrees=True))
    theirs = SRS(times, SR.from_euler("XYZ", angles, degrees=True))
    at = np.linspace(-5.0, 45.0, 11)
    close(ours(at).as_quat(), theirs(at).as_quat())
    close(ours(at, 1), theirs(at, 1))
    close(ours(at, 2), theirs(at, 2))
    close(ours(7.0).as_quat(), theirs(7.0).as_quat())
    two = RotationSpline(times[:2], Rotation.from_euler("XYZ", angles[:2], degrees=True))
    close(two(at / 4, 1), SRS(times[:2], SR.from_euler("XYZ", angles[:2], degrees=True))(at / 4, 1))

    at = at + 0.37  # (off the knots: moving a knot through a query point is a kink)

    def ours_f(ang, t):
        s = RotationSpline(t, Rotation.from_euler("XYZ", ang, degrees=True))
        return fnp.sum(s(at).as_quat() * np.arange(4.0)) + fnp.sum(s(at, 1) ** 2) + fnp.sum(s(at, 2))

    def theirs_f(ang, t):
        s = SRS(t, SR.from_euler("XYZ", ang, degrees=True))
        return float(np.sum(s(at).as_quat() * np.arange(4.0)) + np.sum(s(at, 1) ** 2)
                     + np.sum(s(at, 2)))
    g_ang, g_t = fg.grad(ours_f, argnums=(0, 1))(angles, times)
    fd_ang = np.array([(theirs_f(angles + h, times) - theirs_f(angles - h, times)) / 2e-5
                       for h in np.eye(12).reshape(12, 4, 3) * 1e-5]).reshape(4, 3)
    fd_t = np.array([(theirs_f(angles, times + h) - theirs_f(angles, times - h)) / 2e-6
                     for h in np.eye(4) * 1e-6])
    np.testing.assert_allclose(g_ang, fd_ang, atol=1e-7)
    np.testing.assert_allclose(g_t, fd_t, atol=1e-7)
    with pytest.raises(ValueError, match="strictly increasing"):
        RotationSpline(times[::-1], Rotation.from_euler("XYZ", angles, degrees=True))


def test_davenport_angles_groups_and_reduce_are_scipys():
    """from/as_davenport about oblique axes (each orthogonal to the next; first and last
    at any angle), extrinsic and intrinsic, with SciPy's gimbal-lock rule and warning;
    create_group and reduce (SciPy's choice among group elements, the product
    differentiable)."""
    SR = scipy_transform.Rotation
    basis = np.linalg.qr(RNG.normal(size=(3, 3)))[0].T
    oblique = np.array([basis[0], basis[1], (basis[0] + basis[2]) / np.sqrt(2)])
    angles = RNG.uniform(-1.0, 1.0, (5, 3))
    q = RNG.normal(size=(5, 4))
    for axes in (basis, oblique, np.eye(3)[[2, 0, 2]]):
        for order in ("e", "i"):
            close(Rotation.from_davenport(axes, order, angles).as_quat(),
                  SR.from_davenport(axes, order, angles).as_quat())
            close(Rotation.from_quat(q).as_davenport(axes, order),
                  SR.from_quat(q).as_davenport(axes, order), 1e-12)
    locked = [0.3, np.pi / 2, 0.1]
    with pytest.warns(UserWarning, match="Gimbal lock"):
        ours = Rotation.from_euler("xyz", locked).as_davenport(np.eye(3), "e")
    with pytest.warns(UserWarning, match="Gimbal lock"):
        close(ours, SR.from_euler("xyz", locked).as_davenport(np.eye(3), "e"), 1e-12)
    with pytest.raises(ValueError, match="orthogonal"):
        Rotation.from_davenport(np.ones((3, 3)), "e", angles)
    f = lambda x: fnp.sum(Rotation.from_quat(x).as_davenport(oblique, "i") * np.arange(1.0, 4.0))
    theirs = lambda x: float(np.sum(SR.from_quat(x).as_davenport(oblique, "i") * np.arange(1.0, 4.0)))
    fd = np.array([(theirs(q[0] + h) - theirs(q[0] - h)) / 2e-6 for h in np.eye(4) * 1e-6])
    np.testing.assert_allclose(fg.grad(f)(q[0]), fd, atol=1e-7)
    for left, right in (("O", None), ("C4", "D3"), ("I", "I")):
        ours = Rotation.from_quat(q).reduce(left and Rotation.create_group(left),
                                            right and Rotation.create_group(right), True)
        theirs = SR.from_quat(q).reduce(left and SR.create_group(left),
                                        right and SR.create_group(right), True)
        close(ours[0].as_quat(), theirs[0].as_quat())
        for mine, scipys in zip(ours[1:], theirs[1:]):
            assert (mine is None and scipys is None) or np.array_equal(mine, scipys)
    group = Rotation.create_group("O")
    g = fg.grad(lambda x: fnp.sum(Rotation.from_quat(x).reduce(group).as_quat() * np.arange(4.0)))(q[1])
    fd = np.array([(np.sum(SR.from_quat(q[1] + h).reduce(SR.create_group("O")).as_quat()
                           * np.arange(4.0)) - np.sum(SR.from_quat(q[1] - h).reduce(
                               SR.create_group("O")).as_quat() * np.arange(4.0))) / 2e-6
                   for h in np.eye(4) * 1e-6])
    np.testing.assert_allclose(g, fd, atol=1e-7)
