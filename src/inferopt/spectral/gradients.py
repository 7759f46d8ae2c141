r"""Gradients of the Hutchinson-Chebyshev estimators with respect to parameters of ``A(θ)``.

Two exact derivatives of the same (polynomial) estimator
``y(θ) = (1/M) Σ_k v_kᵀ Σ_{j=0}^{n} c_j T_j(Ã(θ)) v_k``, ``Ã = 2A/(b-a) - (b+a)/(b-a) I``:

**Forward recursion (6)** (Han et al. 2018), general ``A(θ)`` given ``∂A/∂θ_i`` as operators:

    ∂w_{j+1} = (4/(b-a)) ∂A_i w_j + 2Ã ∂w_j - ∂w_{j-1},   ∂w_1 = (2/(b-a)) ∂A_i v,   ∂w_0 = 0,
    ∂y/∂θ_i = (1/M) Σ_k v_kᵀ Σ_j c_j ∂w_j^{(k)}                                           (5), (12)

All ``d'`` parameters and ``M`` probes are stacked in one ``d x (d' M)`` block, so each
Chebyshev step is one product with ``A`` plus one with each ``∂A_i``.

**Adjoint (reverse) form**, used for the amortised gradient of ``A = θθᵀ + εI`` (Sec. 5.1).
Write ``y = Σ_j g_jᵀ w_j`` with ``g_j = c_j v`` and run the recursion ``w_{j+1} = 2Ã w_j - w_{j-1}``
backwards (the adjoint of Clenshaw's algorithm). The adjoint vectors ``u_j = ∂y/∂w_j`` are

    u_n = c_n v,  u_{n-1} = c_{n-1} v + 2Ã u_n,  u_j = c_j v + 2Ã u_{j+1} - u_{j+2}   (1 <= j <= n-2)

i.e. ``u_j = Σ_{m>=j} c_m U_{m-j}(Ã) v`` (``U`` Chebyshev polynomials of the second kind).
Since ``w_1 = Ã w_0`` and ``w_{j+1}`` depends on ``Ã`` through ``2Ã w_j``,

    dy = u_1ᵀ dÃ w_0 + 2 Σ_{j=1}^{n-1} u_{j+1}ᵀ dÃ w_j,   dÃ = (2/(b-a)) dA,

so ``∇_A y = G = (2/(b-a)) [u_1 w_0ᵀ + 2 Σ_{j=1}^{n-1} u_{j+1} w_jᵀ]`` (averaged over probes): a sum of
``nM`` outer products ``X Yᵀ`` with ``X = [(2/(b-a)) u_1, (4/(b-a)) u_2, ..]``, ``Y = [w_0, w_1, ..]``.
Expanding ``u`` gives the double sum ``Σ_j c_j Σ_k U_{j-1-k}(Ã) v (T_k(Ã) v)ᵀ``, the matrix form of
``T_j' = j U_{j-1}``. For ``A = θθᵀ + εI``, ``dA = dθ θᵀ + θ dθᵀ`` and

    ∇_θ y = (G + Gᵀ) θ = X (Yᵀθ) + Y (Xᵀθ).

Every ``u_j`` is a polynomial of degree ``n - j`` in ``Ã`` applied to ``v``, hence a combination
``σ_j u_j = Σ_i C[j-1, i] w_i`` of the forward vectors (:func:`krylov_adjoint_coefficients`), i.e.
``X = Y (C ⊗ I_M)ᵀ`` probe by probe, and

    ∇_θ y = Y ((C + Cᵀ) ⊗ I_M) (Yᵀθ) / M                                            (issue 27)

needs neither the backward sweep nor ``X``: :func:`grad_lowrank` costs ``n - 1`` block products with
``A`` (``||A||_mv = O(dr)``) and one ``d x nM x r`` contraction, ``O(dMnr)`` in all: within the
paper's ``O(dM(N² + Nr))``, independent of the ``d' = dr`` parameters (the forward recursion (6)
would cost ``O(dr · dMNr)``).
"""

from __future__ import annotations

import numpy as np

from .._validation import as_finite_array, check_callable, check_flag, check_real, check_size
from .chebyshev import check_interval
from .estimators import (ChebyshevSeries, check_coefficients, check_probes, check_rule, draw_estimator,
                         rademacher, replicate_weights)
from .._random import as_generator
from .operators import LowRankShiftOperator, as_operator, dense_of
from .._random import as_generator


def derivative_moments(A, dA, V, n: int, a, b) -> np.ndarray:
    """``nu[j, i, k] = v_kᵀ ∂w_j^{(k)}/∂θ_i`` for ``j = 0..n`` by the forward recursion (6).

    ``dA`` is a sequence of ``d'`` symmetric operators/matrices ``∂A/∂θ_i``; all ``d'`` parameters and
    the ``K`` probes (columns of ``V``) advance in one ``d x (d' K)`` block. Shape ``(n + 1, d', K)``.
    """
    op = as_operator(A)
    dops = [as_operator(D, name=f"dA[{i}]") for i, D in enumerate(dA)]
    for i, D in enumerate(dops):
        if tuple(D.shape) != tuple(op.shape):
            raise ValueError(f"dA[{i}] must have the shape of A {tuple(op.shape)}; got {tuple(D.shape)}")
    a, b = check_interval(a, b)
    V = check_probes(V, op.shape[0])
    n = check_size("n (degree)", n, low=0, item_bytes=8 * max(len(dops), 1) * V.shape[1], item="degree (its moments)")
    (d, K), P = V.shape, len(dops)
    nu = np.zeros((n + 1, P, K))
    if P == 0 or n == 0:
        return nu
    s, c = 2.0 / (b - a), (b + a) / (b - a)

    def atil(X):
        return s * op.matmat(X) - c * X

    def dA_times(Wblock):  # Wblock: d x K (same w for every parameter) -> d x (P K)
        return np.concatenate([D.matmat(Wblock) for D in dops], axis=1)

    Vrep = np.tile(V, (1, P))
    w_prev, w = V, atil(V)  # w_0, w_1
    dw_prev, dw = np.zeros((d, P * K)), s * dA_times(V)  # ∂w_0, ∂w_1
    nu[1] = np.einsum("ij,ij->j", Vrep, dw).reshape(P, K)
    for j in range(1, n):
        dw_new = 2.0 * s * dA_times(w) + 2.0 * atil(dw) - dw_prev
        w_new = 2.0 * atil(w) - w_prev
        dw_prev, dw = dw, dw_new
        w_prev, w = w, w_new
        nu[j + 1] = np.einsum("ij,ij->j", Vrep, dw).reshape(P, K)
    return nu


def grad_recursion(A, dA, V, weights, a, b) -> np.ndarray:
    """Gradient of ``(1/M) Σ_k v_kᵀ Σ_j weights_j T_j(Ã) v_k`` by the forward recursion (6), Eq. (5)/(12).

    ``dA`` is a sequence of ``d'`` symmetric operators/matrices ``∂A/∂θ_i``. Returns shape ``(d',)``.
    """
    weights = check_coefficients(weights)
    nu = derivative_moments(A, dA, V, weights.size - 1, a, b)
    return np.einsum("j,jik->i", weights, nu) / nu.shape[2]


def lowrank_derivatives(theta) -> np.ndarray:
    """The ``d·r`` matrices ``∂A/∂θ_pq = e_p θ_qᵀ + θ_q e_pᵀ`` of ``A = θθᵀ + εI`` (``θ`` is ``d x r``),
    in row-major order of ``(p, q)``: the ``dA`` of the general recursion (6) for the low-rank
    form, whose amortised gradient is :func:`grad_lowrank`. Dense, shape ``(d·r, d, d)``: for
    checks and small problems."""
    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    d, r = theta.shape
    E = np.eye(d * r).reshape(d * r, d, r)  # the unit matrices e_p e_qᵀ
    ET = E @ theta.T
    return ET + ET.transpose(0, 2, 1)


def replicated_grad_estimates(A, dA, rule, a, b, *, R: int, M: int, rng=None) -> np.ndarray:
    """``R`` independent estimates (12) of ``∇_θ tr f(A(θ))``, each with its own degree and ``M`` probes.

    The counterpart of :func:`.estimators.replicated_estimates` for the gradient: one block recursion (6)
    over all ``R M`` probes. Returns shape ``(R, d')``.
    """
    op = as_operator(A)
    M = check_size("M (number of probe vectors)", M, item_bytes=9 * op.shape[0], item="probe of length d")
    check_rule(rule)
    rng = as_generator(rng)
    W = replicate_weights(rule, R, rng)
    nu = derivative_moments(op, dA, rademacher(rng, op.shape[0], W.shape[0] * M), W.shape[1] - 1, a, b)
    return np.einsum("rj,jirm->ri", W, nu.reshape(nu.shape[0], nu.shape[1], W.shape[0], M)) / M


def adjoint_factors(A, V, weights, a, b):
    """Factors ``X, Y`` (``d x nM``) with ``∇_A Σ_k v_kᵀ p(Ã) v_k = X Yᵀ`` (adjoint of the recursion).

    See the module docstring for the derivation. For ``n = 0`` both are empty.
    """
    op = as_operator(A)
    a, b = check_interval(a, b)
    V = check_probes(V, op.shape[0])
    c_ = check_coefficients(weights)
    n = c_.size - 1
    d, M = V.shape
    if n == 0:
        return np.zeros((d, 0)), np.zeros((d, 0))
    s, c = 2.0 / (b - a), (b + a) / (b - a)

    def atil(X):
        return s * op.matmat(X) - c * X

    # forward: w_0 .. w_{n-1}
    Y = np.empty((d, n * M))
    Y[:, :M] = V
    w_prev, w = None, V
    for j in range(1, n):
        w_new = atil(w) if j == 1 else 2.0 * atil(w) - w_prev
        w_prev, w = w, w_new
        Y[:, j * M : (j + 1) * M] = w
    # backward: u_n .. u_1
    X = np.empty((d, n * M))
    u_next2, u_next = None, c_[n] * V  # u_{j+2}, u_{j+1} with j + 1 = n
    X[:, (n - 1) * M : n * M] = (2.0 * s if n > 1 else s) * u_next
    for j in range(n - 1, 0, -1):
        u = c_[j] * V + 2.0 * atil(u_next) - (u_next2 if u_next2 is not None else 0.0)
        u_next2, u_next = u_next, u
        X[:, (j - 1) * M : j * M] = (2.0 * s if j > 1 else s) * u
    return X, Y


def matrix_gradient(A, V, weights, a, b) -> np.ndarray:
    """Dense symmetric ``∇_A`` of the estimator (probe mean), ``sym(X Yᵀ)/M``; for tests and small ``d``."""
    X, Y = adjoint_factors(A, V, weights, a, b)
    G = X @ Y.T / np.asarray(V).shape[1]
    return 0.5 * (G + G.T)


def krylov_adjoint_coefficients(weights, s: float) -> np.ndarray:
    """``C`` (``n x n``) with ``σ_j u_j = Σ_{i=0}^{n-1} C[j-1, i] T_i(Ã) v`` for the adjoint vectors
    ``u_j = Σ_{m>=j} c_m U_{m-j}(Ã) v`` of the module docstring (``σ_1 = s``, ``σ_j = 2s``, ``s = 2/(b-a)``).

    Every ``u_j`` is a polynomial of degree ``n - j <= n - 1`` in ``Ã`` applied to ``v``, so a
    combination of the forward vectors ``w_i = T_i(Ã) v``: with ``U_{2q} = T_0 + 2 Σ_{i=1}^{q} T_{2i}``,
    ``U_{2q+1} = 2 Σ_{i=0}^{q} T_{2i+1}`` and the parity suffix sums ``S_k = Σ_{m>=k, m ≡ k (2)} c_m``,

        C[j-1, 0] = σ_j S_j,    C[j-1, i] = 2 σ_j S_{j+i}  (i >= 1; S_k = 0 for k > n),

    in ``O(n²)`` (the same matrix as :func:`._ski_gradient.adjoint_coefficients`, which sums
    ``c_m U_{m-j}`` term by term in ``O(n³)``; equal up to round-off).
    """
    c = check_coefficients(weights)
    n = c.size - 1
    S = np.zeros(2 * n + 1)
    for parity in (0, 1):               # suffix sums along each parity class, smallest (last) terms first
        S[parity : n + 1 : 2] = np.cumsum(c[parity::2][::-1])[::-1]
    j = np.arange(1, n + 1)[:, None]
    i = np.arange(n)[None, :]
    C = np.where(i == 0, S[j + i], 2.0 * S[j + i])
    C *= np.where(j == 1, s, 2.0 * s)
    return C


def grad_lowrank(theta, eps, V, weights, a, b, *, gram=None) -> np.ndarray:
    """Amortised gradient w.r.t. ``θ`` of the estimator for ``A = θθᵀ + εI`` (Sec. 5.1, Eq. 12): ``(G + Gᵀ)θ``
    with ``G = ∇_A y`` of the module docstring, from the forward recursion alone.

    ``G = (1/M) Σ_k Σ_{j=1}^{n} σ_j u_j w_{j-1}ᵀ`` (``σ_1 = s``, ``σ_j = 2s``) and every adjoint vector is a
    combination of the forward ones, ``σ_j u_j = Σ_i C[j-1, i] w_i`` (:func:`krylov_adjoint_coefficients`), so
    ``G = (1/M) Σ_k Σ_{i,j} C[j, i] w_i w_jᵀ`` and, with ``Y = [w_0 .. w_{n-1}]`` (``d x nM``, probe blocks),

        ∇_θ y = (G + Gᵀ)θ = (1/M) Y ((C + Cᵀ) ⊗ I_M) Yᵀθ.

    ``Yᵀθ`` is a by-product of the recursion (step ``j`` forms ``θᵀw_j`` for ``Ã w_j``), so the cost is
    ``n - 1`` block products ``θ(θᵀ w)`` with ``M`` columns, one ``θᵀw_{n-1}`` and one ``d x nM x r``
    contraction: about half the flops of the two-sweep adjoint (:func:`adjoint_factors`: ``X = [σ_j u_j]``,
    ``∇_θ y = (X Yᵀ + Y Xᵀ)θ/M`` with a backward sweep of ``M`` more columns per step and a ``d x 2nM x r``
    contraction), equal to it up to round-off. Shape of ``θ``.

    ``gram``: optionally ``θθᵀ`` (``d x d``, e.g. kept from an exact gradient at the same ``θ``). The products
    are then ``A w = (θθᵀ) w + εw``, one pass over ``d²`` numbers instead of two over ``dr``, and ``Yᵀθ`` is one
    ``nM x d x r`` product at the end: cheaper when ``d <= r`` (SVRG's ``ψ(θ̃)`` at its fixed snapshot; equal
    up to round-off).
    """
    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    eps = check_real("eps", eps, low=0.0)
    d, r = theta.shape
    a, b = check_interval(a, b)
    V = check_probes(V, d)
    c_ = check_coefficients(weights)
    n = c_.size - 1
    M = V.shape[1]
    if n == 0 or not theta.any():   # degree 0, or θ = 0 (SVRG's first snapshot): (G + Gᵀ)θ = 0 exactly
        return np.zeros_like(theta)
    if gram is not None:
        gram = np.asarray(gram)
        if gram.shape != (d, d):
            raise ValueError(f"gram must be θθᵀ, of shape ({d}, {d}); got {gram.shape}")
    s, c = 2.0 / (b - a), (b + a) / (b - a)
    Y = np.empty((d, n * M))    # Y[:, block j] = w_j, j = 0..n-1
    P = np.empty((n * M, r))    # P[block j] = w_jᵀ θ  (= (θᵀ w_j)ᵀ, rows: the block is C-contiguous)
    Y[:, :M] = V
    w_prev, w = None, V
    for j in range(n - 1):      # w_{j+1} from w_j (and θᵀ w_j kept, without gram)
        if gram is None:
            Pj = P[j * M : (j + 1) * M]
            np.matmul(w.T, theta, out=Pj)
            Aw = theta @ Pj.T
        else:
            Aw = gram @ w
        aw = s * (Aw + eps * w) - c * w    # Ã w_j
        w_prev, w = w, (aw if j == 0 else 2.0 * aw - w_prev)
        Y[:, (j + 1) * M : (j + 2) * M] = w
    if gram is None:
        np.matmul(w.T, theta, out=P[(n - 1) * M :])
    else:
        np.matmul(Y.T, theta, out=P)
    C = krylov_adjoint_coefficients(c_, s)
    K = (C + C.T) / M
    Z = (K @ P.reshape(n, M * r)).reshape(n * M, r)  # ((C + Cᵀ) ⊗ I_M) Yᵀθ / M
    return Y @ Z


def spectral_sum_grad(A, dA, f, a, b, *, M=20, degree=None, N=None, distribution="optimal", p=0.5, rng=None, check=True):
    """Stochastic gradient (12) of ``tr f(A(θ))`` by recursion (6): unbiased for random degree, biased for fixed.

    ``dA``: the ``∂A/∂θ_i`` (matrices or operators). Returns ``(grad, degree)``.
    """
    op = as_operator(A)
    series, weights, V = draw_estimator(
        op, f, a, b, M=M, degree=degree, N=N, distribution=distribution, p=p, rng=rng,
        symmetric=[(op, "A")] + [(D, f"dA[{i}]") for i, D in enumerate(dA)] if check_flag("check", check) else None,
    )
    return grad_recursion(op, dA, V, weights, series.a, series.b), weights.size - 1


def spectral_sum_grad_lowrank(theta, eps, f, a, b, *, M=20, degree=None, N=None, distribution="optimal", p=0.5,
                              rng=None, check=True):
    """Stochastic gradient of ``tr f(θθᵀ + εI)`` w.r.t. ``θ`` (amortised adjoint form). Returns ``(grad, degree)``."""
    eps = check_real("eps", eps, low=0.0)
    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    series, weights, V = draw_estimator(
        LowRankShiftOperator(theta, eps), f, a, b, M=M, degree=degree, N=N, distribution=distribution, p=p,
        rng=rng, symmetric=[] if check_flag("check", check) else None,  # θθᵀ + εI is symmetric by construction
    )
    return grad_lowrank(theta, eps, V, weights, series.a, series.b), weights.size - 1


def exact_matrix_gradient(A, f, fprime=None) -> np.ndarray:
    """``∇_A tr f(A) = U f'(Λ) Uᵀ`` by eigen-decomposition (the exact baseline).

    ``fprime`` defaults to the derivative of the Chebyshev series of ``f`` on the spectrum's hull
    (machine-precision for analytic ``f``); names ``"log"``, ``"sqrt"``, ``"exp"`` use closed forms.
    """
    if not isinstance(f, str):
        check_callable("f", f)
    mat = dense_of(as_operator(A))
    lam, U = np.linalg.eigh(mat)
    closed = {"log": lambda x: 1.0 / x, "sqrt": lambda x: 0.5 / np.sqrt(x), "exp": np.exp}
    if fprime is None:
        if isinstance(f, str):
            fprime = closed[f] if f in closed else None
        if fprime is None:
            lo, hi = lam[0], lam[-1]
            pad = 1e-3 * max(hi - lo, abs(hi), 1e-12)
            fprime = ChebyshevSeries(f, lo - pad, hi + pad).derivative
    return (U * fprime(lam)) @ U.T


def exact_grad_lowrank(theta, eps, f, fprime=None) -> np.ndarray:
    """Exact ``∇_θ tr f(θθᵀ + εI) = 2 U f'(Λ) Uᵀ θ``."""
    theta = as_finite_array("theta", theta, ndim=2, nonempty=True)
    eps = check_real("eps", eps, low=0.0)
    G = exact_matrix_gradient(theta @ theta.T + eps * np.eye(theta.shape[0]), f, fprime)
    return 2.0 * G @ theta
