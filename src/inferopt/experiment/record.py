"""The :class:`Experiment` a notebook writes its outputs through.

It knows where outputs go (``<output_dir>/figures/<id>/``, ``<output_dir>/metrics/<id>.json``,
tidy result tables in ``<output_dir>/results/<id>/<name>.csv``),
collects the notebook's parameters, headline metrics and claims, and writes the
metrics JSON of the project's contract::

    {"experiment", "title", "paper", "figure", "params", "metrics", "figures",
     "stand_ins", "claims": [{"id", "target", "text", "verdict", "measured"[, "support"][, "diagnosis"]}]}
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from .claims import CLAIMS_CSS, Claim, check_diagnosis, check_threshold, claims_html, claims_text, to_jsonable, verdict
from .quotes import quote_of
from .parameters import check_parameters
from .support import bootstrap_support, deterministic, supported_verdict
from .._config import check_experiments, experiments, load_params
from .._paths import repo_root, resolve
from .._validation import check_file_name


def parameters_since(namespace: dict, before: set) -> dict:
    """The names a notebook's parameters cell (and papermill's injected cell) defined:
    those in ``namespace`` but not in ``before``, skipping private and module objects."""
    return {
        name: value
        for name, value in namespace.items()
        if name not in before and not name.startswith("_") and not callable(value) and not hasattr(value, "__file__")
    }


def registry_entry(experiment_id: str) -> dict:
    """The experiment's entry of the ``experiments:`` registry in ``params.yaml`` (notebook,
    title, paper, figure): the one place an experiment's metadata is written."""
    registry = experiments(load_params(repo_root()))
    check_experiments([experiment_id], registry)
    return registry[experiment_id]


class Experiment:
    """Outputs of one experiment notebook.

    Parameters
    ----------
    id : the experiment id of REPRODUCTION.md, e.g. ``"D1"``.
    title, paper, figure : shown on the report's card; by default read from the experiment's
        entry in ``params.yaml`` (:func:`registry_entry`).
    params : the notebook's parameters (see :func:`parameters_since`); ``output_dir``
        among them picks where outputs go (default ``build/scratch``, which the
        pipeline replaces by ``reports``) and is not recorded.
    """

    def __init__(self, id: str, *, params: dict, title: str | None = None, paper: str | None = None,
                 figure: str | None = None):
        self.id = id
        if title is None or paper is None or figure is None:
            entry = registry_entry(id)
            title, paper, figure = (entry.get("title") if title is None else title,
                                    entry.get("paper") if paper is None else paper,
                                    entry.get("figure") if figure is None else figure)
        self.title = title
        self.paper = paper
        self.figure = figure
        params = dict(params)
        self.output_dir = resolve(params.pop("output_dir", "build/scratch"))
        self.params = check_parameters(id, params)
        self.metrics: dict = {}
        self.claims: list[Claim] = []
        self.figures: list[str] = []
        self.stand_ins: list[str] = []
        #: the names of the researcher's own methods of this run (``extra_methods``, :mod:`.extra`)
        self.extra_methods: list[str] = []
        self.figure_dir.mkdir(parents=True, exist_ok=True)
        self.metrics_path.parent.mkdir(parents=True, exist_ok=True)

    @property
    def figure_dir(self) -> Path:
        return self.output_dir / "figures" / self.id

    @property
    def results_dir(self) -> Path:
        return self.output_dir / "results" / self.id

    @property
    def metrics_path(self) -> Path:
        return self.output_dir / "metrics" / f"{self.id}.json"

    def savefig(self, fig, name: str) -> Path:
        """Save ``fig`` as ``<figure_dir>/<name>.png``; the first saved is the card's thumbnail."""
        path = self.figure_dir / f"{name}.png"
        fig.savefig(path)
        rel = path.relative_to(self.output_dir).as_posix()
        if rel not in self.figures:
            self.figures.append(rel)
        return path

    def save_results(self, name: str, frame: pd.DataFrame) -> Path:
        """Write a tidy table of measurements as ``<results_dir>/<name>.csv`` (atomically), so the
        numbers behind a figure are on disk and a later experiment can read them with
        :func:`load_results` instead of recomputing them. ``name`` is a plain file name: the table
        never lands outside ``<results_dir>``."""
        check_file_name("name", name)
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"save_results needs a pandas DataFrame; got {type(frame).__name__}")
        self.results_dir.mkdir(parents=True, exist_ok=True)
        path = self.results_dir / f"{name}.csv"
        tmp = path.with_suffix(".csv.tmp")
        frame.to_csv(tmp, index=False)
        os.replace(tmp, path)
        return path

    @property
    def scale(self) -> str:
        """Where this run's verdicts are measured (:data:`~.claims.SCALES`): ``paper`` under
        ``reports/paper``, ``default`` under ``reports``, else ``notebook`` (the tiny defaults)."""
        parts = self.output_dir.resolve().relative_to(repo_root()).parts if self.output_dir.resolve().is_relative_to(repo_root()) else ()
        if parts[:2] == ("reports", "paper"):
            return "paper"
        return "default" if parts[:1] == ("reports",) else "notebook"

    def claim(self, id: str, text: str, holds=None, measured: dict | None = None, *, test=None, table=None,
              by: str = "trial", support: dict | None = None, diagnosis=None, quote: dict | None = None,
              threshold: dict | None = None) -> Claim:
        """Record claim ``id``: its verdict is computed from ``holds`` (a boolean derived
        from ``measured``), or ``not measured`` if ``holds`` is None.

        ``test`` and ``table``: the claim as a function ``test(table) -> bool`` of the tidy
        table of independent trials (column ``by``); ``holds`` is then ``test(table)`` and the
        verdict carries its bootstrap support (:func:`~.support.bootstrap_support`, seeded by
        the notebook's ``seed``): ``inconclusive`` below 90 % agreement. ``support``: a
        support given directly (default for ``holds``: :func:`~.support.deterministic`, a
        computation without trials to resample). ``diagnosis``:
        ``(kind, sentence)`` why the claim does not hold (kinds:
        :data:`~.claims.DIAGNOSES`), kept only when the verdict is not ``holds``; its ``scale``
        is this run's (:attr:`scale`) unless given; a ``paper`` diagnosis (the paper's claim fails) is kept only on a
        ``fails`` verdict, never on an ``inconclusive`` one (too little support to say the claim fails).
        ``quote``: the paper's words ``{"text", "where"}`` (default: the catalogue's entry for
        ``id``, :func:`~.quotes.quote_of`). ``threshold``: the test's number
        (:func:`~.claims.check_threshold`); when it is ours and its ``readings`` disagree, the
        verdict is ``inconclusive`` with the diagnosis ``reading`` (the readings named).
        """
        if test is not None:
            if holds is not None or support is not None:
                raise ValueError("give either test and table (holds and support are computed) or holds")
            holds = bool(test(table))
            support = bootstrap_support(test, table, by=by, seed=int(self.params.get("seed", 0) or 0))
        outcome = verdict(holds)
        if support is None and outcome != "not measured":
            support = deterministic()
        if outcome != "not measured":
            outcome = supported_verdict(outcome == "holds", support)
        if threshold is not None:
            threshold = to_jsonable(check_threshold(threshold))
            turns = {r["verdict"] for r in threshold.get("readings", ())} - {"not measured"}
            if threshold["source"] == "ours" and len(turns) > 1 and outcome != "not measured":
                outcome = "inconclusive"
                shown = ", ".join(f"{r['value']}: {r['verdict']}" for r in threshold["readings"])
                diagnosis = {"kind": "reading", "text": f"The verdict turns within reasonable readings of our cut-off "
                             f"({shown}; chosen {threshold['value']}).",
                             "evidence": {"readings": threshold["readings"]}}
        if _kind(diagnosis) == "paper" and outcome != "fails":
            diagnosis = None
        claim = Claim(id=id, target=self.id, text=text, verdict=outcome, measured=to_jsonable(measured or {}),
                      support=to_jsonable(support) if support is not None else None,
                      diagnosis=to_jsonable(check_diagnosis(diagnosis, scale=self.scale))
                      if diagnosis is not None and outcome != "holds" else None,
                      quote=quote if quote is not None else quote_of(id), threshold=threshold)
        self.claims = [c for c in self.claims if c.id != id] + [claim]
        return claim

    def claims_table(self) -> "ClaimsTable":
        """The claims as a table (the notebook's last cell shows it): displayed in a notebook as
        the index renders its scorecard (verdict colour, claim, ``name = value`` lines), a
        DataFrame with a plain-text form otherwise."""
        rows = [
            {"id": c.id, "verdict": _verdict_cell(c), "claim": c.text, "measured": _format_measured(c.measured)}
            for c in self.claims
        ]
        table = ClaimsTable(pd.DataFrame(rows, columns=["id", "verdict", "claim", "measured"]).set_index("id"))
        table.attrs["claims"] = [c.to_dict() for c in self.claims]
        return table

    def finish(self) -> None:
        """The notebook's closing call: write the metrics JSON (:meth:`write`) and print the claims table."""
        self.write()
        with pd.option_context("display.max_colwidth", 200, "display.width", 250):
            print(self.claims_table().to_string())

    def write(self) -> Path:
        """Write the metrics JSON atomically (a failed run leaves the previous file intact)."""
        payload = {
            "experiment": self.id,
            "title": self.title,
            "paper": self.paper,
            "figure": self.figure,
            "params": to_jsonable(self.params),
            "metrics": to_jsonable(self.metrics),
            "figures": self.figures,
            "stand_ins": self.stand_ins,
            "claims": [c.to_dict() for c in self.claims],
        }
        tmp = self.metrics_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(payload, indent=2, sort_keys=False) + "\n")
        os.replace(tmp, self.metrics_path)
        return self.metrics_path


def _kind(diagnosis) -> str | None:
    """The kind of a diagnosis given as a mapping or a ``(kind, text)`` pair (None without one)."""
    if isinstance(diagnosis, dict):
        return diagnosis.get("kind")
    return diagnosis[0] if isinstance(diagnosis, tuple | list) and diagnosis else None


def load_results(experiment_id: str, name: str, output_dir: str | os.PathLike = "build/scratch") -> pd.DataFrame:
    """The table ``name`` that experiment ``experiment_id`` saved under ``output_dir`` (see
    :meth:`Experiment.save_results`); the error says which stage to run if it is missing."""
    path = resolve(output_dir) / "results" / experiment_id / f"{name}.csv"
    if not path.exists():
        raise FileNotFoundError(
            f"{path} does not exist: experiment {experiment_id} writes it; run it first "
            f"(dvc repro {experiment_id}, or execute its notebook with the same output_dir)"
        )
    return pd.read_csv(path)


class ClaimsTable(pd.DataFrame):
    """The claims DataFrame of :meth:`Experiment.claims_table`; IPython displays it as HTML
    (:func:`~inferopt.experiment.claims.claims_html`) with a plain-text fallback."""

    @property
    def _constructor(self):
        return pd.DataFrame  # slices and copies are plain frames

    def _repr_html_(self) -> str:
        return f"<style>{CLAIMS_CSS}</style>" + claims_html(self.attrs.get("claims", []))

    def __repr__(self) -> str:
        return claims_text(self.attrs.get("claims", []))


def _verdict_cell(claim: Claim) -> str:
    """The verdict, with the bootstrap's percentage of resamples holding when it has one."""
    if claim.support and claim.support.get("method") == "bootstrap":
        return f"{claim.verdict} ({100 * claim.support['fraction_holding']:.0f} %)"
    return claim.verdict


def _format_measured(measured: dict) -> str:
    """The text of the DataFrame's ``measured`` column (notebooks print it; nbval compares it)."""

    def fmt(v):
        if isinstance(v, float):
            return f"{v:.4g}"
        if isinstance(v, list):
            return "[" + ", ".join(fmt(x) for x in v) + "]"
        return str(v)

    return "; ".join(f"{k} = {fmt(v)}" for k, v in measured.items())
