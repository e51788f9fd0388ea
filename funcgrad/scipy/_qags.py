"""QUADPACK's QAGS, the algorithm behind ``scipy.integrate.quad`` on a finite range:
21-point Gauss-Kronrod with QUADPACK's rescaled error estimate, bisection of the interval
of largest error, and Wynn's epsilon algorithm extrapolating the sequence of sums once the
error sits in ever smaller intervals -- which is what reaches integrable endpoint
singularities (``1/sqrt(x)``, ``log(x)``) to machine precision in a few dozen intervals
(de Doncker's dqagse and dqelg, Piessens et al., "QUADPACK", 1983).

Runs on concrete floats: ``f`` maps a float to a float.
"""
import numpy as np

_EPS = np.finfo(float).eps
_TINY = np.finfo(float).tiny
_HUGE = np.finfo(float).max

_XK = (0.995657163025808080735527280689003, 0.973906528517171720077964012084452,
       0.930157491355708226001207180059508, 0.865063366688984510732096688423493,
       0.780817726586416897063717578345042, 0.679409568299024406234327365114874,
       0.562757134668604683339000099272694, 0.433395394129247190799265943165784,
       0.294392862701460198131126603103866, 0.148874338981631210884826001129720)
_WK = (0.011694638867371874278064396062192, 0.032558162307964727478818972459390,
       0.054755896574351996031381300244580, 0.075039674810919952767043140916190,
       0.093125454583697605535065465083366, 0.109387158802297641899210590325805,
       0.123491976262065851077958109831074, 0.134709217311473325928054001771707,
       0.142775938577060080797094273138717, 0.147739104901338491374841515972068)
_WK_CENTER = 0.149445554002916905664936468389821
_WG = (0.066671344308688137593568809893332, 0.149451349150580593145776339657697,
       0.219086362515982043995534934228163, 0.269266719309996355091226921569469,
       0.295524224714752870173892994651338)  # (at the nodes _XK[1], _XK[3], ...)

MESSAGES = {
    1: "the maximum number of subdivisions (limit={limit}) has been achieved; raise limit=, "
       "or split the range at difficult points with points=",
    2: "roundoff error prevents the requested tolerance from being achieved; the error "
       "may be underestimated",
    3: "extremely bad integrand behaviour occurs at some points of the range",
    4: "the extrapolation does not converge (roundoff in its table); the result is the "
       "best that can be obtained",
    5: "the integral is probably divergent, or slowly convergent"}


def _gk21(f, a, b):
    """``(integral, error, |f| integral, |f - mean| integral)`` on ``[a, b]``, the error
    rescaled as QUADPACK's (pessimistic where the rule is unresolved, and never below
    the rounding of the sum)."""
    center, half = 0.5 * (a + b), 0.5 * (b - a)
    f_center = f(center)
    pairs = [(f(center - half * x), f(center + half * x)) for x in _XK]
    kronrod = _WK_CENTER * f_center + sum(w * (lo + hi) for w, (lo, hi) in zip(_WK, pairs))
    gauss = sum(w * (lo + hi) for w, (lo, hi) in zip(_WG, pairs[1::2]))
    absolute = _WK_CENTER * abs(f_center) + sum(
        w * (abs(lo) + abs(hi)) for w, (lo, hi) in zip(_WK, pairs))
    mean = 0.5 * kronrod
    spread = _WK_CENTER * abs(f_center - mean) + sum(
        w * (abs(lo - mean) + abs(hi - mean)) for w, (lo, hi) in zip(_WK, pairs))
    result, absolute, spread = kronrod * half, absolute * abs(half), spread * abs(half)
    error = abs((kronrod - gauss) * half)
    if spread != 0 and error != 0:
        error = spread * min(1.0, (200 * error / spread) ** 1.5)
    if absolute > _TINY / (50 * _EPS):
        error = max(50 * _EPS * absolute, error)
    return result, error, absolute, spread


class _Epsilon:
    """Wynn's epsilon algorithm on the sequence of partial sums (dqelg): ``add`` a sum,
    get ``(extrapolated, error)``; the table keeps its last 50 entries."""

    def __init__(self, first):
        self.table = [first] + [0.0] * 52
        self.n = 1  # (entries in use)
        self.last3 = []  # (the last three extrapolations, for the error estimate)

    def add(self, value):
        t = self.table
        self.n += 1
        n = self.n
        t[n - 1] = value
        result, error = value, _HUGE
        if n < 3:
            return result, max(error, 5 * _EPS * abs(result))
        t[n + 1] = t[n - 1]
        new = (n - 1) // 2
        t[n - 1] = _HUGE
        num, k1 = n, n - 1  # (k1: 0-based index of the diagonal's newest element)
        for i in range(1, new + 1):
            res = t[k1 + 2]
            e0, e1, e2 = t[k1 - 2], t[k1 - 1], res
            delta2, delta3 = e2 - e1, e1 - e0
            err2, err3 = abs(delta2), abs(delta3)
            tol2 = max(abs(e2), abs(e1)) * _EPS
            tol3 = max(abs(e1), abs(e0)) * _EPS
            if err2 <= tol2 and err3 <= tol3:  # (converged to rounding)
                return res, max(err2 + err3, 5 * _EPS * abs(res))
            e3 = t[k1]
            t[k1] = e1
            delta1 = e1 - e3
            err1, tol1 = abs(delta1), max(abs(e1), abs(e3)) * _EPS
            # (two entries within rounding, or an irregular table: keep the part before)
            if err1 <= tol1 or err2 <= tol2 or err3 <= tol3:
                n = 2 * i - 1
                break
            ss = 1 / delta1 + 1 / delta2 - 1 / delta3
            if abs(ss * e1) <= 1e-4:
                n = 2 * i - 1
                break
            res = e1 + 1 / ss
            t[k1] = res
            k1 -= 2
            estimate = err2 + abs(res - e2) + err3
            if estimate <= error:
                error, result = estimate, res
        if n == 50:
            n = 49
        # (shift the table so that it holds the diagonal's last elements)
        ib = 1 if num % 2 == 0 else 0
        for _ in range(new + 1):
            t[ib] = t[ib + 2]
            ib += 2
        if num != n:
            t[:n] = t[num - n:num]
        self.n = n
        if len(self.last3) < 3:
            self.last3.append(result)
            error = _HUGE
        else:
            error = sum(abs(result - r) for r in self.last3)
            self.last3 = self.last3[1:] + [result]
        return result, max(error, 5 * _EPS * abs(result))



def _insert(order, errors, nrmax):
    """QUADPACK's dqpsrt: ``order`` (interval indices) again by decreasing error after the
    interval at ``order[nrmax]`` was split into itself and the newest (the last index);
    returns the new ``nrmax``.  The places above ``nrmax`` hold intervals put aside as
    small during an extrapolation; the split one moves up past those it now exceeds."""
    split = order[nrmax]
    others = order[:nrmax] + order[nrmax + 1:]
    while nrmax > 0 and errors[split] > errors[others[nrmax - 1]]:
        nrmax -= 1
    rest = sorted(others[nrmax:] + [split, len(errors) - 1], key=lambda j: -errors[j])
    order[:] = others[:nrmax] + rest
    return nrmax


def qags(f, a, b, epsabs, epsrel, limit):
    """``(value, abserr, ier, intervals)`` of the integral of ``f`` over finite ``[a, b]``
    (dqagse).  ``ier`` 0 is success, 1..5 the failures of ``MESSAGES``."""
    result, abserr, defabs, resabs = _gk21(f, a, b)
    dres = abs(result)
    errbnd = max(epsabs, epsrel * dres)
    ier = 0
    if abserr <= 100 * _EPS * defabs and abserr > errbnd:
        ier = 2
    if limit == 1:
        ier = 1
    if ier or (abserr <= errbnd and abserr != resabs) or abserr == 0:
        return result, abserr, ier, 1
    lo, hi, areas, errors = [a], [b], [result], [abserr]
    order, nrmax, maxerr, errmax = [0], 0, 0, abserr
    epsilon = _Epsilon(result)
    area, errsum, abserr = result, abserr, _HUGE
    ktmin, extrap, noext, ierro = 0, False, False, 0
    iroff1 = iroff2 = iroff3 = 0
    small = erlarg = ertest = correc = 0.0
    positive = dres >= (1 - 50 * _EPS) * defabs  # (no cancellation in the integral)
    for last in range(2, limit + 1):
        a1, b2 = lo[maxerr], hi[maxerr]
        b1 = a2 = 0.5 * (a1 + b2)
        erlast = errmax
        area1, error1, _, defab1 = _gk21(f, a1, b1)
        area2, error2, _, defab2 = _gk21(f, a2, b2)
        area12, erro12 = area1 + area2, error1 + error2
        errsum += erro12 - errmax
        area += area12 - areas[maxerr]
        if defab1 != error1 and defab2 != error2:
            if abs(areas[maxerr] - area12) <= 1e-5 * abs(area12) and erro12 >= 0.99 * errmax:
                if extrap:
                    iroff2 += 1
                else:
                    iroff1 += 1
            if last > 10 and erro12 > errmax:
                iroff3 += 1
        errbnd = max(epsabs, epsrel * abs(area))
        if iroff1 + iroff2 >= 10 or iroff3 >= 20:
            ier = 2
        if iroff2 >= 5:
            ierro = 3
        if last == limit:
            ier = 1
        if max(abs(a1), abs(b2)) <= (1 + 100 * _EPS) * (abs(a2) + 1000 * _TINY):
            ier = 4
        # (the half with the larger error keeps the split interval's place)
        first, second = ((a2, b2, area2, error2), (a1, b1, area1, error1)) \
            if error2 > error1 else ((a1, b1, area1, error1), (a2, b2, area2, error2))
        lo[maxerr], hi[maxerr], areas[maxerr], errors[maxerr] = first
        lo.append(second[0])
        hi.append(second[1])
        areas.append(second[2])
        errors.append(second[3])
        nrmax = _insert(order, errors, nrmax)
        maxerr = order[nrmax]
        errmax = errors[maxerr]
        if errsum <= errbnd:
            return sum(areas), errsum, _final(ier), last
        if ier:
            break
        if last == 2:
            small, erlarg, ertest = abs(b - a) * 0.375, errsum, errbnd
            epsilon.add(area)
            continue
        if noext:
            continue
        erlarg -= erlast
        if abs(b1 - a1) > small:
            erlarg += erro12
        if not extrap:
            # (extrapolate once the interval to split next is among the smallest)
            if abs(hi[maxerr] - lo[maxerr]) > small:
                continue
            extrap, nrmax = True, 1
        if ierro != 3 and erlarg > ertest:
            # (first split the larger intervals that still carry error, if any)
            top = last if last <= 2 + limit // 2 else limit + 3 - last
            larger = False
            for _ in range(nrmax, top):
                maxerr = order[nrmax] if nrmax < len(order) else order[-1]
                errmax = errors[maxerr]
                if abs(hi[maxerr] - lo[maxerr]) > small:
                    larger = True
                    break
                nrmax += 1
            if larger:
                continue
        reseps, abseps = epsilon.add(area)
        ktmin += 1
        if ktmin > 5 and abserr < 1e-3 * errsum:
            ier = 5
        if abseps < abserr:
            ktmin, abserr, result, correc = 0, abseps, reseps, erlarg
            ertest = max(epsabs, epsrel * abs(reseps))
            if abserr <= ertest:
                    break
        if epsilon.n == 1:
            noext = True
        if ier == 5:
            break
        nrmax = 0
        maxerr = order[0]
        errmax = errors[maxerr]
        extrap, small, erlarg = False, small * 0.5, errsum
    # (the extrapolated value, unless the plain sum is the better one)
    if abserr == _HUGE:
        return sum(areas), errsum, _final(ier), last
    if ier + ierro:
        if ierro == 3:
            abserr += correc
        ier = ier or 3
        if result != 0 and area != 0:
            if abserr / abs(result) > errsum / abs(area):
                return sum(areas), errsum, _final(ier), last
        elif abserr > errsum:
            return sum(areas), errsum, _final(ier), last
        elif area == 0:
            return result, abserr, _final(ier), last
    # (a divergence test: the extrapolation and the sum disagree in size)
    if not (not positive and max(abs(result), abs(area)) <= defabs * 0.01):
        if 0.01 > result / area or result / area > 100 or errsum > abs(area):
            ier = 6
    return result, abserr, _final(ier), last


def _final(ier):
    return ier - 1 if ier > 2 else ier
