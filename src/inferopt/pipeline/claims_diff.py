"""Which verdicts changed between two runs: ``python -m inferopt.pipeline claims-diff A B``.

A run is named by what holds its scorecards (``reports/scorecard/<id>.json``, git-tracked):

- ``workspace`` — the working tree;
- a git revision — ``HEAD``, ``main``, ``HEAD~3``, a commit hash;
- a DVC experiment name — ``dvc exp show`` lists them (e.g. ``dvc exp run -n paper -S scale=paper``);
- a folder — another checkout, or a scorecard folder itself (``reports/paper/scorecard``:
  the paper scale of ``make paper``).
"""

from __future__ import annotations

import json
from pathlib import Path

from .git import git
from .scorecard import verdicts

SCORECARD_DIR = "reports/scorecard"
WORKSPACE = "workspace"


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


def load_run(root: Path, name: str) -> dict:
    """``{claim id: verdict}`` of every scorecard of the run ``name`` (see the module docstring)."""
    folder = root / SCORECARD_DIR if name == WORKSPACE else Path(name)
    if name == WORKSPACE or folder.is_dir():
        if (folder / SCORECARD_DIR).is_dir():
            folder = folder / SCORECARD_DIR
        cards = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    else:
        commit = resolve_commit(root, name)
        if commit is None:
            raise ValueError(f"{name!r} is neither 'workspace', a folder, a git revision nor a DVC experiment")
        listing = git(root, "ls-tree", "--name-only", f"{commit}:{SCORECARD_DIR}") or ""
        cards = [json.loads(git(root, "show", f"{commit}:{SCORECARD_DIR}/{f}")) for f in listing.split() if f.endswith(".json")]
    if not cards:
        raise ValueError(f"run {name!r} has no scorecards ({SCORECARD_DIR}/*.json): was `dvc repro` run and committed?")
    merged: dict = {}
    for card in cards:
        merged.update(verdicts(card))
    return merged


def diff_verdicts(a: dict, b: dict) -> list[tuple[str, str, str]]:
    """``(claim id, verdict in a, verdict in b)`` for every claim whose verdict differs; a claim
    only one run has shows ``absent`` on the other side."""
    ids = list(a) + [k for k in b if k not in a]
    return [(k, a.get(k, "absent"), b.get(k, "absent")) for k in ids if a.get(k, "absent") != b.get(k, "absent")]


def claims_diff(root: Path, a: str, b: str) -> str:
    """The report of :func:`diff_verdicts` between runs ``a`` and ``b``, as text."""
    old, new = load_run(root, a), load_run(root, b)
    changes = diff_verdicts(old, new)
    lines = [f"claims-diff {a} -> {b}: {len(changes)} of {len(set(old) | set(new))} claims changed verdict"]
    width = max((len(k) for k, _, _ in changes), default=0)
    lines += [f"  {k:<{width}}  {x} -> {y}" for k, x, y in changes]
    return "\n".join(lines)
