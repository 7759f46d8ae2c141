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

import pandas as pd

from .blas import blas_config
from .claims import (CLAIMS_CSS, Claim, Unearned, UnearnedDiagnosis, check_claim_id, check_diagnosis, check_threshold,
                     claims_html, claims_text, format_value, to_jsonable, verdict)
from .quotes import quote_of
from .parameters import check_parameters
from .support import bootstrap_support, check_support, deterministic, support_reason, supported_verdict
from .._validation import check_callable
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
              threshold: dict | None = None, check: bool = False) -> Claim:
        """Record claim ``id``: its verdict is computed from ``holds`` (a boolean derived
        from ``measured``), or ``not measured`` if ``holds`` is None.

        ``test`` and ``table``: the claim as a function ``test(table) -> bool`` of the tidy
        table of independent trials (column ``by``); ``holds`` is then ``test(table)`` and the
        verdict carries its bootstrap support (:func:`~.support.bootstrap_support`, seeded by
        the notebook's ``seed``): ``inconclusive`` below 90 % agreement. ``support``: a
        support given directly (default for ``holds``: :func:`~.support.deterministic`, a
        computation without trials to resample).

        ``diagnosis``: why the claim does not hold (``(kind, sentence)``, a mapping, or what
        :func:`~.verdict_map.map_diagnosis` returns), kept only when the verdict is not
        ``holds``; its ``scale`` is this run's (:attr:`scale`) unless given. The rubric's rules
        are enforced here (:func:`~.claims.paper_rules`): a ``paper`` diagnosis whose verdict
        map does not earn it, or an :class:`~.claims.Unearned` one, turns a ``fails`` into
        ``inconclusive`` with the reason; on an experiment that declares a stand-in
        (:attr:`stand_ins`) either becomes ``stand-in`` unless a cell of the map runs data of the
        paper's shape; a ``paper`` diagnosis is never kept on an ``inconclusive`` verdict.

        ``quote``: the paper's words ``{"text", "where"}`` (default: the catalogue's entry for
        ``id``, :func:`~.quotes.quote_of`). ``threshold``: the test's number
        (:func:`~.claims.check_threshold`); when it is ours and its decisive ``readings`` disagree (one holds, one
        fails; an ``inconclusive`` reading, :func:`~.support.supported_readings`, decides nothing), the
        verdict is ``inconclusive``: the diagnosis ``reading`` names them, or, when the notebook
        computed a specific diagnosis (``construction``, ``stand-in``, ``reading`` -- B5.9: the readings' own numbers in its
        words --, or ``setting`` unless the claim holds at its chosen reading and at every cell of its map), the readings
        join it (its text and ``evidence["readings"]``).

        ``check``: an implementation check (an identity or theorem the paper proves, run on our code), recorded like
        a claim and counted apart from the paper's claims (:func:`~.claims.paper_claims`).

        Every ``inconclusive`` claim carries its ``reason`` (one line). Arguments are checked
        before anything runs."""
        id = check_claim_id(id)
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"claim {id}: text must be a non-empty sentence; got {text!r}")
        if measured is not None and not isinstance(measured, dict):
            raise TypeError(f"claim {id}: measured must be a mapping of name -> number; got {type(measured).__name__}")
        if not isinstance(check, bool):
            raise TypeError(f"claim {id}: check must be True or False; got {check!r}")
        measured = to_jsonable(measured or {}, where=f"claim {id}: measured")
        if threshold is not None:
            threshold = to_jsonable(check_threshold(threshold))
        if support is not None:
            support = check_support(support)
        if test is not None:
            if holds is not None or support is not None:
                raise ValueError(f"claim {id}: give either test and table (holds and support are computed) or holds")
            check_callable("test", test)
            holds = test(table)
            support = bootstrap_support(test, table, by=by, seed=int(self.params.get("seed", 0) or 0))
        outcome = verdict(holds)
        if support is None and outcome != "not measured":
            support = deterministic()
        reason = None
        if outcome != "not measured":
            reason = support_reason(outcome == "holds", support)
            outcome = supported_verdict(outcome == "holds", support)
        if outcome == "not measured" and diagnosis is not None:
            raise ValueError(f"claim {id} is not measured: a diagnosis explains a measured verdict that does not hold; "
                             "give none")
        diagnosis, unearned = self._checked_diagnosis(diagnosis)
        if outcome == "fails" and unearned:
            outcome, reason, diagnosis = "inconclusive", unearned, None
        # a `setting` diagnosis of a claim that holds at its chosen reading rescues nothing unless its map has a cell
        # where the claim fails (the chosen setting is then one of the rescuing open choices)
        rescues = diagnosis is not None and (outcome != "holds" or any(
            c.get("verdict") == "fails" for c in (diagnosis.get("evidence") or {}).get("sweep", ())))
        gated = support is not None and support.get("method") == "gated"   # a gate decides nothing: no reading turns it
        if threshold is not None and threshold["source"] == "ours" and outcome != "not measured" and not gated:
            # only decisive readings can turn the verdict (a reading undecided by its own support is no evidence)
            turns = {r["verdict"] for r in threshold.get("readings", ())} - {"not measured", "inconclusive"}
            if len(turns) > 1:
                shown = ", ".join(f"{format_value(r['value'])}: {r['verdict']}" for r in threshold["readings"])
                sentence = f"The verdict turns within reasonable readings of our cut-off ({shown}; chosen {format_value(threshold['value'])})."
                turning = f"the verdict turns within the readings of our cut-off ({shown})"
                reason = f"{reason}; and {turning}" if outcome == "inconclusive" and reason else turning
                outcome = "inconclusive"
                if diagnosis is not None and diagnosis["kind"] in ("construction", "stand-in", "reading") + (("setting",) if rescues else ()):
                    diagnosis = dict(diagnosis, text=f"{diagnosis['text']} {sentence}",
                                     evidence={**diagnosis.get("evidence", {}), "readings": threshold["readings"]})
                else:
                    diagnosis = {"kind": "reading", "text": sentence, "scale": self.scale,
                                 "evidence": {"readings": threshold["readings"]}}
        if outcome == "holds" or (diagnosis is not None and diagnosis["kind"] == "paper" and outcome != "fails"):
            diagnosis = None
        claim = Claim(id=id, target=self.id, text=text, verdict=outcome, measured=measured,
                      support=to_jsonable(support) if support is not None else None,
                      diagnosis=to_jsonable(diagnosis) if diagnosis is not None else None,
                      quote=quote if quote is not None else quote_of(id), threshold=threshold, reason=reason,
                      check=True if check else None)
        self.claims = [c for c in self.claims if c.id != id] + [claim]
        return claim

    def _checked_diagnosis(self, diagnosis) -> tuple[dict | None, str | None]:
        """``(diagnosis, None)`` checked and with this run's scale, or ``(None, reason)`` when it
        is :class:`~.claims.Unearned` or a ``paper`` diagnosis its map does not earn. On an
        experiment that declares a stand-in (:attr:`stand_ins`), a ``paper`` map (every cell failing
        decisively: the stand-in's data show the failure with the power of those cells) without a
        cell on data of the paper's shape becomes ``stand-in``; an unearned map stays undecided."""
        if diagnosis is None:
            return None, None
        if isinstance(diagnosis, Unearned):
            # a map that earns nothing is undecided, on a stand-in as anywhere: blaming the stand-in needs a map that fails
            # decisively (below), not one that cannot tell
            return None, f"no diagnosis is earned: {diagnosis.reason}"
        if isinstance(diagnosis, dict) and diagnosis.get("kind") == "paper":
            stand_in = self._stand_in(str(diagnosis.get("text", "")), diagnosis.get("evidence") or {})
            diagnosis = dict(stand_in, scale=diagnosis.get("scale", self.scale)) if stand_in else diagnosis
        try:
            return check_diagnosis(diagnosis, scale=self.scale), None
        except UnearnedDiagnosis as exc:
            return None, f"a 'paper' diagnosis was refused: {exc}"

    def _stand_in(self, text: str, evidence: dict) -> dict | None:
        """The ``stand-in`` diagnosis of a failure this experiment's map attributes to the paper,
        when the experiment declares stand-in data (:attr:`stand_ins`) and no cell of the map
        (``evidence["sweep"]``) runs data of the paper's shape (``"data": "paper"`` or
        ``"paper-shape"``); None otherwise."""
        sweep = evidence.get("sweep") or []
        if not self.stand_ins or any(isinstance(c, dict) and c.get("data") in ("paper", "paper-shape") for c in sweep):
            return None
        return {"kind": "stand-in", "evidence": evidence,
                "text": f"{text} This experiment runs on a stand-in ({'; '.join(self.stand_ins)}), and no cell of its map "
                        "runs data of the paper's shape: the failure is the stand-in's until one does."}

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
            "run": {"blas": blas_config()},   # the BLAS computed with: kernel, version, threads (issue 40)
        }
        tmp = self.metrics_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(payload, indent=2, sort_keys=False) + "\n")
        os.replace(tmp, self.metrics_path)
        return self.metrics_path


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
