"""One plotting style for every figure, and saving figures where the reports find them."""

from __future__ import annotations

import matplotlib as mpl
import matplotlib.pyplot as plt
import seaborn as sns

#: Colour-blind-safe palette (seaborn's "colorblind"), used in this order by every figure.
PALETTE = "colorblind"


def set_style(context: str = "notebook") -> None:
    """Seaborn ticks style, readable fonts, colour-blind palette, crisp PNGs."""
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
