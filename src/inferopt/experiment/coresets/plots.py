"""Panels of the coreset figures (Zhang et al. 2021): a metric against the coreset size ``k``
(Figs 3, 4, 8–11: median over trials with the 35th–65th percentile band, one colour per
solver and a dashed line for its NNLS re-fit variant), and the posterior-mean contours of
the radial-basis regression (Figs 2, 7)."""

from __future__ import annotations

import numpy as np

import pandas as pd

from ..._validation import as_rows, check_int, check_protocol, check_size
from ...coresets.conjugate import rbf_features
from ..methods import color, label, labels_of
from ..plotting import plot_band
from .glm_trials import METHODS, trial_matrix

#: display names of the figures' methods (:data:`~.glm_trials.METHODS`), from the one registry
METHOD_LABELS = labels_of(METHODS)


METRIC_LABELS = {
    "forward_kl": "forward KL",
    "reverse_kl": "reverse KL",
    "symmetric_kl": "symmetrised KL",
    "map_distance": r"$\ell_2$ distance of MAPs",
    "seconds": "time (s)",
    "rel_error": r"$\|y - \Phi w\| / \|y\|$",
}


def plot_methods(ax, table, dataset: str, metric: str, methods, *, title: str | None = None, logy: bool = True) -> None:
    """Median and 35–65% band of ``metric`` against ``k`` for each of ``methods`` on
    ``dataset`` (rows of a :func:`~inferopt.coresets.glm_trials.run_glm_trials` table),
    log-scaled ``y`` unless ``logy=False``."""
    for m in methods:
        ks, Y = trial_matrix(table, dataset, m, metric)
        refit = m.endswith("_refit")
        plot_band(ax, ks, Y, label=label(m), color=color(m), ls="--" if refit else "-", lw=1.5)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel("coreset size k")
    ax.set_ylabel(METRIC_LABELS.get(metric, metric))
    if title:
        ax.set_title(title)


def surface(model, info, coords, w, grid_size: int):
    """Posterior-mean regression surface of ``π_w`` on a ``grid_size``² longitude/latitude grid
    over the trial's records (``coords[info["indices"]]``; ``info`` from
    :func:`~inferopt.coresets.make_rbf_regression`). Returns ``(lon, lat, mean)`` grids."""
    check_protocol("model", model, "posterior", what="a conjugate model")
    coords = as_rows("coords", coords, 2, nonempty=True)
    grid_size = check_size("grid_size", grid_size, low=2, item_bytes=8 * 4 * check_int("grid_size", grid_size, low=2),
                           item="row of the grid (its points and surface)")
    if coords.shape[0] <= np.max(info["indices"]):
        raise ValueError(f"coords must hold every record of info['indices'] (at least {np.max(info['indices']) + 1} "
                         f"rows, as passed to make_rbf_regression); got {coords.shape[0]}")
    pts = coords[info["indices"]]
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    g0, g1 = np.meshgrid(np.linspace(lo[0], hi[0], grid_size), np.linspace(lo[1], hi[1], grid_size))
    B = rbf_features(np.column_stack([g0.ravel(), g1.ravel()]), info["centres"], info["scales"])
    return g0, g1, (B @ model.posterior(w)[0]).reshape(g0.shape)


def surface_differences(trials_of: dict, coords, k: int, grid_size: int) -> pd.DataFrame:
    """Figs 2 and 7's number for every trial (A3.3 reads all of them; the figures show the first few): one row per
    ``(trial, method)`` with the :func:`relative_rms_difference` of ``method``'s coreset of size ``k`` from the true
    surface. ``trials_of``: ``{method: trials}``, each ``trials`` a list of ``((model, info), table, runs)`` in trial
    order (:func:`~.conjugate_trials.run_conjugate_trials`), ``runs[method]`` holding the weights at ``k``; a method
    may come from its own trial list (e.g. SparseVI on the authors' construction, run on fewer trials): the rows are
    the trials every method ran (the first ``min`` of the lists' lengths, the trials being seeded alike). Columns
    ``trial, method, relative_rms_difference``."""
    if not isinstance(trials_of, dict) or not trials_of:
        raise TypeError(f"trials_of must be a non-empty mapping of method -> list of trials; got {type(trials_of).__name__}")
    k = check_int("k", k, low=1)
    n = min(len(t) for t in trials_of.values())
    if n == 0:
        raise ValueError("trials_of must hold at least one trial for every method")
    rows = []
    for method, trials in trials_of.items():
        for i, (made, _, runs) in enumerate(trials[:n]):
            if method not in runs:
                raise ValueError(f"trial {i} of trials_of[{method!r}] has no run of {method!r}")
            at = dict(zip(np.asarray(runs[method]["ks"]).tolist(), runs[method]["weights"]))
            if k not in at:
                raise ValueError(f"trial {i} of {method!r} has no coreset of size k = {k}; sizes: {sorted(at)}")
            rows.append({"trial": i, "method": method,
                         "relative_rms_difference": relative_rms_difference(*made, coords, at[k], grid_size)})
    return pd.DataFrame(rows)


def _relative_rms(f, truth) -> float:
    """RMS of ``f - truth`` over the grid, relative to the standard deviation of ``truth``."""
    return float(np.sqrt(np.mean((f - truth) ** 2)) / np.std(truth))


def relative_rms_difference(model, info, coords, w, grid_size: int) -> float:
    """Figs 2 and 7's number: how far the posterior-mean surface of ``π_w`` is from the full
    posterior's (``w = 1``) on the :func:`surface` grid, relative to the latter's spread."""
    f = surface(model, info, coords, w, grid_size)[2]    # checks the arguments first
    return _relative_rms(f, surface(model, info, coords, np.ones(model.N), grid_size)[2])


def contour_row(axes_row, trial: dict, k: int, row_title: str, coords, grid_size: int) -> dict:
    """Figs 2 and 7: contours of the A-IHT II coreset, true and SparseVI posterior-mean surfaces
    on three axes; ``trial`` holds ``model``, ``info`` and ``weights[method][k]``. Returns each
    coreset's relative RMS difference from the true surface."""
    m, info = trial["model"], trial["info"]
    g0, g1, truth = surface(m, info, coords, np.ones(m.N), grid_size)
    levels = np.percentile(truth, np.linspace(5, 95, 10))
    pts = coords[info["indices"]]
    out = {}
    for ax, name in zip(axes_row, ["a_iht_ii", "truth", "sparsevi"]):
        w = np.ones(m.N) if name == "truth" else trial["weights"][name][k]
        _, _, f = surface(m, info, coords, w, grid_size)
        ax.contour(g0, g1, f, levels=levels, cmap="viridis", linewidths=1.2)
        ax.scatter(pts[:, 0], pts[:, 1], s=2, color="0.8")
        if name != "truth":
            sel = np.flatnonzero(w)
            ax.scatter(pts[sel, 0], pts[sel, 1], s=40 * w[sel] / w.max(), color="k")
            out[name] = _relative_rms(f, truth)
        ax.set_title(f"{row_title}: {'true posterior' if name == 'truth' else label(name)}", fontsize=10)
        ax.set_xlabel("longitude")
        ax.set_ylabel("latitude")
    return out
