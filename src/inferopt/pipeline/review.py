"""The review page ``reports/paper/REVIEW.md``: every claim beside the paper's own words.

For each paper, each experiment and each claim the page sets out, from the committed metrics
(``reports/paper/metrics/<id>.json``, the papers' scale) and, where present, the default
scale's (``reports/metrics/<id>.json``): the paper's words and where they are (the claim's
``quote``, else the catalogue's, :func:`~inferopt.experiment.quotes.quote_of`), our test (the
claim's text), the verdict and support at both scales, the test's threshold with its source
and readings, the diagnosis with its kind, scale and evidence (a sweep drawn as a small verdict
map), and what would change the verdict, read off those same records.
"""

from __future__ import annotations

from pathlib import Path

from ..experiment.claims import format_value, measured_lines, support_text
from ..experiment.quotes import quote_of
from ..experiment.support import MIN_SUPPORT
from .layout import PAPER_DIR
from .metrics_file import metrics_files, read_metrics
from .paper_state import SHOWN_REASONS, paper_results, run_note, short_reasons

#: the page, relative to the project's root
REVIEW = PAPER_DIR / "REVIEW.md"
#: the metrics of each scale, relative to the project's root
METRICS = {"paper": PAPER_DIR / "metrics", "default": Path("reports") / "metrics"}


def load_claims(root: Path) -> dict:
    """``{experiment id: {"meta": metrics JSON without claims, "paper": {claim id: claim},
    "default": {...}}}`` for every experiment with a metrics JSON at either scale, sorted by id."""
    out: dict = {}
    for scale, folder in METRICS.items():
        for path in metrics_files(root / folder):
            data = read_metrics(path)
            entry = out.setdefault(data.get("experiment", path.stem), {"meta": {}, "paper": {}, "default": {}})
            entry["meta"] = entry["meta"] or {k: v for k, v in data.items() if k != "claims"}
            entry[scale] = {c["id"]: c for c in data.get("claims", [])}
    return dict(sorted(out.items()))


def _cell(text) -> str:
    """``text`` safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def quote_block(claim: dict) -> str:
    """The paper's words (the claim's quote, else the catalogue's) as a Markdown quote."""
    quote = claim.get("quote") or quote_of(claim["id"])
    if not quote:
        return "> *(no quote of the paper recorded for this claim)*"
    return f"> {quote['text']}\n>\n> — *{quote['where']}*"


def threshold_text(threshold: dict | None) -> str:
    """``3 (ours; readings 2: holds, 3: fails, 5: fails)`` or ``—``."""
    if not threshold:
        return "—"
    readings = threshold.get("readings") or []
    shown = ", ".join(f"{format_value(r['value'])}: {r['verdict']}" for r in readings)
    unit = f" {threshold['unit']}" if threshold.get("unit") else ""
    return f"{format_value(threshold['value'])}{unit} ({threshold['source']}" + (f"; readings {shown}" if shown else "") + ")"


def sweep_table(sweep: list[dict]) -> str:
    """A diagnosis's verdict map: one row per setting, one column per open choice."""
    keys = list(dict.fromkeys(k for cell in sweep for k in cell["setting"]))
    head = "| " + " | ".join(keys + ["verdict"]) + " |\n|" + " --- |" * (len(keys) + 1)
    rows = ["| " + " | ".join(_cell(format_value(cell["setting"].get(k, ""))) for k in keys) + f" | {cell['verdict']} |"
            for cell in sweep]
    return "\n".join([head, *rows])


def diagnosis_block(diagnosis: dict, scale: str) -> str:
    """A diagnosis as a paragraph (kind, scale, text), its evidence as lines and its sweep as a table."""
    lines = [f"**Diagnosis ({diagnosis.get('kind', '?')}, {diagnosis.get('scale', scale)} scale).** {diagnosis.get('text', '')}"]
    evidence = dict(diagnosis.get("evidence") or {})
    sweep = evidence.pop("sweep", None)
    lines += [f"- evidence: {line}" for line in measured_lines(evidence)]
    if sweep:
        lines += ["", "Verdict map (the open choices swept, one setting per row):", "", sweep_table(sweep)]
    return "\n".join(lines)


def what_would_change(by_scale: dict) -> list[str]:
    """Sentences on what would turn each scale's verdict, read off its own record: readings of a
    threshold of ours that disagree, settings of a sweep with another verdict, the bootstrap's
    margin, a missing run."""
    out = []
    for scale, claim in by_scale.items():
        if claim is None:
            out.append(f"No {scale}-scale verdict is recorded: running that scale would give one.")
            continue
        v = claim["verdict"]
        threshold = claim.get("threshold") or {}
        other = [r for r in threshold.get("readings", []) if r["verdict"] != v]
        if other:
            out.append(f"{scale}: reading the cut-off as " + ", ".join(f"{format_value(r['value'])} ({r['verdict']})" for r in other)
                       + f" instead of {format_value(threshold['value'])}.")
        elif threshold.get("readings"):
            out.append(f"{scale}: no reading of the cut-off in {[r['value'] for r in threshold['readings']]} changes it.")
        sweep = ((claim.get("diagnosis") or {}).get("evidence") or {}).get("sweep") or []
        flips = [c for c in sweep if c["verdict"] != v]
        if flips:
            out.append(f"{scale}: the swept settings " + "; ".join(f"{format_value(c['setting'])} ({c['verdict']})" for c in flips) + ".")
        support = claim.get("support") or {}
        if support.get("method") == "bootstrap":
            f = support["fraction_holding"]
            if v == "inconclusive" and max(f, 1 - f) < MIN_SUPPORT:
                out.append(f"{scale}: {100 * f:.0f} % of the bootstrap resamples hold, short of the 90 % either way: more trials could settle it.")
            elif v == "inconclusive":
                out.append(f"{scale}: the bootstrap is decisive ({100 * max(f, 1 - f):.0f} % of resamples agree); the verdict is "
                           "inconclusive for the reason above, which more trials would not change.")
            else:
                agree = f if v == "holds" else 1 - f
                out.append(f"{scale}: {100 * agree:.0f} % of the bootstrap resamples agree with the verdict (90 % needed): "
                           "fewer agreeing trials would make it inconclusive.")
        elif support.get("method") == "deterministic":
            out.append(f"{scale}: one computation, no trials to resample: only a change of data, settings or test moves it.")
        if (claim.get("diagnosis") or {}).get("kind") == "setting":
            out.append(f"{scale}: the setting named in the diagnosis.")
    return out


def claim_section(claim_id: str, by_scale: dict, stale: str | None) -> str:
    """One claim: the paper's words, our test, the verdicts, threshold, diagnoses, what would change it;
    ``stale``: why the paper-scale run is stale (:func:`.paper_state.stale_reasons`), None when current."""
    any_claim = next(c for c in by_scale.values() if c is not None)
    parts = [f"#### {claim_id}", "", "**The paper.**", "", quote_block(any_claim), "",
             f"**Our test.** {any_claim['text']}", ""]
    texts = {s: c["text"] for s, c in by_scale.items() if c is not None}
    if len(set(texts.values())) > 1:
        parts += [f"*(at the {s} scale: {t})*" for s, t in texts.items() if t != any_claim["text"]] + [""]
    parts += ["| scale | verdict | support | threshold |", "| --- | --- | --- | --- |"]
    for scale, claim in by_scale.items():
        if claim is None:
            parts.append(f"| {scale} | not run | | |")
            continue
        note = f" STALE ({stale})" if scale == "paper" and stale else ""
        parts.append(f"| {scale} | **{claim['verdict']}**{_cell(note)} | {_cell(support_text(claim.get('support')))} "
                     f"| {_cell(threshold_text(claim.get('threshold')))} |")
    parts.append("")
    parts += [f"*Why inconclusive ({scale} scale):* {claim['reason']}.\n" for scale, claim in by_scale.items()
              if claim is not None and claim.get("reason")]
    for scale, claim in by_scale.items():
        if claim is not None and claim.get("diagnosis"):
            parts += [diagnosis_block(claim["diagnosis"], scale), ""]
    measured = (by_scale.get("paper") or any_claim).get("measured") or {}
    if measured:
        parts += ["<details><summary>measured" + (" (paper scale)" if by_scale.get("paper") else "") + "</summary>", "",
                  *(f"- {_cell(line)}" for line in measured_lines(measured)), "", "</details>", ""]
    rerun = [f"paper: its run is STALE ({stale}): a fresh `make paper` run of the current code and parameters may "
             "turn it."] if stale and by_scale.get("paper") else []
    parts += ["**What would change the verdict.**", "", *(f"- {s}" for s in rerun + what_would_change(by_scale)), ""]
    return "\n".join(parts)


def review_markdown(root: Path, registry: dict | None = None) -> str:
    """The review page for the metrics under ``root``; ``registry`` (the experiments of
    ``params.yaml``) adds whether each paper-scale run is current (:mod:`.paper_state`)."""
    experiments = load_claims(root)
    state = paper_results(root, registry) if registry else {}
    papers: dict = {}
    for exp_id, entry in experiments.items():
        papers.setdefault(entry["meta"].get("paper", "?"), []).append(exp_id)
    parts = ["# Review: each claim beside the paper's words", "",
             "Generated by `python -m inferopt.pipeline review` from the committed metrics: the papers' scale "
             "(`reports/paper/metrics/`) and, where present, the default scale (`reports/metrics/`). For each claim: "
             "the paper's words and where they are, our test in plain words, the verdict and its support at both "
             "scales, the threshold (who set it and, for ours, the verdict under other readings), the diagnosis with "
             "its evidence, and what would change the verdict.", ""]
    for paper, ids in papers.items():
        parts += [f"## {paper}", ""]
        for exp_id in ids:
            entry = experiments[exp_id]
            meta = entry["meta"]
            parts += [f"### {exp_id}: {meta.get('title', '')} ({meta.get('figure', '')})", ""]
            stale = None
            if exp_id in state:
                parts += [f"*{run_note(state[exp_id])}*", ""]
                reasons = state[exp_id]["stale"]
                stale = short_reasons(reasons) if reasons else None
                if len(reasons) > SHOWN_REASONS:   # the whole list once, not in every claim's row
                    parts += ["<details><summary>why the paper-scale run is stale: every change since it</summary>", "",
                              *(f"- {r}" for r in reasons), "", "</details>", ""]
            if meta.get("stand_ins"):
                parts += [f"Stand-in: {s}." for s in meta["stand_ins"]] + [""]
            ids_ = list(dict.fromkeys([*entry["paper"], *entry["default"]]))
            for claim_id in ids_:
                by_scale = {s: entry[s].get(claim_id) for s in ("paper", "default")}
                parts.append(claim_section(claim_id, by_scale, stale))
    return "\n".join(parts).rstrip() + "\n"


def write_review(root: Path, registry: dict | None = None) -> Path:
    """Write :data:`REVIEW` under ``root``; returns its path."""
    path = root / REVIEW
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(review_markdown(root, registry))
    return path
