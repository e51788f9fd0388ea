"""Scalar definitions of the regularized incomplete gamma and beta functions (the values;
their primitives, and the derivatives in the shapes, are in :mod:`.incomplete`).

``P(a, x)``/``Q(a, x)``, chosen by region as Cephes' ``igam`` and DiDonato and Morris do:

- ``a > 20`` and ``|x - a| < 0.3 a``: Temme's uniform asymptotic expansion
  ``Q = erfc(eta sqrt(a/2)) / 2 + exp(-a eta**2/2) / sqrt(2 pi a) sum_k c_k(eta) a**-k``,
  ``eta**2 / 2 = lambda - 1 - log(lambda)``, ``lambda = x / a``, ``eta`` of the sign of
  ``lambda - 1`` (``P = 1 - Q`` the same way with ``erfc(-eta sqrt(a/2))``).  The series and
  fraction below need ``O(sqrt(a))`` terms there (more than 5000 past ``a ~ 3e5``).
- otherwise ``x < a + 1``: the series ``P = x**a e**-x / Gamma(a) sum_n x**n / (a)_(n+1)``;
  ``x >= a + 1``: Legendre's continued fraction for ``Q`` (modified Lentz); both converge
  geometrically outside the first region.  ``Q`` for ``a < 0.2`` below ``a + 1`` by its own
  series (``_GAMMAINCC_SMALL_A``).

For ``a >= 10`` the prefactor ``x**a e**-x / Gamma(a)`` is ``exp(a log1pmx((x - a)/a))
sqrt(a / 2 pi) / Gamma*(a)`` (``Gamma*`` Stirling's correction, ``log1pmx(t) = log(1 + t)
- t``), not ``exp(a log x - x - lgamma(a))``, whose exponent cancels to an absolute error of
``1e-16 a log a`` (``2e-9`` relative at ``a = 1e6``).  ``I_x(a, b)`` takes the same care:
for ``a + b >= 10`` its prefactor is written about the mean ``a / (a + b)``, and its
continued fraction's odd denominators, which tend to ``1 - y`` where one shape dwarfs the
other, are formed from ``1 - y`` (``_BETACF_STEPS``): within 1e-12 of mpmath for shapes up
to 1e8 in any ratio (it was ``3.8e-9`` at ``a = 1e8, b = 2``).

No loop returns a number it has not converged to: past its bound of terms the kernel
gives NaN (and the eager functions of :mod:`.incomplete` raise, naming the region).

The ``c_k(eta) = sum_n d[k][n] eta**n`` of ``_TEMME`` were computed in exact rational
arithmetic from ``c_0 = 1/(lambda - 1) - 1/eta`` and ``c_k = c_(k-1)'(eta) / eta +
(-1)**k g_k / (lambda - 1)`` (``g_k`` the coefficients of ``Gamma*(a) = sum g_k a**-k``;
Temme 1979, DLMF 8.12), 12 orders of 26 powers: the neglected ``a**-12`` order is below
``1e-19`` for ``a > 20``, and ``|eta| < 0.35`` in the region.
"""
from .special import EPS, _horner

_TINY = 1e-30  # Lentz's guard against a zero denominator (a normal float32 too)
_MAX_ITER = 5000
"""The most terms a value's series or fraction may take (NaN after): outside Temme's
region they converge geometrically, in far fewer."""
_MAX_BETA_ITER = 100000
"""The most steps of the incomplete beta function's continued fraction (``O(sqrt(a + b))``
are needed near the mean: 526 at ``a = b = 1e6``, 2282 at ``1e8``)."""

# the tolerance in the compute dtype (float32 cannot reach float64's)
TOLERANCE = f"""tol = C({EPS!r})
if C(1e-300) == C(0):
    tol = C(6e-8)"""
# the values' (float32: two ulps of 1, which a continued fraction's factor ends within)
_VALUE_TOLERANCE = f"""tol = C({EPS!r})
if C(1e-300) == C(0):
    tol = C(2.4e-7)"""

# log Gamma*(z) = log Gamma(z) - (z - 1/2) log z + z - log(2 pi)/2 ~ sum B_2k / (2k (2k-1)
# z**(2k-1)): eight terms reach 1e-17 at z = 10; below, from lgamma (small terms there)
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156,
             -3617 / 122400)
_HALF_LOG_2PI = 0.91893853320467274178


def _log_gamma_star(z, out):
    z = f"({z})"
    return f"""if {z} >= C(10):
    zz = C(1) / ({z} * {z})
    {out} = ({_horner("zz", _STIRLING)}) / {z}
else:
    {out} = F.lgamma({z}) - ({z} - C(0.5)) * F.log({z}) + {z} - C({_HALF_LOG_2PI!r})"""


def _log1pmx(t, out):
    """Scalar code: ``out = log(1 + t) - t`` (``t > -1``), by its series where the
    difference cancels."""
    return f"""if abs({t}) <= C(0.5):
    pw = {t}
    {out} = C(0)
    k = C(1)
    more = True
    while more and k < C(200):
        k = k + C(1)
        pw = -pw * {t}
        {out} = {out} + pw / k
        more = abs(pw) > abs({out}) * tol * k
else:
    {out} = F.log1p({t}) - {t}"""


def _indent(code, spaces):
    return "\n".join(" " * spaces + line for line in code.splitlines())


_TEMME = (
    (-0.3333333333333333, 0.08333333333333333, -0.014814814814814815, 0.0011574074074074073,
     0.0003527336860670194, -0.0001787551440329218, 3.919263178522438e-05,
     -2.185448510679992e-06, -1.85406221071516e-06, 8.296711340953087e-07,
     -1.7665952736826078e-07, 6.707853543401498e-09, 1.0261809784240309e-08,
     -4.382036018453353e-09, 9.14769958223679e-10, -2.5514193994946248e-11,
     -5.830772132550426e-11, 2.4361948020667415e-11, -5.0276692801141755e-12,
     1.1004392031956135e-13, 3.371763262400985e-13, -1.392388722418162e-13,
     2.8534893807047445e-14, -5.139111834242572e-16, -1.9752288294349442e-15,
     8.099521156704561e-16),
    (-0.001851851851851852, -0.003472222222222222, 0.0026455026455026454,
     -0.0009902263374485596, 0.00020576131687242798, -4.018775720164609e-07,
     -1.8098550334489977e-05, 7.64916091608111e-06, -1.6120900894563446e-06,
     4.647127802807434e-09, 1.378633446915721e-07, -5.752545603517705e-08,
     1.1951628599778148e-08, -1.7543241719747647e-11, -1.0091543710600413e-09,
     4.162792991842583e-10, -8.56390702649298e-11, 6.067215101604758e-14,
     7.1624989648114856e-12, -2.933186643771437e-12, 5.996696365683689e-13,
     -2.1671786527323313e-16, -4.978339972369262e-14, 2.0291628823713425e-14,
     -4.13125571381061e-15, 8.286516239883097e-19),
    (0.004133597883597883, -0.0026813271604938273, 0.0007716049382716049,
     2.0093878600823047e-06, -0.0001073665322636516, 5.2923448829120125e-05,
     -1.2760635188618728e-05, 3.423578734096138e-08, 1.3721957309062934e-06,
     -6.298992138380055e-07, 1.4280614206064242e-07, -2.0477098421990866e-10,
     -1.409252991086752e-08, 6.228974084922022e-09, -1.3670488396617114e-09,
     9.428356159014678e-13, 1.2872252400089318e-10, -5.5645956134363323e-11,
     1.197593554636698e-11, -4.1689782251838634e-15, -1.0940640427884595e-12,
     4.662239946390136e-13, -9.905105763906907e-14, 1.8931876768373515e-17,
     8.859221872591127e-15, -3.737820398046405e-15),
    (0.0006494341563786008, 0.00022947209362139917, -0.0004691894943952557,
     0.00026772063206283885, -7.561801671883977e-05, -2.396505113867297e-07,
     1.1082654115347302e-05, -5.6749528269915965e-06, 1.4230900732435883e-06,
     -2.7861080291528143e-11, -1.6958404091930278e-07, 8.099464905388083e-08,
     -1.9111168485973655e-08, 2.3928620439808118e-12, 2.0620131815488797e-09,
     -9.460496661855133e-10, 2.1541049775774907e-10, -1.388823336813903e-14,
     -2.1894761681963938e-11, 9.790998951171684e-12, -2.178219188018096e-12,
     6.208819573407901e-17, 2.126978363279737e-13, -9.344688791517433e-14,
     2.045367122678285e-14, -2.58260790403495e-19),
    (-0.0008618882909167117, 0.0007840392217200666, -0.0002990724803031902,
     -1.4638452578843418e-06, 6.641498215465122e-05, -3.968365047179435e-05,
     1.1375726970678419e-05, 2.507497226237533e-10, -1.6954149536558305e-06,
     8.907507532205309e-07, -2.292934834000805e-07, 2.956794137544049e-11,
     2.8865829742708783e-08, -1.4189739437803219e-08, 3.4463580499464896e-09,
     -2.3024517174528067e-13, -3.9409233028046403e-10, 1.86023389685045e-10,
     -4.356323005056618e-11, 1.278600101629623e-15, 4.67927502665792e-12,
     -2.149246470613483e-12, 4.908815614809652e-13, -6.33859148489156e-18,
     -5.045332069080094e-14, 2.2722958222901286e-14),
    (-0.00033679855336635813, -6.972813758365857e-05, 0.0002772753244959392,
     -0.00019932570516188847, 6.797780477937208e-05, 1.419062920643967e-07,
     -1.3594048189768693e-05, 8.018470256334202e-06, -2.291481176508095e-06,
     -3.252473551298454e-10, 3.4652846491085265e-07, -1.8447187191171344e-07,
     4.8240967037894184e-08, -1.7989466721743514e-14, -6.306194500013523e-09,
     3.162417628774568e-09, -7.840924253697429e-10, 5.192679165254041e-15,
     9.358944242306784e-11, -4.513426216163278e-11, 1.0799129993116828e-11,
     -3.661886712685252e-17, -1.210902069055155e-12, 5.680743584990564e-13,
     -1.3249659916340829e-13, 1.8987240764284076e-19),
    (0.0005313079364639922, -0.0005921664373536939, 0.0002708782096718045,
     7.902353232660328e-07, -8.153969367561969e-05, 5.61168275310625e-05,
     -1.8329116582843375e-05, -3.0796134506033047e-09, 3.465155368803609e-06,
     -2.0291327396058603e-06, 5.788792863149004e-07, 2.338630673826657e-13,
     -8.828600746330484e-08, 4.7435958880408125e-08, -1.2545415020710383e-08,
     8.649648858010293e-14, 1.6846058979264062e-09, -8.575492823577594e-10,
     2.1598224929232125e-10, -7.613230520476153e-16, -2.6639822008536144e-11,
     1.3065700536611057e-11, -3.1799163902367977e-12, 4.710976121367431e-18,
     3.6902800842763465e-13, -1.7612674046201426e-13),
    (0.00034436760689237765, 5.171790908260592e-05, -0.00033493161081142234,
     0.0002812695154763237, -0.00010976582244684731, -1.2741009095484485e-07,
     2.7744451511563645e-05, -1.8263488805711332e-05, 5.7876949497350525e-06,
     4.93875893393627e-10, -1.0595367014026043e-06, 6.166714376110408e-07,
     -1.7562973359060463e-07, -1.297447328701544e-12, 2.695423606288966e-08,
     -1.4578352908731272e-08, 3.887645959386175e-09, -3.881002251019412e-17,
     -5.327994173877286e-10, 2.7437977643314844e-10, -6.995796092070568e-11,
     2.589986387486848e-17, 8.856689099669639e-12, -4.403168815871311e-12,
     1.0865561947091654e-12, -2.0467988447416678e-19),
    (-0.0006526239185953094, 0.0008394987206720873, -0.000438297098541721,
     -6.969091458420552e-07, 0.00016644846642067547, -0.00012783517679769218,
     4.629953263691304e-05, 4.557909867922708e-09, -1.0595271125805195e-05,
     6.783342904865167e-06, -2.1075476666258803e-06, -1.7213731432817144e-11,
     3.773587741611098e-07, -2.1867506700122867e-07, 6.220228804018927e-08,
     6.597703826733e-16, -9.590386497425686e-09, 5.213214492280807e-09,
     -1.3991589583935709e-09, 5.382058999060575e-16, 1.9484714275467745e-10,
     -1.0127287556389682e-10, 2.6077347197254926e-11, -5.090418699993299e-18,
     -3.3721464474854593e-12, 1.6953089140808568e-12),
    (-0.0005967612901927463, -7.204895416020011e-05, 0.0006782308837667328,
     -0.0006401475260262758, 0.00027750107634328704, 1.819700838046515e-07,
     -8.479507117068503e-05, 6.105192082501531e-05, -2.1073920183404862e-05,
     -8.858589014125599e-10, 4.5284535953805374e-06, -2.8427815022504407e-06,
     8.708234177864641e-07, 3.6886101871706966e-12, -1.534469519070206e-07,
     8.862466778790695e-08, -2.5184812301826817e-08, -1.0225912098215092e-14,
     3.896947075815478e-09, -2.1267304792235634e-09, 5.737013552805138e-10,
     -1.8877498501697116e-19, -8.093153869465787e-11, 4.23827232834492e-11,
     -1.1002224534207725e-11, 2.3327607706802836e-19),
    (0.0013324454494800656, -0.0019144384985654776, 0.0011089369134596636,
     9.9324041226423e-07, -0.0005087450129309319, 0.00042735056665392886,
     -0.00016858853767910798, -8.1301893922785e-09, 4.5284402370562144e-05,
     -3.127053674781734e-05, 1.044986828530338e-05, 4.8435226265680926e-11,
     -2.148256587345626e-06, 1.329369701097492e-06, -4.029569309210103e-07,
     -1.756787766632329e-13, 7.014504316366825e-08, -4.040787734999483e-08,
     1.1474026743371964e-08, 3.964274685356394e-18, -1.7804938269892715e-09,
     9.748026254873165e-10, -2.6405338676507616e-10, 5.79487516340376e-18,
     3.764774955354384e-11, -1.983951296757828e-11),
    (0.001579727660730835, 0.00016251626278391583, -0.0020633421035543276,
     0.00213896861856891, -0.0010108559391263003, -3.99127055299192e-07,
     0.0003623502508476469, -0.00028143901463712157, 0.00010449513336495887,
     2.12114184918303e-09, -2.5779417251947842e-05, 1.7281818956040464e-05,
     -5.641377387290428e-06, -1.1024320105776174e-11, 1.1223224418895174e-06,
     -6.869339637952674e-07, 2.0653236975414888e-07, 4.6714772409838506e-14,
     -3.5609886164949055e-08, 2.0470855345905963e-08, -5.809173863328336e-09,
     -1.3328212875828647e-16, 9.035460439133513e-10, -4.959878251733084e-10,
     1.3481607129399748e-10, -1.670378498659395e-21),
)


def _temme_sum():
    """``sum_k c_k(eta) y**k`` (``y = 1/a``) and its last term ``last``."""
    k_last = len(_TEMME) - 1
    lines = [f"ck = {_horner('eta', list(_TEMME[k_last]))}", "s = ck", "last = ck"]
    for k in range(k_last - 1, -1, -1):
        lines.append(f"s = {_horner('eta', list(_TEMME[k]))} + y * s")
        lines.append("last = last * y")
    return "\n".join(lines)


# The Taylor coefficients of 1 / Gamma(1 + a) at a = 0 (1, Euler's gamma, ...; mpmath to
# 20 digits): the terms past a**16 are below 1e-19 for a < 0.2.
_RGAMMA1P = (1.0, 0.57721566490153286061, -0.65587807152025388108, -0.042002635034095235529,
             0.1665386113822914895, -0.042197734555544336748, -0.0096219715278769735621,
             0.0072189432466630995424, -0.0011651675918590651121, -0.00021524167411495097282,
             0.00012805028238811618615, -0.000020134854780788238656,
             -1.2504934821426706573e-6, 1.1330272319816958824e-6, -2.0563384169776071035e-7,
             6.1160951044814158179e-9, 5.0020076444692229301e-9)


# Q(a, x) for a < 0.2 and x < a + 1, where Q = 1 - P loses every digit as a -> 0 (P -> 1):
# P = x**a / Gamma(1 + a) (1 + a S), S = sum over n >= 1 of (-x)**n / (n! (a + n)), so
# Q = -expm1(u) - exp(u) a S with u = a log(x) - log Gamma(1 + a), and log Gamma(1 + a) =
# -log1p(a (gamma + ...)) from the series above (1 + a would round a away).  (Cephes'
# and Boost's small-a route; Q(1e-300, 1e-5) is 1.09e-299, not 1 - 1 = 0.)
_GAMMAINCC_SMALL_A = f"""if a < C(0.2):
    u = a * F.log(x) + F.log1p(a * ({_horner("a", _RGAMMA1P[1:])}))
    t = C(1)
    s = C(0)
    n = C(0)
    d = C(1)
    while abs(d) > abs(s) * tol and n < C({_MAX_ITER}):
        n = n + C(1)
        t = -t * x / n
        d = t / (a + n)
        s = s + d
    done = abs(d) <= abs(s) * tol
    r = -F.expm1(u) - F.exp(u) * a * s
else:
    r = C(1) - s * pre"""


# x**a e**-x / Gamma(a) (``mu = (x - a) / a``): for a >= 10 as exp(a log1pmx(mu)) sqrt(a / 2 pi)
# / Gamma*(a), whose exponent does not cancel
GAMMA_PREFACTOR = f"""if a < C(10):
    pre = F.exp(a * F.log(x) - x - F.lgamma(a))
else:
    if abs(mu) <= C(0.5):
{_indent(_log1pmx("mu", "lpm"), 8)}
        expo = a * lpm
    else:
        expo = a * F.log(x / a) - x + a
{_indent(_log_gamma_star("a", "lgs"), 4)}
    pre = F.exp(expo - lgs) * F.sqrt(a / C({2 * 3.141592653589793!r}))"""


def temme_da_sums():
    """Scalar code: with ``S(eta, y) = sum_k c_k(eta) y**k``, ``s = S``, ``s_eta = dS/deta``,
    ``s_y = dS/dy`` and ``last`` the last order's term (for the convergence test)."""
    k_last = len(_TEMME) - 1

    def deriv(row):
        return [n * c for n, c in enumerate(row)][1:]
    lines = [f"ck = {_horner('eta', list(_TEMME[k_last]))}",
             f"dk = {_horner('eta', deriv(_TEMME[k_last]))}",
             "s = ck", "s_eta = dk", f"s_y = C({k_last}) * ck", "last = ck"]
    for k in range(k_last - 1, -1, -1):
        lines += [f"ck = {_horner('eta', list(_TEMME[k]))}",
                  "s = ck + y * s",
                  f"s_eta = {_horner('eta', deriv(_TEMME[k]))} + y * s_eta",
                  "last = last * y"]
        if k >= 1:
            lines.append(f"s_y = C({k}) * ck + y * s_y")
    return "\n".join(lines)


def gammainc_body(lower):
    """Scalar code of P(a, x) (``lower``) or Q(a, x); see the module docstring.
    ``a = inf`` is SciPy's limit: ``P = 0`` below ``x = inf``."""
    p, q = ("C(1)", "C(0)") if lower else ("C(0)", "C(1)")
    sign = "-" if lower else ""
    return f"""a = x0
x = x1
{_VALUE_TOLERANCE}
if a != a or x != x or a < C(0) or x < C(0):
    r = C(F.NAN)
elif a == C(0):
    r = {p} if x > C(0) else C(F.NAN)
elif x == C(0):
    r = {q}
elif a == C(F.INF):
    r = C(F.NAN) if x == C(F.INF) else {q}
elif x == C(F.INF):
    r = {p}
else:
    mu = (x - a) / a
    done = True
    if a > C(20) and abs(mu) < C(0.3):
{_indent(_log1pmx("mu", "lpm"), 8)}
        eta = F.sqrt(-C(2) * lpm)
        if mu < C(0):
            eta = -eta
        y = C(1) / a
{_indent(_temme_sum(), 8)}
        done = abs(last) <= abs(s) * tol
        tail = F.exp(a * lpm) / F.sqrt(C({2 * 3.141592653589793!r}) * a) * s
        r = C(0.5) * F.erfc({sign}eta * F.sqrt(C(0.5) * a)) {"-" if lower else "+"} tail
    else:
{_indent(GAMMA_PREFACTOR, 8)}
        if x < a + C(1):
            ap = a
            d = C(1) / a
            s = d
            n = C(0)
            while abs(d) > abs(s) * tol and n < C({_MAX_ITER}):
                ap = ap + C(1)
                d = d * x / ap
                s = s + d
                n = n + C(1)
            done = abs(d) <= abs(s) * tol
{_indent("r = s * pre" if lower else _GAMMAINCC_SMALL_A, 12)}
        else:
            b = x + C(1) - a
            c = C(1) / C({_TINY!r})
            d = C(1) / b
            h = d
            i = C(0)
            done = False
            while not done and i < C({_MAX_ITER}):
                i = i + C(1)
                an = -i * (i - a)
                b = b + C(2)
                d = an * d + b
                if abs(d) < C({_TINY!r}):
                    d = C({_TINY!r})
                c = b + an / c
                if abs(c) < C({_TINY!r}):
                    c = C({_TINY!r})
                d = C(1) / d
                e = d * c
                h = h * e
                if abs(e - C(1)) < tol:
                    done = True
            r = {"C(1) - pre * h" if lower else "pre * h"}
    if not done:
        r = C(F.NAN)"""


# One even and one odd factor of the continued fraction (modified Lentz).  The odd partial
# numerator is -y r with r = (p + m)(p + q + m) / ((p + 2m)(p + 1 + 2m)), which tends to
# 1 for p >> m, q: at y near 1 (p >> q and x just below the mean) the denominators 1 - y r
# + ... cancelled to a relative error of eps p / q (3.8e-9 at p = 1e8, q = 2).  So the even
# step keeps d - 1 and c - 1 (small there: the even numerators are O(m q / p**2)), and the
# odd step forms 1 - y r as (1 - y) - y (r - 1), r - 1 = (p (q - 2m - 1) + m (q - 3m - 2))
# / ((p + 2m)(p + 1 + 2m)), with 1 - y exact.
_BETACF_STEPS = f"""    t = m * (q - m) * y / ((p - C(1) + C(2) * m) * (p + C(2) * m))
    u = C(1) + t * d
    if abs(u) < C({_TINY!r}):
        u = C({_TINY!r})
    dm1 = -t * d / u
    d = C(1) / u
    cm1 = t / c
    c = C(1) + cm1
    if abs(c) < C({_TINY!r}):
        c = C({_TINY!r})
        cm1 = c - C(1)
    h = h * (d * c)
    den = (p + C(2) * m) * (p + C(1) + C(2) * m)
    t = -(p + m) * (p + q + m) * y / den
    onet = yc - y * ((p * (q - C(2) * m - C(1)) + m * (q - C(3) * m - C(2))) / den)
    u = onet + t * dm1
    if abs(u) < C({_TINY!r}):
        u = C({_TINY!r})
    d = C(1) / u
    c = (onet + cm1) / c
    if abs(c) < C({_TINY!r}):
        c = C({_TINY!r})
    e = d * c
    h = h * e"""


# x**a (1-x)**b / B(a, b) about the mean x0 = a/(a+b), y0 = 1 - x0, from Gamma(z) =
# sqrt(2 pi/z) (z/e)**z Gamma*(z): sqrt(a b / (2 pi (a+b))) Gamma*(a+b) / (Gamma*(a)
# Gamma*(b)) (x/x0)**a ((1-x)/y0)**b, with a log(x/x0) = a log1pmx(u) + a u (u = x/x0 - 1)
# and b log((1-x)/y0) = b log1pmx(v) + b v: no lgamma(a + b) - lgamma(a) - ... to cancel.
# The smaller of x0, y0 is 1 - the larger (exact), so that a u + b v, zero at the exact
# mean, does not carry (a + b) times a rounding of x0 + y0; the rounded x0 then moves
# the exponent only to second order (the mean is its maximum).  Where the smaller is
# below 1e-4 (that second order grows as its inverse) the larger is taken as 1 and
# the exponent corrected by a log1p(b/a) (or b log1p(a/b)).
BETA_PREFACTOR = f"""extra = C(0)
if b < C(1e-4) * a:
    x0 = C(1)
    y0 = b / (a + b)
    extra = a * F.log1p(b / a)
    v = ((C(1) - x) - y0) / y0
elif a < C(1e-4) * b:
    y0 = C(1)
    x0 = a / (a + b)
    extra = b * F.log1p(a / b)
    v = -x
else:
    if a >= b:
        x0 = a / (a + b)
        y0 = C(1) - x0
    else:
        y0 = b / (a + b)
        x0 = C(1) - y0
    v = (x0 - x) / y0
u = (x - x0) / x0
if abs(u) <= C(0.5):
{_indent(_log1pmx("u", "la"), 4)}
    la = a * la
else:
    la = a * (F.log(x) - F.log(x0) - u)
if abs(v) <= C(0.5):
{_indent(_log1pmx("v", "lb"), 4)}
    lb = b * lb
else:
    lb = b * (F.log1p(-x) - F.log(y0) - v)
{_log_gamma_star("a + b", "gs")}
{_log_gamma_star("a", "ga")}
{_log_gamma_star("b", "gb")}
lin = a * u + b * v
pre = F.exp(la + lb + lin + extra + gs - ga - gb) * F.sqrt(a / (a + b) * b / C({2 * 3.141592653589793!r}))"""

# The prefactor ``pre`` (directly for small shapes) and the side of the continued fraction
# (``swap``: I_x(a, b) = 1 - I_{1-x}(b, a), with p, q the fraction's shapes, y its argument
# and yc = 1 - y exact): what the values and the shape derivatives both start from.
BETA_PREFACTOR_AND_SIDE = f"""if a + b < C(10):
    pre = F.exp(F.lgamma(a + b) - F.lgamma(a) - F.lgamma(b) + a * F.log(x)
                + b * F.log1p(-x))
else:
{_indent(BETA_PREFACTOR, 4)}
swap = x >= (a + C(1)) / (a + b + C(2))
if swap:
    p = b
    q = a
    y = C(1) - x
    yc = x
else:
    p = a
    q = b
    y = x
    yc = C(1) - x"""


# I_x(a, b) (``upper``: 1 - I_x(a, b)) by its continued fraction (Numerical Recipes 6.4), on
# the side of x = (a + 1) / (a + b + 2) where it converges fast (the other through
# I_x(a, b) = 1 - I_{1-x}(b, a), with 1 - x and x both exact there).  The complement is the
# fraction's own value on that other side, not I_{1 - x}(b, a) of a rounded 1 - x, which
# moved it by up to eps b (8e-11 at b = 1e8).  (a = 0 or b = inf, b = 0 or a = inf: SciPy's
# limits, a point mass at x = 0 or at x = 1)
def betainc_body(upper=False):
    """Scalar code of ``I_x(a, b)``, or (``upper``) of ``1 - I_x(a, b)``."""
    one, zero = ("C(0)", "C(1)") if upper else ("C(1)", "C(0)")
    last = ("pre * h / p if swap else C(1) - pre * h / p" if upper
            else "C(1) - pre * h / p if swap else pre * h / p")
    return f"""a = x0
b = x1
x = x2
{_VALUE_TOLERANCE}
done = True
if a != a or b != b or x != x or a < C(0) or b < C(0) or x < C(0) or x > C(1):
    r = C(F.NAN)
elif (a == C(0) and b == C(0)) or (a == C(F.INF) and b == C(F.INF)):
    r = C(F.NAN)
elif a == C(0) or b == C(F.INF):
    r = {one} if x > C(0) else {zero}
elif b == C(0) or a == C(F.INF):
    r = {one} if x == C(1) else {zero}
elif x == C(0):
    r = {zero}
elif x == C(1):
    r = {one}
else:
{_indent(BETA_PREFACTOR_AND_SIDE, 4)}
    c = C(1)
    # 1 - (p + q) y / (p + 1), which cancels for a large p at y near 1
    d = (p * yc + (C(1) - q * y)) / (p + C(1))
    if abs(d) < C({_TINY!r}):
        d = C({_TINY!r})
    d = C(1) / d
    h = d
    m = C(0)
    done = False
    while not done and m < C({_MAX_BETA_ITER}):
        m = m + C(1)
{_indent(_BETACF_STEPS, 4)}
        if abs(e - C(1)) < tol:
            done = True
    r = {last}
if not done:
    r = C(F.NAN)"""


BETAINC = betainc_body()

