"""Result tables shown as tables: a caption, a header (one row per level of the columns), one row
per index entry, in the notebook and in its HTML report alike; their plain text (the terminal,
nbval) is the caption over the whole frame, never wrapped into column blocks.

    from IPython.display import display
    from inferopt.experiment.tables import paper_table

    display(paper_table(format_table(summary), "Table 2: CHEMREACT, the iterate with the best median train LL"))

A frame printed with ``print(frame.to_string())`` reaches the report as preformatted text, and
a displayed DataFrame wider than the terminal has a plain text wrapped into blocks of columns;
:func:`paper_table` gives both forms from one call.
"""

from __future__ import annotations

import html

import pandas as pd

from .._validation import check_int

#: the report's look for these tables (the notebook front end brings its own)
TABLE_CSS = (".paper-table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}"
             ".paper-table caption{caption-side:top;text-align:left;font-weight:600;padding:.3rem 0}"
             ".paper-table th,.paper-table td{padding:.25rem .6rem;border-bottom:1px solid #ddd;text-align:right}"
             ".paper-table thead th{border-bottom:2px solid #999}.paper-table tbody th{text-align:left}"
             ".paper-table thead th[colspan]{text-align:center;border-bottom:1px solid #999}")  # a group over its columns


class PaperTable:
    """A DataFrame with a caption, displayed as an HTML table (``_repr_html_``) with a plain-text
    form (``__repr__``); make one with :func:`paper_table`."""

    def __init__(self, frame: pd.DataFrame, caption: str, float_format=None):
        self.frame, self.caption, self.float_format = frame, caption, float_format

    def _shown(self) -> pd.DataFrame:
        """The frame with a float index written as its cells are (pandas formats only the cells)."""
        index = self.frame.index
        if self.float_format is None or not pd.api.types.is_float_dtype(index):
            return self.frame
        return self.frame.set_axis(pd.Index([self.float_format(v) for v in index], name=index.name), axis=0)

    def _repr_html_(self) -> str:
        table = self._shown().to_html(classes="paper-table", border=0, float_format=self.float_format, na_rep="—")
        opening = table.index(">") + 1
        return (f"<style>{TABLE_CSS}</style>" + table[:opening] + f"<caption>{html.escape(self.caption)}</caption>"
                + table[opening:])

    def __repr__(self) -> str:
        return self.caption + "\n" + self._shown().to_string(float_format=self.float_format, na_rep="—")


def paper_table(frame: pd.DataFrame, caption: str, *, digits: int | None = None) -> PaperTable:
    """``frame`` as a captioned table (see the module docstring); ``digits``: significant digits of
    its float cells (default: pandas' own). Raises ``TypeError`` for a ``frame`` that is not a
    DataFrame, ``ValueError`` for an empty ``caption`` or a ``digits`` below 1 (``TypeError``: a boolean)."""
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame; got {type(frame).__name__}")
    if not isinstance(caption, str) or not caption.strip():
        raise ValueError("caption must be a non-empty string (the table's title, e.g. 'Table 2: ...')")
    if digits is None:
        return PaperTable(frame, caption.strip())
    digits = check_int("digits", digits, low=1)
    return PaperTable(frame, caption.strip(), lambda v: f"{v:.{digits}g}")
