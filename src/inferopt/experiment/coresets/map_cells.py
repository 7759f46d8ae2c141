"""Decisive verdict-map cells of the coreset claims: a test re-run at one setting, with its bootstrap
support over the table's trials (:func:`~inferopt.experiment.verdict_map.cell`; a cell without support
cannot name a ``setting`` nor count towards ``paper``)."""

from __future__ import annotations

import pandas as pd

from ..claims import MIN_SWEEP, Unearned
from ..support import bootstrap_support
from ..verdict_map import cell, map_diagnosis

__all__ = ["diagnose", "supported_cell"]


def supported_cell(exp, setting: dict, test, table: pd.DataFrame, **kw) -> dict:
    """``test(table)`` at ``setting`` with its bootstrap support over ``table``'s trials (seeded by the
    experiment's seed); ``kw``: ``construction`` / ``data`` of :func:`~inferopt.experiment.verdict_map.cell`."""
    seed = int(exp.params.get("seed", 0) or 0)
    return cell(setting, test(table), support=bootstrap_support(test, table, by="trial", seed=seed), **kw)


def diagnose(cells: list[dict], text: str, **kw):
    """:func:`~inferopt.experiment.verdict_map.map_diagnosis` of ``cells``, or, with fewer than the
    :data:`~inferopt.experiment.claims.MIN_SWEEP` settings a map needs (a grid too small at this scale),
    :class:`~inferopt.experiment.claims.Unearned` saying so (the claim is then ``inconclusive``)."""
    if len(cells) < MIN_SWEEP:
        return Unearned(f"the verdict map has {len(cells)} setting(s) at this scale, fewer than {MIN_SWEEP}", {"sweep": cells})
    return map_diagnosis(cells, text, **kw)
