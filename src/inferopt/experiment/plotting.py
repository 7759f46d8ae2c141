"""One plotting style for every figure, and saving figures where the reports find them."""

from __future__ import annotations

import matplotlib as mpl
import numpy as np
import matplotlib.pyplot as plt
import seaborn as sns

#: Colour-blind-safe palette (seaborn's "colorblind"), used in this order by every figure.
PALETTE = "colorblind"


def _inline_in_kernels() -> None:
    """In a Jupyter kernel, draw figures inline whatever ``MPLBACKEND`` says: the pipeline and
    the tests run with ``MPLBACKEND=Agg``, which a kernel would otherwise inherit, leaving the
    executed notebooks (and their HTML reports) without figures."""
    try:
        from IPython import get_ipython
    except ImportError:  # plain Python: keep the configured backend
        return
    shell = get_ipython()
    if shell is not None and getattr(shell, "kernel", None) is not None:
        shell.run_line_magic("matplotlib", "inline")


def set_style(context: str = "notebook") -> None:
    """Seaborn ticks style, readable fonts, colour-blind palette, crisp PNGs; figures inline
    in notebooks."""
    _inline_in_kernels()
    sns.set_theme(context=context, style="ticks", palette=PALETTE, font_scale=1.0)
    mpl.rcParams.update(
        {
            "figure.dpi": 100,
            "savefig.dpi": 120,
            "savefig.bbox": "tight",
            "axes.grid": True,
            "grid.alpha": 0.3,
            "legend.frameon": False,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )


def method_colors(names) -> dict:
    """A fixed colour per method name, so a method has one colour across panels."""
    colors = sns.color_palette(PALETTE, n_colors=max(len(names), 1))
    return dict(zip(names, colors, strict=False))


def close(fig) -> None:
    """Close a figure once it is shown and saved (keeps notebooks' memory flat)."""
    plt.close(fig)


def plot_band(ax, x, Y, *, label=None, color=None, q=(35, 65), **line_kw):
    """Median over trials with a percentile band (the coreset papers' 35th-65th).

    ``Y`` has one row per trial and one column per ``x``; NaNs (e.g. a method that did not
    reach a size) are ignored column-wise. Returns the median line.
    """
    x = np.asarray(x, dtype=float)
    Y = np.atleast_2d(np.asarray(Y, dtype=float))
    if Y.shape[1] != x.size:
        raise ValueError(f"Y must have one column per x value ({x.size}); got shape {Y.shape}")
    lo, hi = q
    if not 0 <= lo < hi <= 100:
        raise ValueError(f"q must be two percentiles 0 <= lo < hi <= 100; got {q}")
    (line,) = ax.plot(x, np.nanmedian(Y, axis=0), label=label, color=color, **line_kw)
    if Y.shape[0] > 1:
        ax.fill_between(x, *np.nanpercentile(Y, [lo, hi], axis=0), color=line.get_color(), alpha=0.2, lw=0)
    return line
