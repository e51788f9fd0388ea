"""Exact Wallenius masses and their odds-derivatives by the finite double sum
int_0^1 (1 - t**(w/D))**x (1 - t**(1/D))**(N-x) dt = sum_ij (-1)**(i+j) C(x,i) C(N-x,j) D/(D + i w + j)."""
import mpmath as mp

def exact(x, M, n, N, w, dps=None):
    """(logpmf, dlogpmf/dw, d2logpmf/dw2) as mpf: the sum cancels from terms up to 2**N
    down to the integral, so the working precision is raised until 30 digits are left."""
    dps = dps or 30 + N
    while True:
        out, lost = _exact(x, M, n, N, w, dps)
        if dps - lost >= 30:
            more = _exact(x, M, n, N, w, dps + 30)[0]
            if all(abs(a - b) <= mp.mpf(10) ** -25 * abs(b) or abs(a - b) < mp.mpf(10) ** -200
                   for a, b in zip(out, more)):
                return out
        dps = max(dps + 30, int(lost) + 40)


def _exact(x, M, n, N, w, dps):
    m1, m2 = n, M - n
    with mp.workdps(dps):
        w = mp.mpf(w)
        D = w * (m1 - x) + m2 - (N - x)
        lc = mp.log(mp.binomial(m1, x)) + mp.log(mp.binomial(m2, N - x))
        if D == 0:
            return (lc, mp.mpf(0), mp.mpf(0)), 0
        Dp = m1 - x
        I = I1 = I2 = mp.mpf(0)
        for i in range(x + 1):
            ci = mp.binomial(x, i) * (-1) ** i
            for j in range(N - x + 1):
                c = ci * mp.binomial(N - x, j) * (-1) ** j
                A = i * w + j
                q = D + A
                num = Dp * A - D * i
                I += c * D / q
                I1 += c * num / q ** 2
                I2 += c * (-2 * num * (Dp + i)) / q ** 3
        lost = N * mp.log10(2) - mp.log10(abs(I)) + mp.log10(1 + max(1, w))
        return (lc + mp.log(I), I1 / I, I2 / I - (I1 / I) ** 2), lost
