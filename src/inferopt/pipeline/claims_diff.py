"""Which verdicts changed between two runs: ``python -m inferopt.pipeline claims-diff A B``.

A run is named by what holds its verdicts:

- ``workspace`` (or ``default``) — the working tree's default scale (``reports/scorecard/<id>.json``,
  git-tracked);
- ``paper`` — the working tree's paper scale: the committed ``reports/paper/metrics/<id>.json``
  of ``make paper`` (``paper@<rev>``: as committed at a git revision), so
  ``claims-diff default paper`` works on a fresh clone;
- a git revision — ``HEAD``, ``main``, ``HEAD~3``, a commit hash (its scorecards);
- a DVC experiment name — ``dvc exp show`` lists them;
- a folder — another checkout (its scorecards), or a folder of scorecards or of metrics JSONs.

A file that is neither a scorecard nor a metrics JSON, or a run without a single verdict, is an
error, never an empty run (which would list every claim as changed). Claims that rest on
timings are marked (:mod:`.timing_claims`): their verdicts can turn between two runs of the
same code.
"""

from __future__ import annotations

from pathlib import Path

from .git import git
from .metrics_file import check_metrics, json_mapping, metrics_files, read_text
from .scorecard import VALUE_VERDICT
from .timing_claims import SEEDS, timing_note

SCORECARD_DIR = "reports/scorecard"
PAPER_METRICS_DIR = "reports/paper/metrics"
WORKSPACE = "workspace"
DEFAULT = "default"
PAPER = "paper"


def resolve_commit(root: Path, name: str) -> str | None:
    """The commit of a git revision or of a DVC experiment called ``name`` (None if neither)."""
    commit = git(root, "rev-parse", "--verify", "--quiet", f"{name}^{{commit}}")
    if commit:
        return commit.strip()
    refs = git(root, "for-each-ref", "--format=%(objectname) %(refname)", "refs/exps") or ""
    matches = [line.split()[0] for line in refs.splitlines() if line.split()[1].rsplit("/", 1)[-1] == name]
    if len(matches) > 1:
        raise ValueError(f"{len(matches)} DVC experiments are called {name!r}: name one by its commit (dvc exp show --sha)")
    return matches[0] if matches else None


def file_verdicts(text: str, where: str) -> dict:
    """``{claim id: verdict}`` of one JSON file: a metrics JSON (``claims``: a list of claims)
    or a scorecard (claim ids to scorecard values, headline numbers aside). Anything else —
    not JSON, another mapping, a file without one verdict — raises ``ValueError`` naming ``where``."""
    data = json_mapping(text, where)
    if "claims" in data:
        return {c["id"]: c["verdict"] for c in check_metrics(data, where)["claims"]}
    claims = {k: v for k, v in data.items() if " " not in k}
    unreadable = [k for k, v in claims.items() if str(v) not in VALUE_VERDICT]
    if unreadable or not claims:
        raise ValueError(f"{where} is neither a scorecard (claim id -> 1, 0, 'inconclusive', 'not measured') nor a "
                         f"metrics JSON (with 'claims'): " + (f"key {unreadable[0]!r}" if unreadable else "no claims"))
    return {k: VALUE_VERDICT[str(v)] for k, v in claims.items()}


def _files_at(root: Path, commit: str, folder: str) -> list[tuple[str, str]]:
    listing = git(root, "ls-tree", "--name-only", f"{commit}:{folder}") or ""
    return [(f"{folder}/{f} at {commit[:7]}", git(root, "show", f"{commit}:{folder}/{f}") or "")
            for f in listing.split() if f.endswith(".json")]


def _files_in(folder: Path) -> list[tuple[str, str]]:
    return [(str(p), read_text(p)) for p in metrics_files(folder)]


def run_files(root: Path, name: str) -> list[tuple[str, str]]:
    """``(where, text)`` of every JSON file of the run ``name`` (see the module docstring)."""
    if name in (WORKSPACE, DEFAULT):
        return _files_in(root / SCORECARD_DIR)
    if name == PAPER:
        return _files_in(root / PAPER_METRICS_DIR)
    if name.startswith(PAPER + "@"):
        commit = resolve_commit(root, name.split("@", 1)[1])
        if commit is None:
            raise ValueError(f"{name!r}: {name.split('@', 1)[1]!r} is not a git revision")
        return _files_at(root, commit, PAPER_METRICS_DIR)
    folder = Path(name) if Path(name).is_absolute() else Path.cwd() / name
    if folder.is_dir():
        return _files_in(folder / SCORECARD_DIR if (folder / SCORECARD_DIR).is_dir() else folder)
    if folder.exists():
        raise ValueError(f"{name!r} is a file: name the folder that holds the scorecards or metrics JSONs")
    commit = resolve_commit(root, name)
    if commit is None:
        raise ValueError(f"{name!r} is neither 'workspace'/'default', 'paper', 'paper@<rev>', a folder, a git "
                         "revision nor a DVC experiment")
    return _files_at(root, commit, SCORECARD_DIR)


def load_run(root: Path, name: str) -> dict:
    """``{claim id: verdict}`` of every scorecard or metrics JSON of the run ``name``."""
    files = run_files(root, name)
    if not files:
        raise ValueError(f"run {name!r} has no scorecards or metrics JSONs: was it run (`dvc repro`, `make paper`) "
                         "and committed?")
    merged: dict = {}
    for where, text in files:
        merged.update(file_verdicts(text, where))
    return merged


def diff_verdicts(a: dict, b: dict) -> list[tuple[str, str, str]]:
    """``(claim id, verdict in a, verdict in b)`` for every claim whose verdict differs; a claim
    only one run has shows ``absent`` on the other side."""
    ids = list(a) + [k for k in b if k not in a]
    return [(k, a.get(k, "absent"), b.get(k, "absent")) for k in ids if a.get(k, "absent") != b.get(k, "absent")]


def claims_diff(root: Path, a: str, b: str) -> str:
    """The report of :func:`diff_verdicts` between runs ``a`` and ``b``, as text, the claims
    resting on timings marked."""
    old, new = load_run(root, a), load_run(root, b)
    changes = diff_verdicts(old, new)
    timing = sum(bool(timing_note(k)) for k, _, _ in changes)
    lines = [f"claims-diff {a} -> {b}: {len(changes)} of {len(set(old) | set(new))} claims changed verdict"
             + (f" ({timing} of them rest on timings)" if timing else "")]
    width = max((len(k) for k, _, _ in changes), default=0)
    for k, x, y in changes:
        note = timing_note(k)
        lines.append(f"  {k:<{width}}  {x} -> {y}" + (f"   [{note}]" if note else ""))
    if any(timing_note(k) for k, _, _ in changes):
        lines += ["[timing, one run]: CPU times measured once vary between runs of the same code;",
                  "  such a change alone does not show that the variant changed anything.",
                  f"[timing, over seeds] ({', '.join(sorted(SEEDS))}): the times of independent seeds of every",
                  "  randomised method, the support a bootstrap over seeds (the clock's own noise reported beside them)."]
    return "\n".join(lines)
