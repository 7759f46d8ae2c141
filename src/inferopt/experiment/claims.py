"""Claims: a paper's qualitative statement, checked against numbers just measured.

A :class:`Claim` carries the numbers its verdict was computed from; the verdict is
``holds`` or ``fails`` from a boolean the notebook computes, ``inconclusive`` (a statistical
verdict without enough support), or ``not measured``. A failing or inconclusive claim may
carry a ``diagnosis`` (``{"kind", "text", "scale", "evidence"}``, :func:`check_diagnosis`). Each
claim quotes the paper (``quote``: ``{"text", "where"}``, by default from the catalogue
:mod:`.quotes`) and, when its test needs a number, states it (``threshold``:
``{"value", "source": "paper" | "ours", "readings"}``, :func:`check_threshold`); a verdict that
turns within the readings of a threshold of ours is ``inconclusive`` (diagnosis ``reading``).
The claims of every experiment end up in ``reports/metrics/<id>.json``, in the
scorecard of ``reports/index.html`` and, rendered the same way (:func:`claims_html`),
in each report's claims table.
"""

from __future__ import annotations

import html
import json
from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

from .support import MIN_SUPPORT, check_support

VERDICTS = ("holds", "fails", "inconclusive", "not measured")
#: why a claim does not hold: the paper's own claim fails in the faithful setting and across a
#: sweep of the choices it leaves open (``evidence["sweep"]``); it rests on data we could not
#: get; on a setting the paper does not publish (the one that rescues it named); on a
#: construction of ours that differs from the authors'; on a cut-off of ours (its readings
#: disagree)
DIAGNOSES = ("paper", "stand-in", "setting", "construction", "reading")
#: where a verdict was measured: the notebook's tiny defaults, ``params.yaml``, ``params_paper.yaml``
SCALES = ("notebook", "default", "paper")
#: who set a threshold
THRESHOLD_SOURCES = ("paper", "ours")
#: the least number of settings of a ``paper`` diagnosis's sweep, and of an ``ours`` threshold's readings
MIN_SWEEP = 3
MIN_READINGS = 3
#: whose construction a cell of a verdict map runs
CONSTRUCTIONS = ("ours", "authors")
#: the data a cell of a verdict map runs on: the paper's own, a synthetic (or reweighting) of the
#: paper's shape, or a stand-in for data we could not get
CELL_DATA = ("paper", "paper-shape", "stand-in")


class UnearnedDiagnosis(ValueError):
    """A diagnosis whose evidence does not earn its kind (:func:`paper_rules`): the claim is
    ``inconclusive``, with this message as its reason, never ``fails`` with that diagnosis."""


@dataclass(frozen=True)
class Unearned:
    """What :func:`~.verdict_map.map_diagnosis` returns when a map earns no diagnosis: the
    ``reason`` (what the map lacks) and the map itself. Given as a claim's ``diagnosis``, it
    makes a failing claim ``inconclusive`` with that reason."""

    reason: str
    evidence: dict


class DegenerateTest(ValueError):
    """A claim's test cannot decide: its statistic is not finite, or its target is met before the
    run starts. An error, never a verdict."""


def check_statistic(name: str, value) -> float:
    """``value`` as a finite float, else :class:`DegenerateTest` naming the statistic ``name``."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise DegenerateTest(f"the statistic {name!r} must be a number; got {value!r}") from None
    if not np.isfinite(v):
        raise DegenerateTest(f"the statistic {name!r} is {v}: a claim cannot be decided from a non-finite statistic")
    return v


@dataclass
class Claim:
    id: str
    target: str
    text: str
    verdict: str
    measured: dict = field(default_factory=dict)
    #: how far the verdict can be trusted (:mod:`.support`): a bootstrap's fraction of
    #: resamples holding, or a note that the verdict is one deterministic computation
    support: dict | None = None
    #: ``{"kind": one of DIAGNOSES, "text", "scale", "evidence"}`` when not holding
    diagnosis: dict | None = None
    #: the paper's own words and where they are: ``{"text", "where"}``
    quote: dict | None = None
    #: ``{"value", "source": "paper" | "ours", "readings": [{"value", "verdict"}, ...]}``
    threshold: dict | None = None
    #: why an ``inconclusive`` claim is not decided, in one line (every inconclusive claim has one)
    reason: str | None = None
    #: ``True`` for an implementation check (an identity or theorem the paper proves, run on our code): recorded and
    #: shown like a claim, outside the count of the paper's claims (:func:`paper_claims`)
    check: bool | None = None

    def __post_init__(self):
        self.id = check_claim_id(self.id)
        if not isinstance(self.text, str) or not self.text.strip():
            raise ValueError(f"claim {self.id}: text must be a non-empty sentence; got {self.text!r}")
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}; got {self.verdict!r}")
        if not isinstance(self.measured, dict):
            raise TypeError(f"claim {self.id}: measured must be a mapping of name -> number; got {type(self.measured).__name__}")
        self.measured = to_jsonable(self.measured, where=f"claim {self.id}: measured")
        if self.support is not None:
            self.support = check_support(self.support)
        if self.diagnosis is not None:
            self.diagnosis = check_diagnosis(self.diagnosis)
            if self.diagnosis["kind"] == "paper" and self.verdict != "fails":
                raise ValueError(f"claim {self.id}: a 'paper' diagnosis belongs to a 'fails' verdict; got {self.verdict!r}")
        if self.quote is not None:
            self.quote = check_quote(self.quote)
        if self.threshold is not None:
            self.threshold = check_threshold(self.threshold)
        if self.verdict == "inconclusive" and (not isinstance(self.reason, str) or not self.reason.strip()):
            raise ValueError(f"claim {self.id}: an inconclusive verdict needs its reason (one line: why it is not decided)")
        if self.verdict != "inconclusive" and self.reason is not None:
            raise ValueError(f"claim {self.id}: only an inconclusive verdict carries a reason; got {self.verdict!r}")
        if self.check not in (None, True):
            raise TypeError(f"claim {self.id}: check must be True (an implementation check) or None; got {self.check!r}")

    def to_dict(self) -> dict:
        return to_jsonable({k: v for k, v in asdict(self).items() if v is not None})


def paper_claims(claims: list[dict]) -> list[dict]:
    """The paper's claims among ``claims`` (mappings of :meth:`Claim.to_dict`): every one but the implementation checks
    (``"check": true``), which are shown but never counted."""
    return [c for c in claims if not c.get("check")]


def checks_named(claims: list[dict]) -> str:
    """The implementation checks among ``claims``, named beside a count of the paper's claims: `` (and 3 implementation
    checks)``; empty where there are none."""
    n = len(claims) - len(paper_claims(claims))
    return f" (and {n} implementation check{'s' if n > 1 else ''})" if n else ""


def check_claim_id(claim_id) -> str:
    """A claim id: a non-empty string without spaces (``A3.1b``, ``C1.2-draws100``)."""
    if not isinstance(claim_id, str) or not claim_id.strip() or any(ch.isspace() for ch in claim_id):
        raise ValueError(f"claim id must be a non-empty string without spaces, e.g. 'A3.1b'; got {claim_id!r}")
    return claim_id


def check_diagnosis(diagnosis, *, scale: str | None = None) -> dict:
    """A diagnosis as ``{"kind", "text"[, "scale"][, "evidence"]}`` from that mapping or a
    ``(kind, text)`` pair; the kind must be one of :data:`DIAGNOSES`, the text a non-empty
    sentence, ``scale`` one of :data:`SCALES` (the argument fills it when the mapping has none)
    and ``evidence`` a mapping. Kind ``paper`` must be earned by its ``evidence["sweep"]``
    (:func:`paper_rules`), else :class:`UnearnedDiagnosis`."""
    if isinstance(diagnosis, dict):
        kind, text = diagnosis.get("kind"), diagnosis.get("text")
        scale = diagnosis.get("scale", scale)
        evidence = diagnosis.get("evidence")
        unknown = set(diagnosis) - {"kind", "text", "scale", "evidence"}
        if unknown:
            raise ValueError(f"diagnosis has unknown keys {sorted(unknown)}; allowed: kind, text, scale, evidence")
    elif isinstance(diagnosis, tuple | list) and len(diagnosis) == 2:
        (kind, text), evidence = diagnosis, None
    else:
        raise TypeError(f"diagnosis must be a (kind, text) pair or a mapping with kind and text; got {diagnosis!r}")
    if kind not in DIAGNOSES:
        raise ValueError(f"diagnosis kind must be one of {DIAGNOSES}; got {kind!r}")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("diagnosis text must be a sentence of evidence; got an empty one")
    out = {"kind": kind, "text": text}
    if scale is not None:
        if scale not in SCALES:
            raise ValueError(f"diagnosis scale must be one of {SCALES}; got {scale!r}")
        out["scale"] = scale
    if evidence is not None:
        if not isinstance(evidence, dict):
            raise TypeError(f"diagnosis evidence must be a mapping; got {type(evidence).__name__}")
        out["evidence"] = evidence
    if kind == "paper":
        paper_rules(evidence or {})
    if kind == "setting" and isinstance(evidence, dict) and isinstance(evidence.get("sweep"), list | tuple):
        setting_rules(evidence["sweep"])
    return out


def setting_rules(sweep) -> None:
    """Raise :class:`UnearnedDiagnosis` unless a ``setting`` diagnosis's verdict map holds, decisively, at some
    cell: its verdict ``holds`` with a bootstrap ``support`` (the cell's verdict reads it) or a ``deterministic``
    note. A cell that holds once with draws behind it and no support could turn on another draw: no rescue."""
    cells = [c for c in sweep if isinstance(c, dict)]
    if not any(c.get("verdict") == "holds" and ("support" in c or c.get("deterministic")) for c in cells):
        bare = [setting_text(c["setting"]) for c in cells if c.get("verdict") == "holds" and isinstance(c.get("setting"), dict)]
        raise UnearnedDiagnosis("a 'setting' diagnosis needs a cell of its verdict map where the claim holds decisively "
                                "(bootstrap support of 90 % or a deterministic outcome); "
                                + (f"the cells that hold carry no support ({'; '.join(bare[:4])})" if bare else "no cell holds"))


def paper_rules(evidence: dict) -> None:
    """Raise :class:`UnearnedDiagnosis` naming what is missing unless ``evidence`` earns a
    ``paper`` diagnosis (the rubric's rule 7): ``evidence["sweep"]`` holds at least
    :data:`MIN_SWEEP` distinct, non-empty settings ``{"setting", "verdict"[, "support" |
    "deterministic"][, "construction"][, "data"]}``, every one ``fails`` and decisive (a ``support``,
    the fraction of resamples holding, of at most 1 − :data:`MIN_SUPPORT`, or a ``deterministic``
    note: nothing random to resample), and a cell runs the authors'
    construction (``"construction": "authors"``) or ``evidence["no_authors_construction"]`` says
    in a sentence why the experiment has none. Malformed cells raise ``ValueError``."""
    sweep = evidence.get("sweep")
    if not isinstance(sweep, list | tuple) or not sweep:
        raise UnearnedDiagnosis("a 'paper' diagnosis needs evidence['sweep'], the verdict map of the choices the paper "
                                f"leaves open (at least {MIN_SWEEP} settings); got {sweep!r}")
    for i, c in enumerate(sweep):
        if not isinstance(c, dict) or not isinstance(c.get("setting"), dict) or c.get("verdict") not in VERDICTS:
            raise ValueError(f"evidence['sweep'][{i}] must be {{'setting': {{...}}, 'verdict': one of {VERDICTS}}}; got {c!r}")
        if c.get("construction", "ours") not in CONSTRUCTIONS:
            raise ValueError(f"evidence['sweep'][{i}]['construction'] must be one of {CONSTRUCTIONS}; got {c['construction']!r}")
        if c.get("data", "paper") not in CELL_DATA:
            raise ValueError(f"evidence['sweep'][{i}]['data'] must be one of {CELL_DATA}; got {c['data']!r}")
    empty = [i for i, c in enumerate(sweep) if not c["setting"]]
    if empty:
        raise UnearnedDiagnosis(f"the verdict map has cells without a setting (cells {empty}): a 'paper' diagnosis needs "
                                "the open choices each cell sets")
    distinct = {json.dumps(to_jsonable(c["setting"]), sort_keys=True) for c in sweep}
    if len(distinct) < MIN_SWEEP:
        raise UnearnedDiagnosis(f"the verdict map has {len(distinct)} distinct setting(s) of {len(sweep)} cells; a 'paper' "
                                f"diagnosis needs at least {MIN_SWEEP} distinct settings")
    not_failing = [c for c in sweep if c["verdict"] != "fails"]
    if not_failing:
        shown = "; ".join(f"{setting_text(c['setting'])}: {c['verdict']}" for c in not_failing[:4])
        raise UnearnedDiagnosis(f"{len(not_failing)} of {len(sweep)} cells of the verdict map do not fail ({shown}); a "
                                "'paper' diagnosis needs every cell to fail decisively")
    unsupported = [c for c in sweep if "support" not in c and not c.get("deterministic")]
    if unsupported:
        shown = "; ".join(setting_text(c["setting"]) for c in unsupported[:4])
        raise UnearnedDiagnosis(f"{len(unsupported)} of {len(sweep)} cells of the verdict map carry neither a bootstrap "
                                f"support nor a deterministic note ({shown}): their outcome could turn on another draw, and a "
                                "'paper' diagnosis needs every cell to fail decisively")
    weak = [c for c in sweep if "support" in c and not 1.0 - float(c["support"]) >= MIN_SUPPORT]
    if weak:
        shown = "; ".join(f"{setting_text(c['setting'])}: {100 * (1 - float(c['support'])):.0f} % of resamples fail"
                          for c in weak[:4])
        raise UnearnedDiagnosis(f"{len(weak)} cells of the verdict map are not decisive ({shown}; a 'paper' diagnosis needs "
                                f"{100 * MIN_SUPPORT:.0f} % in every cell)")
    why_none = evidence.get("no_authors_construction")
    if not any(c.get("construction") == "authors" for c in sweep):
        if not isinstance(why_none, str) or not why_none.strip():
            raise UnearnedDiagnosis("the verdict map leaves out the authors' construction (no cell with "
                                    "construction='authors'), and no evidence['no_authors_construction'] says why the "
                                    "experiment has none")


def setting_text(setting: dict) -> str:
    """A setting as ``name = value, …`` (values as :func:`format_value` shows them)."""
    return ", ".join(f"{k} = {format_value(to_jsonable(v))}" for k, v in setting.items())


def check_quote(quote) -> dict:
    """The paper's words as ``{"text", "where"}`` (both non-empty strings)."""
    if not isinstance(quote, dict) or set(quote) != {"text", "where"}:
        raise ValueError(f"quote must be a mapping with exactly 'text' and 'where'; got {quote!r}")
    for key in ("text", "where"):
        if not isinstance(quote[key], str) or not quote[key].strip():
            raise ValueError(f"quote[{key!r}] must be a non-empty string; got {quote[key]!r}")
    return dict(quote)


def check_threshold(threshold) -> dict:
    """A test's number as ``{"value", "source"[, "readings"][, "unit"]}``: ``value`` a finite
    number (or a list of finite numbers, for a cut-off of several parts); ``source`` one of
    :data:`THRESHOLD_SOURCES`; a threshold of ``ours`` needs ``readings``, the verdict under at
    least :data:`MIN_READINGS` distinct values of the same form (``[{"value", "verdict"}, ...]``),
    the chosen value among them."""
    if not isinstance(threshold, dict) or "value" not in threshold or "source" not in threshold:
        raise ValueError(f"threshold must be a mapping with 'value' and 'source'; got {threshold!r}")
    unknown = set(threshold) - {"value", "source", "readings", "unit"}
    if unknown:
        raise ValueError(f"threshold has unknown keys {sorted(unknown)}; allowed: value, source, readings, unit")
    if threshold["source"] not in THRESHOLD_SOURCES:
        raise ValueError(f"threshold source must be one of {THRESHOLD_SOURCES}; got {threshold['source']!r}")
    out = dict(threshold, value=_cut_off("threshold['value']", threshold["value"]))
    if "unit" in out and not isinstance(out["unit"], str):
        raise TypeError(f"threshold['unit'] must be a string; got {out['unit']!r}")
    readings = threshold.get("readings")
    if threshold["source"] == "ours":
        if not isinstance(readings, list | tuple) or len(readings) < MIN_READINGS:
            raise ValueError(f"a threshold of ours needs readings: the verdict under at least {MIN_READINGS} "
                             f"reasonable values; got {readings!r}")
    elif readings is not None and not isinstance(readings, list | tuple):
        raise ValueError(f"threshold readings must be a list of {{'value', 'verdict'}}; got {readings!r}")
    if readings is not None:
        checked = []
        for i, r in enumerate(readings):
            if not isinstance(r, dict) or "value" not in r or r.get("verdict") not in VERDICTS:
                raise ValueError(f"threshold readings[{i}] must be {{'value', 'verdict': one of {VERDICTS}}}; got {r!r}")
            checked.append(dict(r, value=_cut_off(f"threshold readings[{i}]['value']", r["value"])))
        if threshold["source"] == "ours":
            distinct = {json.dumps(r["value"]) for r in checked}
            if len(distinct) < MIN_READINGS:
                raise ValueError(f"a threshold of ours needs at least {MIN_READINGS} distinct readings; got "
                                 f"{len(distinct)} ({sorted(distinct)})")
            if not any(_same_cut_off(r["value"], out["value"]) for r in checked):
                raise ValueError(f"the chosen value {out['value']!r} of a threshold of ours must be one of its readings "
                                 f"({[r['value'] for r in checked]})")
        out["readings"] = checked
    return out


def _cut_off(name: str, value):
    """A cut-off as a finite number, or a non-empty list of finite numbers; else ``ValueError`` naming it."""
    if isinstance(value, list | tuple | np.ndarray):
        parts = list(value)
        if not parts:
            raise ValueError(f"{name} must be a finite number or a non-empty list of them; got an empty list")
        return [_cut_off(f"{name}[{i}]", v) for i, v in enumerate(parts)]
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}")
    return int(value) if isinstance(value, int | np.integer) else float(value)


def _same_cut_off(a, b) -> bool:
    """Two cut-offs equal to the 6 significant digits the records keep."""
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and all(map(_same_cut_off, a, b))
    return bool(np.isclose(a, b, rtol=1e-6, atol=0.0))


def readings(holds_at, values, *, chosen) -> list[dict]:
    """The verdict of a test under each reading of its cut-off: ``holds_at(value) -> bool`` for
    every value of ``values`` (``chosen`` is added if absent), as ``[{"value", "verdict"}]``."""
    if not callable(holds_at):
        raise TypeError(f"holds_at must be callable value -> bool; got {type(holds_at).__name__}")
    vals = list(values)
    if chosen not in vals:
        vals.append(chosen)
    return [{"value": v, "verdict": verdict(holds_at(v))} for v in sorted(vals)]


def support_text(support) -> str:
    """A claim's support in a few words: ``97 % of 200 bootstrap resamples (10 trials)`` (with the note naming a
    group kept fixed) / the deterministic note / the gate's reason; empty without support."""
    if not support:
        return ""
    if support.get("method") == "bootstrap":
        return (f"holds in {100 * support['fraction_holding']:.0f} % of {support['n_resamples']} bootstrap "
                f"resamples of {support['n_units']} {support['unit']}s" + (f"; {support['note']}" if support.get("note") else ""))
    if support.get("method") == "gated":
        return f"gated out: {support['note']}"
    return str(support.get("note", support.get("method", "")))


def verdict(holds) -> str:
    """``holds`` / ``fails`` from a measured boolean (numpy booleans accepted)."""
    if holds is None:
        return "not measured"
    if not isinstance(holds, bool | np.bool_):
        raise ValueError(f"a claim's outcome must be a boolean computed from measurements; got {holds!r}")
    return "holds" if bool(holds) else "fails"


def to_jsonable(value, *, where: str = "value"):
    """Recursively turn numpy/pandas values and tuples into JSON values, rounding floats to 6
    significant digits (reports compare numbers, not bits; a non-finite float becomes its name,
    ``"nan"``). A pandas Series becomes ``{index: value}``, a DataFrame a list of row records,
    a timestamp its ISO text. Anything else that JSON cannot hold (a set, an object) raises
    ``TypeError`` naming where it is (``where``: the name of ``value``, e.g. ``"measured"``)."""
    if isinstance(value, dict):
        return {str(k): to_jsonable(v, where=f"{where}[{k!r}]") for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v, where=f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist(), where=where)
    if isinstance(value, pd.DataFrame):
        return to_jsonable(value.to_dict(orient="records"), where=where)
    if isinstance(value, pd.Series):
        return to_jsonable(value.to_dict(), where=where)
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        value = float(value)
        if not np.isfinite(value):
            return str(value)
        return float(f"{value:.6g}")
    if value is None or isinstance(value, str):
        return str(value) if isinstance(value, np.str_) else value
    raise TypeError(f"{where} is a {type(value).__name__} ({value!r:.60}), which a metrics JSON cannot hold: give a "
                    "number, a string, a list or a mapping of them (a set as a sorted list)")


#: CSS class of each verdict's badge.
VERDICT_CLASS = {"holds": "holds", "fails": "fails", "inconclusive": "inconclusive", "not measured": "nm"}

#: How many ``name = value`` lines of a claim's numbers show before the rest is folded away.
HEADLINE_LINES = 3

#: How many characters of an inconclusive claim's reason show beside its verdict before the rest
#: is folded away (a reason can list every cell of a verdict map: a narrow column many screens tall).
REASON_CHARS = 120
#: ... and of a diagnosis's sentence under the claim (the review page has each whole)
DIAGNOSIS_CHARS = 200

#: Styles of the claims table, shared by the index and the reports.
CLAIMS_CSS = """
table.claims{border-collapse:collapse;width:100%;font-size:.9rem;table-layout:auto!important}
table.claims th,table.claims td{border-bottom:1px solid #e3e3e3;padding:.4rem .5rem;text-align:left!important;vertical-align:top}
table.claims th{background:#f0f0f0} table.claims td.id,table.claims td.v{width:1%;white-space:nowrap}
table.claims td.measured{font-family:ui-monospace,monospace;font-size:.8rem;color:#333;min-width:16rem}
table.claims td.measured div{white-space:pre-wrap} table.claims summary{cursor:pointer;color:#555}
.verdict{font-weight:600;padding:.1rem .45rem;border-radius:4px;white-space:nowrap}
.verdict.holds{background:#d7f0dd;color:#125a24} .verdict.fails{background:#f8d7d7;color:#7a1111}
.verdict.inconclusive{background:#fdf0c8;color:#6b4d00} .verdict.nm{background:#eee;color:#555}
.diagnosis{margin-top:.3rem;font-size:.85rem;color:#444} .diagnosis b{text-transform:uppercase;font-size:.75rem}
.support{font-size:.72rem;color:#666;white-space:normal;max-width:9rem;margin-top:.15rem} .support.why{color:#6b4d00;max-width:14rem}
details.more,details.more>summary{display:inline} details.more>summary{color:inherit;list-style:none;cursor:pointer} details.more>summary::-webkit-details-marker{display:none}
.diagnosis .scale,.measured .scale{font-size:.7rem;color:#555;background:#eef;border-radius:3px;padding:0 .3rem;font-family:system-ui,sans-serif}
.verdict.stale{background:#7a1111;color:#fff;font-size:.7rem;margin-left:.3rem}
"""


def format_value(value) -> str:
    """A measured value as short text: floats to 4 significant digits, long lists cut at 8."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        shown = ", ".join(format_value(v) for v in value[:8])
        return f"[{shown}{', …' if len(value) > 8 else ''}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {format_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def measured_lines(measured: dict) -> list[str]:
    """A claim's numbers as ``name = value`` lines: scalars first (the headline), then one line
    per entry of each nested mapping (``name › key = value``), then lists."""
    scalars, nested, lists = [], [], []
    for name, value in measured.items():
        if isinstance(value, dict):
            nested += [f"{name} › {k} = {format_value(v)}" for k, v in value.items()]
        elif isinstance(value, list):
            lists.append(f"{name} = {format_value(value)}")
        else:
            scalars.append(f"{name} = {format_value(value)}")
    return scalars + nested + lists


def diagnosis_text(diagnosis) -> tuple[str, str]:
    """``(kind, sentence)`` of a claim's optional diagnosis (a mapping or ``"kind: sentence"``)."""
    if not diagnosis:
        return "", ""
    if isinstance(diagnosis, dict):
        return str(diagnosis.get("kind", "")), str(diagnosis.get("text", diagnosis.get("sentence", "")))
    kind, _, sentence = str(diagnosis).partition(": ")
    return (kind, sentence) if sentence else ("", kind)


def measured_html(measured: dict) -> str:
    """A claim's numbers as lines, the first :data:`HEADLINE_LINES` shown, the rest folded."""
    lines = [f"<div>{html.escape(line)}</div>" for line in measured_lines(measured)]
    shown, folded = lines[:HEADLINE_LINES], lines[HEADLINE_LINES:]
    if folded:
        shown.append(f"<details><summary>{len(folded)} more</summary>{''.join(folded)}</details>")
    return "".join(shown)


def claim_row_html(claim: dict, *, target: str = "") -> str:
    """One ``<tr>`` of a claims table: id, [target cell], verdict badge, claim (+ diagnosis), numbers."""
    cls = VERDICT_CLASS.get(claim["verdict"], "nm")
    return (
        f"<tr class='claim {cls}'><td class='id'>{html.escape(claim['id'])}</td>{target}"
        f"<td class='v'>{verdict_html(claim)}</td>"
        f"<td>{html.escape(claim['text'])}{diagnosis_html(claim)}</td>"
        f"<td class='measured'>{measured_html(claim['measured'])}</td></tr>"
    )


def verdict_html(claim: dict, note: str = "") -> str:
    """A claim's verdict badge with, underneath, why it is inconclusive (first: the reason decides
    the word, the support beside it may be decisive), its support and an optional ``note``."""
    cls = VERDICT_CLASS.get(claim["verdict"], "nm")
    below = "".join(f"<div class='support{' why' if t.startswith('why: ') else ''}'>{folded_text_html(t)}</div>"
                    for t in (_why(claim), support_text(claim.get("support")), note) if t)
    return f"<span class='verdict {cls}'>{html.escape(claim['verdict'])}</span>{below}"


def folded_text_html(text: str, limit: int = REASON_CHARS) -> str:
    """``text`` as HTML: whole when it has at most ``limit`` characters, else up to the last space
    before ``limit`` and ``… (more)``, the rest folded under it (``<details>``)."""
    if not isinstance(text, str):
        raise TypeError(f"text: a string, got {type(text).__name__}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"limit: a positive number of characters, got {limit!r}")
    if len(text) <= limit:
        return html.escape(text)
    cut = text.rfind(" ", 0, limit + 1)
    cut = cut if cut > 0 else limit
    return f"<details class='more'><summary>{html.escape(text[:cut])} … (more)</summary>{html.escape(text[cut:])}</details>"


def _why(claim: dict) -> str:
    """``why: …`` -- an inconclusive claim's reason, shown beside its verdict."""
    return f"why: {claim['reason']}" if claim.get("reason") else ""


def diagnosis_html(claim: dict, scale: str | None = None) -> str:
    """A claim's diagnosis: its kind, the scale it was made at (``scale``, else the diagnosis's
    own ``scale``) and its sentence; empty without one."""
    kind, sentence = diagnosis_text(claim.get("diagnosis"))
    if not sentence:
        return ""
    scale = scale or (claim["diagnosis"].get("scale") if isinstance(claim.get("diagnosis"), dict) else None)
    where = f"<span class='scale'>{html.escape(scale)} scale</span> " if scale else ""
    return f"<div class='diagnosis'><b>{html.escape(kind)}</b> {where}{folded_text_html(sentence, DIAGNOSIS_CHARS)}</div>"


def claims_html(claims: list[dict], *, rows: list[str] | None = None, target_column: bool = False) -> str:
    """The claims table: verdict colour, claim, measured numbers as short ``name = value`` lines
    (the first :data:`HEADLINE_LINES` shown, the rest behind a disclosure). ``rows`` replaces the
    default rows (the index adds a target column)."""
    head = "<th>id</th>" + ("<th>target</th>" if target_column else "") + "<th>verdict</th><th>claim</th><th>measured</th>"
    body = "".join(rows if rows is not None else (claim_row_html(c) for c in claims))
    return f"<table class='claims'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def claims_text(claims: list[dict]) -> str:
    """The plain-text fallback of :func:`claims_html`: one block per claim."""
    blocks = []
    for c in claims:
        kind, sentence = diagnosis_text(c.get("diagnosis"))
        lines = [f"{c['id']}  [{c['verdict']}]  {c['text']}"]
        lines += [f"    support: {support_text(c['support'])}"] if c.get("support") else []
        lines += [f"    {_why(c)}"] if c.get("reason") else []
        lines += [f"    diagnosis ({kind}): {sentence}"] if sentence else []
        lines += [f"    {line}" for line in measured_lines(c["measured"])]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)
