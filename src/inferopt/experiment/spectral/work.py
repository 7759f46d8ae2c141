"""Hardware-neutral work of a matrix-completion run (D3): exact gradients and Chebyshev matrix-vector products,
counted from what the run drew, beside its CPU seconds.

One exact gradient is an eigen-decomposition of the smaller Gram matrix (GD's step, SVRG's snapshot). One stochastic
gradient with ``M`` probes and degree ``n`` takes ``M n`` products with ``A = θθᵀ + εI`` (the three-term recurrence,
Eq. 12); SVRG's control variate takes as many again at the snapshot (``2 M n``). SGD and SGD-DET record their degrees
(``info["degrees"]``), SVRG its degrees, ``n_inner`` and ``n_full_gradients``; a run with no degrees is GD.
"""

from __future__ import annotations

import numpy as np

from ..._validation import as_finite_array, check_choice, check_int, check_protocol, check_real


def cumulative_work(result, M: int) -> tuple[np.ndarray, np.ndarray]:
    """``(exact gradients, mat-vecs)`` done by ``result`` (a :class:`~inferopt.spectral.SpectralSolveResult`) up to
    each of its steps ``0..n_iter`` (index ``t``: after ``t`` steps), with ``M`` probes per stochastic gradient.
    SVRG's snapshot gradient of an epoch is counted at its first step."""
    check_protocol("result", result, "info", "n_iter", what="a SpectralSolveResult")
    M = check_int("M", M, low=1)
    n = check_int("result.n_iter", result.n_iter, low=0)
    info = result.info or {}
    steps = np.arange(n + 1)
    if "degrees" not in info:                                  # GD: one exact gradient per step
        return steps.astype(float), np.zeros(n + 1)
    degrees = np.asarray(info["degrees"], dtype=float)
    if degrees.size != n:
        raise ValueError(f"result.info['degrees'] must hold one degree per step ({n}); got {degrees.size}")
    if "n_inner" in info:                                      # SVRG: ψ(θ) and ψ(θ̃), a snapshot per epoch
        n_inner = check_int("result.info['n_inner']", info["n_inner"], low=1)
        exact = -(-steps // n_inner)
        per_step = 2 * M * degrees
    else:                                                      # SGD, SGD-DET
        exact = np.zeros(n + 1)
        per_step = M * degrees
    return exact.astype(float), np.concatenate([[0.0], np.cumsum(per_step)])


def work_at(result, M: int, iteration: int) -> tuple[float, float]:
    """``(exact gradients, mat-vecs)`` of ``result`` after ``iteration`` steps; ``(inf, inf)`` for ``iteration``
    ``None`` (a target not reached)."""
    if iteration is None:
        return float("inf"), float("inf")
    exact, matvecs = cumulative_work(result, M)
    iteration = check_int("iteration", iteration, low=0, high=exact.size - 1)
    return float(exact[iteration]), float(matvecs[iteration])


def zero_degree_draws(result) -> float:
    """The share of ``result``'s drawn degrees equal to 0 (a zero stochastic gradient); NaN without draws (GD)."""
    from .conditioning import drawn_zero_share

    check_protocol("result", result, "info", what="a SpectralSolveResult")
    degrees = (result.info or {}).get("degrees")
    return float("nan") if degrees is None else drawn_zero_share(np.asarray(degrees, dtype=int))


def stochastic_gradient_flops(d: int, r: int, M: int, n: int) -> float:
    """Multiply-adds of one stochastic gradient of the matrix completion (:func:`~inferopt.spectral.gradients.grad_lowrank`,
    ``θ`` of ``d x r``, ``M`` probes, degree ``n``), counted from the shapes of the products it performs: ``n - 1``
    steps of the recurrence, each ``θᵀw`` and ``θ(θᵀw)`` on ``M`` columns (``2dMr``) and the three-term update
    (``6dM``), one last ``θᵀw`` (``dMr``), the coefficient product ``K P`` (``n x n`` by ``n x Mr``: ``n²Mr``) and
    ``Y Z`` (``d x nM`` by ``nM x r``: ``dnMr``). Degree 0 does nothing. The paper's count is ``O(dM(N² + Nr))``
    (its adjoint sweep); this amortised form's is ``O(M(dnr + n²r))``."""
    d, r, M = (check_int(k, v, low=1) for k, v in (("d", d), ("r", r), ("M", M)))
    n = check_int("n", n, low=0)
    if n == 0:
        return 0.0
    return float((n - 1) * (2 * d * M * r + 6 * d * M) + d * M * r + n * n * M * r + d * n * M * r)


def snapshot_gradient_flops(d: int, r: int, M: int, n: int) -> float:
    """Multiply-adds of SVRG's stochastic gradient at its snapshot ``θ̃`` (:meth:`~inferopt.spectral.MatrixCompletion.spectral_grad`
    at the frozen iterate of its exact gradient, ``θ`` of ``d x r``): where ``d < r`` its products ``A w`` use the kept
    ``d x d`` Gram matrix ``θθᵀ`` (``d²M`` a step of the recurrence, :func:`~inferopt.spectral.gradients.grad_lowrank`'s
    ``gram``) instead of ``θᵀw`` and ``θ(θᵀw)`` (``2dMr``), and take ``Yᵀθ`` once at the end (``dnMr``): ``(n - 1) d M
    (r - d)`` fewer than :func:`stochastic_gradient_flops`; where ``d >= r`` no Gram matrix is kept and the two agree."""
    d, r, M = (check_int(k, v, low=1) for k, v in (("d", d), ("r", r), ("M", M)))
    n = check_int("n", n, low=0)
    full = stochastic_gradient_flops(d, r, M, n)
    return full - (n - 1) * d * M * (r - d) if n > 0 and d < r else full


#: multiply-adds of a symmetric eigen-decomposition with eigenvectors of a ``k x k`` matrix, per ``k³``: Golub & Van Loan
#: (Matrix Computations, 4th ed., Sec. 8.3) count about ``9k³`` flops for the symmetric QR algorithm's eigenvalues and
#: eigenvectors (a flop one operation: a multiply-add two); a convention, not a count of LAPACK's own operations
EIGH_MULTIPLY_ADDS = 4.5


def exact_gradient_flops(d: int, r: int) -> float:
    """Multiply-adds of one exact gradient of the matrix completion (:meth:`~inferopt.spectral.MatrixCompletion.exact_spectral_grad`,
    ``θ`` of ``d x r``, the push-through form ``θ (θᵀθ + εI)^{-1/2}`` on the smaller side ``k = min(d, r)``, ``D = max(d, r)``),
    counted from the shapes of the products it performs: the Gram matrix of the smaller side (``D x k`` by ``k``: ``Dk²``), its
    eigen-decomposition (:data:`EIGH_MULTIPLY_ADDS` ``k³``), ``W = U (Λ + ε)^{-1/4}`` (``k²``), ``S = W Wᵀ`` (``k³``) and
    ``θ S`` or ``S θ`` (``Dk²``): the counterpart of :func:`stochastic_gradient_flops` for GD's step and SVRG's snapshot."""
    d, r = (check_int(k, v, low=1) for k, v in (("d", d), ("r", r)))
    k, D = min(d, r), max(d, r)
    return float(2 * D * k * k + (EIGH_MULTIPLY_ADDS + 1.0) * k ** 3 + k * k)


def flop_price(d: int, r: int, M: int, N: int, method: str = "SGD") -> float:
    """The price of one stochastic gradient's worth (``M`` probes at the mean degree ``N``) of ``method``'s work in exact
    gradients on the flop axis, ``θ`` of ``d x r``: :func:`stochastic_gradient_flops` over :func:`exact_gradient_flops`; for
    SVRG, whose steps take a stochastic gradient at the iterate and one at the snapshot with the same probes (equal
    mat-vecs), the mean of :func:`stochastic_gradient_flops` and :func:`snapshot_gradient_flops` over it. The flop
    counterpart of the clock's ``r`` (:func:`cost_rounds`) that turns a run's step counts into time (exact gradients' worth
    of multiply-adds) with no clock in it: a run's work to a target on this axis is its exact gradients plus its stochastic
    gradients' worth (mat-vecs over ``M N``) times this price."""
    d, r, M, N = (check_int(k, v, low=1) for k, v in (("d", d), ("r", r), ("M", M), ("N", N)))
    method = check_choice("method", method, {"SGD", "SGD-DET", "SVRG"})
    stochastic = stochastic_gradient_flops(d, r, M, N)
    if method == "SVRG":
        stochastic = (stochastic + snapshot_gradient_flops(d, r, M, N)) / 2.0
    return stochastic / exact_gradient_flops(d, r)


#: the largest probe count, degree and repeat count :func:`gradient_seconds` times (far beyond any run's)
MAX_PROBES, MAX_DEGREE, MAX_REPS = 10_000, 10_000, 100


def gradient_seconds(problem, theta, M: int, N: int, *, reps: int = 3, rng=None) -> dict:
    """CPU seconds of one exact gradient of the spectral term at ``theta`` (GD's step and SVRG's snapshot:
    :meth:`~inferopt.spectral.MatrixCompletion.exact_spectral_grad`, an eigen-decomposition of the smaller Gram
    matrix) and of one stochastic gradient (SGD's step: the estimator of Eq. 12 with ``M`` Rademacher probes at the
    degree ``N``, the mean degree of SGD's draws), each the least of ``reps`` calls; ``ratio`` = exact / stochastic:
    how many stochastic steps one exact step buys at this size. ``theta`` is copied writeable, so that no kept Gram
    matrix (SVRG's frozen snapshot) shortens either call."""
    import time

    from ...spectral import ChebyshevSeries, make_degree_rule, rademacher

    from ..._random import as_generator

    check_protocol("problem", problem, "interval", "spectral_grad", "exact_spectral_grad", "shape", what="a MatrixCompletion")
    M, reps = check_int("M", M, low=1, high=MAX_PROBES), check_int("reps", reps, low=1, high=MAX_REPS)
    N = check_int("N", N, low=1, high=MAX_DEGREE)
    theta = as_finite_array("theta", theta, ndim=2)
    if theta.shape != tuple(problem.shape):
        raise ValueError(f"theta must have the problem's shape {tuple(problem.shape)}; got {theta.shape}")
    theta = np.array(problem.project(theta), dtype=float, copy=True)
    if not theta.any():
        raise ValueError("theta must be a non-zero d x r matrix (at 0 the exact gradient is 0 and costs nothing)")
    rng = as_generator(rng)
    a, b = problem.interval(theta)
    weights = make_degree_rule(ChebyshevSeries("sqrt", a, b), degree=N).draw(rng)
    V = rademacher(rng, theta.shape[0], M)
    out = {}
    for name, call in (("exact", lambda: problem.exact_spectral_grad(theta)),
                       ("stochastic", lambda: problem.spectral_grad(theta, V, weights, a, b))):
        best = np.inf
        for _ in range(reps):
            t0 = time.process_time()
            call()
            best = min(best, time.process_time() - t0)
        out[name] = float(best)
    if not out["stochastic"] > 0.0:
        raise ValueError("the stochastic gradient took no measurable CPU time: take a larger matrix")
    return out | {"ratio": out["exact"] / out["stochastic"]}


#: timings of one seeded gradient pair per size behind r (:func:`cost_rounds`; a constant, not a params key: nothing random,
#: and specs/spectral.py is D1-D5's)
TIMING_ROUNDS = 7


def cost_rounds(problem, theta, M: int, N: int, *, rounds: int = TIMING_ROUNDS, reps: int = 5) -> dict:
    """:func:`gradient_seconds` repeated ``rounds`` times (each the least of ``reps`` calls, the same θ, probes and degree:
    seeded once), so that the cost ratio comes with its spread: ``{"exact", "stochastic", "ratio"}`` the medians over the
    rounds (``ratio`` exact / stochastic, as :func:`gradient_seconds`), ``"r"`` the median of each round's stochastic / exact
    (a stochastic gradient in exact gradients: the work axis's price), ``"r range"`` and ``"stochastic range"`` their
    ``[least, median, largest]``, ``"rounds"`` every round's seconds. Repeated timings of one seeded computation measure the
    clock's noise only (the machine's load, caches), not any variation of the algorithm."""
    rounds = check_int("rounds", rounds, low=1, high=MAX_REPS)
    timed = [gradient_seconds(problem, theta, M, N, reps=reps, rng=0) for _ in range(rounds)]
    exact = [t["exact"] for t in timed]
    stochastic = [t["stochastic"] for t in timed]
    r = [s / e if e > 0 else np.inf for s, e in zip(stochastic, exact)]
    if not np.all(np.isfinite(r)):
        raise ValueError("the exact gradient took no measurable CPU time: take a larger matrix")

    def spread(v):
        return [float(np.min(v)), float(np.median(v)), float(np.max(v))]

    return {"exact": float(np.median(exact)), "stochastic": float(np.median(stochastic)),
            "ratio": float(np.median([1.0 / x for x in r])), "r": float(np.median(r)), "r range": spread(r),
            "stochastic range": spread(stochastic), "rounds": {"exact": exact, "stochastic": stochastic, "r": r}}


def size_trend(sizes, values, at: float) -> tuple[float, float]:
    """``(k, value at at)``: the power law ``value ∝ size^k`` fitted to ``values`` against ``sizes`` (the least-squares
    line of ``log value`` on ``log size``, :func:`~.theory.cost_exponent`), and what it predicts at the size ``at``
    (an extrapolation from the sizes measured: a prediction, not a measurement)."""
    from .theory import cost_exponent

    sizes = as_finite_array("sizes", sizes, ndim=1)
    values = as_finite_array("values", values, ndim=1)
    if sizes.size != values.size or sizes.size < 2 or np.any(sizes <= 0) or np.any(values <= 0):
        raise ValueError(f"sizes and values must be at least two positive numbers each, of the same length; got {sizes.size} "
                         f"and {values.size}")
    k = cost_exponent(sizes, values)
    at = check_real("at", at, low=0.0, low_open=True)
    intercept = float(np.mean(np.log(values) - k * np.log(sizes)))
    return k, float(np.exp(intercept + k * np.log(at)))
