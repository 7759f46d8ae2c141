"""Same seed, same verdict, on any processor (issue 40): stages run at their notebook defaults under
two OpenBLAS kernels (``OPENBLAS_CORETYPE``: what OpenBLAS picks per processor model) record
identical metrics and verdicts, timings aside.

The stages: A4 (every coreset method; batch A-IHT's draws and momentum moved with the kernel),
A5 (its Phi -- the whitened design, the Laplace mode and factor, the draws -- moved in its last bits, and with
it the coresets: 45 values of its default-scale metrics), A7 on A4's and A5's trials (its claim read batch
A-IHT against A-IHT: 3.29 -> 4.58 between two kernels),
B3 (min-norm-point's error at the rounding level entered B3.1's ratio) and B5 at d = 6 (line search's moment
error stalls at the LMO's tie tolerance, 8.5e-11 or 8.9e-11 by kernel, and entered B5's drop). About 2 minutes on a busy 2-core machine (A5 adds under one): each
kernel's stages run in a process of their own, the two at once. Beside them, the A-IHT family on one stored Phi
(A5's biketrips problem) returns the same bits under both kernels (its products are numpy's, not the kernel's),
and so does the construction of Phi itself (``inferopt._fixed_order``).
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from inferopt.pipeline.timing_claims import TIMING_CLAIMS, base_id

ROOT = Path(__file__).resolve().parents[1]
#: kernels an x86-64 OpenBLAS can be forced to, AVX-512 first; the test takes the first two this machine runs
CANDIDATES = ("SkylakeX", "Haswell", "Sandybridge")
#: (experiment, notebook, parameters over the notebook's defaults), run in this order
STAGES = (("A4", "A4_logistic_regression", {}), ("A5", "A5_poisson_regression", {}), ("A7", "A7_batch_gradients", {}),
          ("B3", "B3_graphical_model", {}), ("B5", "B5_maxent_dependent", {"d": 6, "n_points": 3000}))
#: a metric whose path names a time is a timing (CPU seconds move with the machine's load)
TIMING_KEY = re.compile(r"time|second", re.IGNORECASE)

PROBE = """
import hashlib, json, numpy as np, threadpoolctl
rng = np.random.default_rng(0)
A, r = rng.standard_normal((500, 1111)), rng.standard_normal(500)
print(json.dumps({"architecture": [l["architecture"] for l in threadpoolctl.threadpool_info() if l["user_api"] == "blas"],
                  "bits": hashlib.sha256((A.T @ r).tobytes() + (A @ A.T).tobytes()).hexdigest()}))
"""

RUN = """
import json, sys, papermill
root, out, stages = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
for exp_id, notebook, params in stages:
    papermill.execute_notebook(f"{root}/notebooks/{notebook}.ipynb", f"{out}/{exp_id}.ipynb", kernel_name="python3",
                               parameters={"output_dir": out, **params}, cwd=root, progress_bar=False)
"""


def environment(kernel: str) -> dict:
    """This process's environment with the OpenBLAS kernel forced (the venv's kernel first on PATH)."""
    env = dict(os.environ, OPENBLAS_CORETYPE=kernel, PYTHONHASHSEED="0", MPLBACKEND="Agg")
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def probe(kernel: str) -> dict | None:
    """The kernel OpenBLAS reports and the bits of two products under ``kernel``; None when this processor
    cannot run it (a kernel forced beyond the processor's instruction set dies with SIGILL, e.g. SkylakeX's
    AVX-512 on an AVX2 processor)."""
    out = subprocess.run([sys.executable, "-c", PROBE], env=environment(kernel), capture_output=True, text=True)
    return json.loads(out.stdout) if out.returncode == 0 else None


@pytest.fixture(scope="module")
def kernels():
    usable = [k for k in CANDIDATES if (p := probe(k)) is not None and set(p["architecture"]) == {k}]
    if len(usable) < 2:
        pytest.skip(f"this machine's OpenBLAS runs fewer than two of {CANDIDATES} (x86-64 OpenBLAS only)")
    return usable[:2]


def comparable(data: dict) -> dict:
    """A metrics file without what may differ between machines: the ``run`` record, the claims that
    rest on timings, and the metrics whose path names a time."""

    def keep(node, path=""):
        if isinstance(node, dict):
            return {k: keep(v, f"{path}/{k}") for k, v in node.items() if not TIMING_KEY.search(f"{path}/{k}")}
        return [keep(v, path) for v in node] if isinstance(node, list) else node

    claims = {c["id"]: c for c in data["claims"] if base_id(c["id"]) not in TIMING_CLAIMS}
    return {"claims": claims, "metrics": keep(data["metrics"]), "params": data["params"]}


#: a number below this in magnitude is at the level of floating-point round-off: its digits are the kernel's and the
#: summation order's (the nbval sanitizer's ROUNDOFF, tests/nbval_sanitize.cfg); two such numbers are the same value
ROUNDOFF = 1e-12


def differences(a, b, path="") -> list[str]:
    """The paths at which ``a`` and ``b`` differ, with both values; two numbers both at round-off level (below
    :data:`ROUNDOFF`, e.g. B5's dual solvers agreeing to 2.8e-16 under one kernel and 1.7e-16 under another) do not."""
    if all(isinstance(v, float | int) and not isinstance(v, bool) and abs(v) < ROUNDOFF for v in (a, b)):
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b), key=str) for d in differences(a.get(k), b.get(k), f"{path}/{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (u, v) in enumerate(zip(a, b)) for d in differences(u, v, f"{path}/{i}")]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


def test_roundoff_numbers_are_the_same_value_and_others_are_not():
    assert differences({"x": 2.77556e-16, "y": [1.0]}, {"x": 1.66533e-16, "y": [1.0]}) == []
    assert differences({"x": 2.0e-10}, {"x": 2.1e-10}) == ["/x: 2e-10 != 2.1e-10"]
    assert differences({"x": 0.0}, {"x": 1.0}) == ["/x: 0.0 != 1.0"]


def test_the_two_kernels_compute_different_last_bits(kernels):
    """Else the test below would show nothing."""
    assert probe(kernels[0])["bits"] != probe(kernels[1])["bits"]


SOLVE = """
import hashlib, sys, numpy as np
from inferopt.coresets.iht import a_iht, a_iht_batch, a_iht_ii
z = np.load(sys.argv[1]); Phi, y = np.asfortranarray(z["Phi"]), z["y"]
runs = [a_iht(Phi, y, 10, max_iter=300), a_iht_ii(Phi, y, 10, max_iter=300),
        a_iht_batch(Phi, y, 10, max_iter=300, rng=0)]
print(hashlib.sha256(b"".join(r.x.tobytes() + r.objective.tobytes() for r in runs)).hexdigest())
"""


def test_a_iht_on_one_phi_computes_the_same_bits_under_two_kernels(kernels, tmp_path):
    """A-IHT's iterates amplify their last bits (A5's biketrips at k = 10: a difference of 1e-12 in f at
    iteration 246 was 2e-4 by 252), so its products must not be the kernel's: on one Phi (A5's biketrips
    problem, built here once) every solver of the family returns the same bits under both kernels."""
    from inferopt.coresets.glm_problem import GLMCoresetProblem
    from inferopt.datasets.glm_data import load_glm

    problem = GLMCoresetProblem(load_glm("biketrips", "small").model(), 500, np.random.default_rng(0))
    np.savez(tmp_path / "phi.npz", Phi=problem.Phi, y=problem.y)
    bits = [subprocess.run([sys.executable, "-c", SOLVE, str(tmp_path / "phi.npz")], env=environment(k),
                           capture_output=True, text=True, check=True).stdout for k in kernels]
    assert bits[0] == bits[1]


PHI = """
import hashlib, sys, numpy as np
from inferopt.coresets.glm_problem import GLMCoresetProblem
from inferopt.datasets.glm_data import load_glm
parts = []
for name in ("synth_poiss", "biketrips", "airportdelays", "phishing"):
    problem = GLMCoresetProblem(load_glm(name, "small").model(), 60, np.random.default_rng(0))
    w = np.zeros(problem.n); w[:7] = 3.0
    parts += [problem.model.Z, problem.posterior.mean, problem.posterior.prec_chol, problem.Phi, problem.y,
              problem.sparsevi_tangent(10, 1)(w), *problem.evaluate(w).values()]
print(hashlib.sha256(b"".join(np.ascontiguousarray(a).tobytes() for a in parts)).hexdigest())
"""


def test_glm_phi_is_the_same_bits_under_two_kernels(kernels):
    """The root of A5's and A4's kernel dependence: a GLM's ``Phi`` -- the whitened design, the Laplace
    mode and its Cholesky factor, the draws and their log-likelihoods (``GLMCoresetProblem``) --, SparseVI's
    tangent vectors and a coreset's KLs are computed in fixed order (``inferopt._fixed_order``), the same
    bytes under both kernels (before, every one of them differed in its last bits)."""
    bits = [subprocess.run([sys.executable, "-c", PHI], env=environment(k), capture_output=True, text=True,
                           check=True).stdout for k in kernels]
    assert bits[0] == bits[1]


def test_stages_at_notebook_defaults_record_the_same_metrics_and_verdicts_under_two_kernels(kernels, tmp_path):
    runs = {}
    for kernel in kernels:
        (tmp_path / kernel).mkdir()
        runs[kernel] = subprocess.Popen(
            [sys.executable, "-c", RUN, str(ROOT), str(tmp_path / kernel), json.dumps(STAGES)], env=environment(kernel),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for kernel, proc in runs.items():
        log = proc.communicate()[0]
        assert proc.returncode == 0, f"the stages failed under {kernel}:\n{log[-3000:]}"
    metrics = {exp_id: [json.loads((tmp_path / k / "metrics" / f"{exp_id}.json").read_text()) for k in kernels]
               for exp_id, _, _ in STAGES}
    found = []
    for exp_id, (a, b) in metrics.items():
        diff = differences(comparable(a), comparable(b))   # the verdicts among them
        found += [f"{exp_id}: {len(diff)} values differ between {kernels[0]} and {kernels[1]}"] + diff[:10] if diff else []
    assert not found, "\n".join(found)
    for exp_id, runs_ in metrics.items():   # each run recorded the kernel it computed with
        assert [{lib["architecture"] for lib in data["run"]["blas"]} for data in runs_] == [{k} for k in kernels], exp_id
