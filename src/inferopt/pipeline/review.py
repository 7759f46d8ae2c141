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

import ast
import re
from pathlib import Path

from ..experiment.claims import format_value, measured_lines, setting_text, support_text
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


def _unit_names(unit) -> tuple[list[str], str]:
    """The names a list-valued cut-off's ``unit`` gives its entries (``"[AUC cut, lowest D] x predefined"`` ->
    ``["AUC cut", "lowest D"]``) and the rest of the unit (``"x predefined"``); no names when it opens otherwise."""
    if not isinstance(unit, str) or not unit.startswith("[") or "]" not in unit:
        return [], unit or ""
    inside, _, rest = unit[1:].partition("]")
    return [n.strip() for n in inside.split(",")], rest.strip().lstrip(",").strip()


def _valued(value, names: list[str]) -> str:
    """A cut-off's value in words: a list with one name per entry as ``name value`` pairs, else as it is."""
    if isinstance(value, list) and names and len(value) == len(names):
        return "; ".join(f"{n} {format_value(v)}" for n, v in zip(names, value))
    return format_value(value)


def threshold_text(threshold: dict | None) -> str:
    """``3 (ours; readings 2: holds, 3: fails, 5: fails)`` or ``—``; a list-valued cut-off whose unit names its
    entries (``[AUC cut, lowest D]``) reads ``AUC cut 0.75; lowest D 5``, its readings alike where they have as many."""
    if not threshold:
        return "—"
    names, rest = _unit_names(threshold.get("unit"))
    readings = threshold.get("readings") or []
    shown = (" | " if names else ", ").join(f"{_valued(r['value'], names)}: {r['verdict']}" for r in readings)
    if names and isinstance(threshold["value"], list) and len(threshold["value"]) == len(names):
        unit = f" ({rest})" if rest else ""
    else:
        unit = f" {threshold['unit']}" if threshold.get("unit") else ""
    return f"{_valued(threshold['value'], names)}{unit} ({threshold['source']}" + (f"; readings {shown}" if shown else "") + ")"


def sweep_table(sweep: list[dict]) -> str:
    """A diagnosis's verdict map: one row per setting, one column per open choice."""
    keys = list(dict.fromkeys(k for cell in sweep for k in cell["setting"]))
    head = "| " + " | ".join(keys + ["verdict"]) + " |\n|" + " --- |" * (len(keys) + 1)
    rows = ["| " + " | ".join(_cell(format_value(plain_values(cell["setting"].get(k, ""), 2))) for k in keys) + f" | {cell['verdict']} |"
            for cell in sweep]
    return "\n".join([head, *rows])


def diagnosis_block(diagnosis: dict, scale: str) -> str:
    """A diagnosis as a paragraph (kind, scale, text), its evidence as lines and its sweep as a table."""
    lines = [f"**Diagnosis ({diagnosis.get('kind', '?')}, {diagnosis.get('scale', scale)} scale).** {prose(diagnosis.get('text', ''))}"]
    evidence = dict(diagnosis.get("evidence") or {})
    sweep = evidence.pop("sweep", None)
    lines += [f"- evidence: {line}" for line in plain_lines(evidence)]
    if sweep:
        lines += ["", "Verdict map (the open choices swept, one setting per row):", "", sweep_table(sweep)]
    return "\n".join(lines)


def _reading_split(readings: list[dict]) -> str:
    """``0.02 and 0.05 give fails; 0.1 gives holds``: the readings of a cut-off grouped by verdict."""
    by_verdict: dict = {}
    for r in readings:
        by_verdict.setdefault(r["verdict"], []).append(format_value(r["value"]))
    return "; ".join(f"{' and '.join(vals)} give{'s' if len(vals) == 1 else ''} {v}" for v, vals in by_verdict.items())


def what_would_change(by_scale: dict) -> list[str]:
    """Sentences on what would turn each scale's verdict, read off its own record and true of
    it: for an ``inconclusive`` claim, what keeps it undecided (readings of a cut-off of ours
    that disagree, a bootstrap short of :data:`MIN_SUPPORT` either way, else its recorded reason)
    and, when the bootstrap is decisive, that more trials would not settle it; for a decided one,
    the readings or swept settings that give another verdict and the bootstrap's margin; for a ``not measured`` one,
    the readings that record a verdict, else why it is not measured (:func:`why_not_measured`). A claim
    with nothing on record that bears on it gets no sentence (the section is then left out)."""
    out = []
    for scale, claim in by_scale.items():
        if claim is None:
            out.append(f"No {scale}-scale verdict is recorded: running that scale would give one.")
            continue
        v = claim["verdict"]
        readings = (claim.get("threshold") or {}).get("readings") or []
        verdicts = {r["verdict"] for r in readings}
        support = claim.get("support") or {}
        bootstrap = support.get("method") == "bootstrap"
        f = support.get("fraction_holding", 0.0) if bootstrap else None
        if v == "inconclusive":
            split = len(verdicts) > 1
            short = bootstrap and max(f, 1 - f) < MIN_SUPPORT
            if split:
                out.append(f"{scale}: the readings of our cut-off disagree ({_reading_split(readings)}): a cut-off the "
                           "paper fixed, or a measurement away from every reading, would settle it.")
            if short:
                out.append(f"{scale}: the trials are split ({100 * f:.0f} % of the bootstrap resamples hold, "
                           f"{100 * (1 - f):.0f} % fail, {100 * MIN_SUPPORT:.0f} % needed either way): more trials could "
                           "settle it.")
            elif bootstrap:
                out.append(f"{scale}: the bootstrap is decisive ({100 * max(f, 1 - f):.0f} % of the resamples agree), "
                           "so more trials would not settle it.")
            if not split and not short:
                out.append(f"{scale}: what it lacks: {prose(claim.get('reason') or 'no reason recorded')}.")
        elif v == "not measured":
            decided = [r for r in readings if r["verdict"] in ("holds", "fails")]
            if decided:
                out.append(f"{scale}: not measured, yet the readings of the cut-off record verdicts ("
                           + ", ".join(f"{format_value(r['value'])} ({r['verdict']})" for r in decided)
                           + f"): check the recorded reason ({prose(claim.get('reason') or 'none recorded')}) against them.")
            else:
                out.append(f"{scale}: not measured because {why_not_measured(claim)}: a run where that no longer holds "
                           "(other settings, data or budget) would give it a verdict.")
        else:
            other = [r for r in readings if r["verdict"] != v]
            if other:
                out.append(f"{scale}: reading the cut-off as " + ", ".join(f"{format_value(r['value'])} ({r['verdict']})" for r in other)
                           + f" instead of {format_value(claim['threshold']['value'])}.")
            elif readings:
                out.append(f"{scale}: every reading of the cut-off ({', '.join(format_value(r['value']) for r in readings)}) "
                           f"gives {v}.")
            if bootstrap:
                agree = f if v == "holds" else 1 - f
                out.append(f"{scale}: {100 * agree:.0f} % of the bootstrap resamples agree with the verdict "
                           f"({100 * MIN_SUPPORT:.0f} % needed): fewer agreeing trials would make it inconclusive.")
            elif support.get("method") == "deterministic":
                out.append(f"{scale}: one computation, no trials to resample: only a change of data, settings or test moves it.")
        sweep = ((claim.get("diagnosis") or {}).get("evidence") or {}).get("sweep") or []
        flips = [c for c in sweep if c["verdict"] != v]
        if flips:
            out.append(f"{scale}: the swept settings " + "; ".join(f"{setting_text(c['setting'])} ({c['verdict']})" for c in flips) + ".")
        if (claim.get("diagnosis") or {}).get("kind") == "setting":
            out.append(f"{scale}: the setting named in the diagnosis.")
    return out


def why_inconclusive(claim: dict) -> str:
    """Why an ``inconclusive`` claim is undecided, in words: its recorded reason, else (a run
    older than the reasons) what :func:`what_would_change` reads off its record."""
    if claim.get("reason"):
        return prose(claim["reason"])
    undecided = [s for s in what_would_change({"x": claim}) if "bootstrap is decisive" not in s]
    return undecided[0].removeprefix("x: ").rstrip(".")


#: the clause of a claim's text that says why it is not measured: "Not measured: <reason>." (up to the sentence's end)
_NOT_MEASURED = re.compile(r"Not measured: (.+?)(?:\.(?=\s|$)|$)", re.S)


def why_not_measured(claim: dict) -> str:
    """Why a ``not measured`` claim has no verdict, in words: its recorded reason, else its measured ``not measured
    because``, else the ``Not measured: ...`` clause of its text; "no reason recorded" when none says."""
    because = (claim.get("measured") or {}).get("not measured because")
    found = _NOT_MEASURED.search(claim.get("text") or "")
    for reason in (claim.get("reason"), because, found.group(1) if found else None):
        if isinstance(reason, str) and reason.strip():
            return prose(reason.strip())
    return "no reason recorded"


def why_undecided(claim: dict) -> str | None:
    """Why a claim has no decided verdict: :func:`why_inconclusive` for ``inconclusive``, :func:`why_not_measured` for
    ``not measured``; None for ``holds`` and ``fails``."""
    return {"inconclusive": why_inconclusive, "not measured": why_not_measured}.get(claim["verdict"], lambda c: None)(claim)


#: Python's ``None`` printed as a word (not part of a longer name or a quoted string)
_NONE = re.compile(r"(?<![\w'\"])None(?![\w'\"])")
#: a Python literal (a dict or a list of strings) printed into a sentence, e.g. ``{'adafw': 5.6}`` or ``['AdaFW']``
_LITERAL_START = re.compile(r"[{\[]")


def _literal_at(text: str, start: int) -> tuple[object, int] | None:
    """The Python literal that opens at ``text[start]`` and its end, or None."""
    depth, quote = 0, None
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                try:
                    return ast.literal_eval(text[start:i + 1]), i + 1
                except (ValueError, SyntaxError):
                    return None
    return None


def _spoken(value) -> str:
    """A literal in words: a mapping as ``name value, …``, a list as ``a, b and c``."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {_spoken(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        parts = [_spoken(v) for v in value]
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1] if parts else "none"
    return format_value(value)


def prose(text: str) -> str:
    """``text`` with every Python mapping, and every list holding strings or mappings, that a
    notebook printed into it (``{'line_search': 36.4, 'adafw': 5.6}``, ``['AdaFW', 'AdaPFW']``)
    put in words (``line_search 36.4, adafw 5.6``, ``AdaFW and AdaPFW``), and a subscript
    (``evidence['sweep']``) as ``evidence › sweep``; lists of numbers stay; a bare ``None`` (a value a notebook
    printed for "nothing found") reads ``none``."""
    out, i = [], 0
    for m in _LITERAL_START.finditer(text):
        if m.start() < i:
            continue
        found = _literal_at(text, m.start())
        if found is None:
            continue
        value, end = found
        subscript = m.start() > 0 and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_")
        if subscript and isinstance(value, list) and len(value) == 1:   # evidence['sweep'] -> evidence › sweep
            out += [text[i:m.start()], f" › {_spoken(value[0])}"]
            i = end
        elif isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, str | dict) for v in value)):
            out += [text[i:m.start()], _spoken(value)]
            i = end
    return _NONE.sub("none", "".join(out) + text[i:])


def plain_values(value, depth: int = 0):
    """A recorded value with nothing of Python's left for a reader: ``True`` / ``False`` (or the text) as ``yes`` / ``no``, ``None``
    as ``none``, NaN (a float, or the string ``"nan"`` a JSON writer left) as ``—``, and a mapping nested below a
    claim's numbers' two levels (``name › key = ...``) as ``key value, key value`` words, not ``{key: value}``."""
    if isinstance(value, bool) or value in ("True", "False"):   # a boolean, or one a notebook recorded as text
        return "yes" if value in (True, "True") else "no"
    if value is None:
        return "none"
    if (isinstance(value, float) and value != value) or (isinstance(value, str) and value.strip().lower() == "nan"):
        return "—"
    if isinstance(value, dict):
        if depth >= 2:
            return ", ".join(f"{k} {format_value(plain_values(v, depth + 1))}" for k, v in value.items())
        return {k: plain_values(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain_values(v, depth + 1) for v in value]
    return value


def plain_lines(measured: dict) -> list[str]:
    """A claim's numbers (or a diagnosis's evidence) as ``name = value`` lines (:func:`measured_lines`) in plain words
    (:func:`plain_values`)."""
    return measured_lines(plain_values(measured))


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
    parts += [f"*Why {claim['verdict']} ({scale} scale):* {why_undecided(claim)}.\n" for scale, claim in by_scale.items()
              if claim is not None and why_undecided(claim)]
    for scale, claim in by_scale.items():
        if claim is not None and claim.get("diagnosis"):
            parts += [diagnosis_block(claim["diagnosis"], scale), ""]
    measured = (by_scale.get("paper") or any_claim).get("measured") or {}
    if measured:
        parts += ["<details><summary>measured" + (" (paper scale)" if by_scale.get("paper") else "") + "</summary>", "",
                  *(f"- {_cell(prose(line))}" for line in plain_lines(measured)), "", "</details>", ""]
    rerun = [f"paper: its run is STALE ({stale}): a fresh `make paper` run of the current code and parameters may "
             "turn it."] if stale and by_scale.get("paper") else []
    change = rerun + what_would_change(by_scale)
    parts += ["**What would change the verdict.**", "", *(f"- {s}" for s in change), ""] if change else []
    return "\n".join(parts)


def paper_heading(exp_id: str, meta: dict) -> str:
    """The heading an experiment is listed under: its paper as :data:`.readme.PAPERS` cites it (by the id's letter),
    so that a run recorded under an older citation (D4's paper-scale metrics say "ICML 2018") stays with its
    paper; the run's own ``paper`` for an id of no listed paper."""
    from .readme import PAPERS   # here: .readme imports this module

    return PAPERS[exp_id[0]]["short"] if exp_id[:1] in PAPERS else meta.get("paper", "?")


def review_markdown(root: Path, registry: dict | None = None) -> str:
    """The review page for the metrics under ``root``; ``registry`` (the experiments of
    ``params.yaml``) adds whether each paper-scale run is current (:mod:`.paper_state`)."""
    experiments = load_claims(root)
    state = paper_results(root, registry) if registry else {}
    papers: dict = {}
    for exp_id, entry in experiments.items():
        papers.setdefault(paper_heading(exp_id, entry["meta"]), []).append(exp_id)
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
