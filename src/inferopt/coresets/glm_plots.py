"""Panels of the logistic / Poisson coreset figures (Zhang et al. 2021, Figs 3, 4, 8–11):
a metric against the coreset size ``k``, median over trials with the 35th–65th percentile
band, one colour per solver and a dashed line for its NNLS re-fit variant."""

from __future__ import annotations

from ..experiment import method_colors, plot_band
from .glm_trials import trial_matrix

#: display names of :data:`~inferopt.coresets.glm_trials.METHODS`
METHOD_LABELS = {
    "uniform": "Uniform",
    "giga": "GIGA",
    "giga_refit": "GIGA + re-fit",
    "frank_wolfe": "FW",
    "frank_wolfe_refit": "FW + re-fit",
    "sparsevi": "SparseVI",
    "iht": "IHT",
    "a_iht": "A-IHT",
    "a_iht_ii": "A-IHT II",
    "a_iht_ii_refit": "A-IHT II + re-fit",
    "a_iht_batch": "A-IHT batch grad.",
}
#: one fixed colour per solver (a re-fit variant shares its solver's colour): the
#: colour-blind palette's entries picked so that no two solvers look alike
_PALETTE_INDEX = {
    "a_iht": 0, "giga": 1, "frank_wolfe": 2, "a_iht_ii": 3, "sparsevi": 4,
    "iht": 5, "uniform": 7, "a_iht_batch": 9,
}
_palette = method_colors(range(10))
COLORS = {name: _palette[i] for name, i in _PALETTE_INDEX.items()}

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
        color = COLORS[m.removesuffix("_refit")]
        plot_band(ax, ks, Y, label=METHOD_LABELS[m], color=color, ls="--" if refit else "-", lw=1.5)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel("coreset size k")
    ax.set_ylabel(METRIC_LABELS.get(metric, metric))
    if title:
        ax.set_title(title)
