"""Issue 47: the bad-input sweep of what a researcher edits outside Python calls -- the parameter
files, the ``extra_methods`` specs of their own methods, and the names records are written under.

* :func:`params_mutations` -- every mutation of the real ``params.yaml`` / ``params_paper.yaml``
  the sweep applies, generated from the files themselves: a YAML syntax error, a top level that is
  not a mapping, an ``experiments`` entry without ``notebook`` or naming a missing notebook, a
  missing or non-mapping section, a missing key (the notebook's tiny default would run into
  ``reports/``), an unknown key, every key with the bad value of its kind, an unknown section, and
  the cross-field rules the notebooks need (:data:`CROSS_FIELD`). Each must be refused before any
  kernel starts by :func:`inferopt.pipeline.params_check.check_params_files`, in one line that
  names the key (``A4.n_trials``) and, for a value, the value and what is allowed.
* :func:`spec_spoilers` -- ``extra_methods`` entries that cannot register, per family: a missing
  module, a module failing on import, a relative module, a missing or non-callable attribute, a
  builtin without a signature, a function off the protocol, a paper method's name, a re-fit name,
  a name another family holds. The error names ``extra_methods[i]`` and nothing is registered.
* :data:`BAD_FILE_NAMES` -- names a record is written under that would leave its folder.
"""

from __future__ import annotations

import copy
import functools
import math
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import yaml

from inferopt._paths import repo_root
from inferopt.experiment.methods import FAMILIES, PAPER_METHODS

ROOT = repo_root()
PARAMS, PAPER = "params.yaml", "params_paper.yaml"
#: one bad value per kind of a parameter's valid value (a string is no number, no flag, no list)
BAD_BY_KIND = {"int": "3", "real": "0.5", "flag": "yes", "choice": "no-such-option", "list": "abc", "mapping": "abc"}
#: parameters every notebook may leave to the runner (it sets them)
RUNNER_SET = {"output_dir", "progress", "seed"}
#: cross-field rules (issue 47): a value each key allows alone, which makes the notebook fail
CROSS_FIELD = [
    ("A4", "claim_k_min", 1),      # the claims' verdict map reads k >= 1, >= claim_k_min, >= max(ks): 2 cells
    ("A5", "claim_k_min", 100),    # = max(ks): 2 cells
    ("A4", "claim_k_min", 500),    # no size k >= claim_k_min at all
    ("A7", "claim_k_min", 1),
    ("A8", "claim_k_min", 1000),
    ("B3", "d", 1),                # the graphical model needs pairs of variables
    ("B3", "d_sweep", [1, 6]),
    ("B6", "d", 1),
    ("B4", "d", 2),                # its verdict maps run d - 2 bits
]


@dataclass(frozen=True)
class Mutation:
    """One change of the parameter files: ``label``, the ``scale`` checked, the words the refusal
    must contain (``names``) and ``apply(root)`` writing the changed files into ``root``."""

    label: str
    scale: str
    names: tuple[str, ...]
    apply: Callable[[Path], None]


@functools.cache
def _parsed(name: str) -> dict:
    return yaml.safe_load((ROOT / name).read_text())


def _load(name: str) -> dict:
    return copy.deepcopy(_parsed(name))


#: a parameter value's kind by its YAML type (bool before int: a flag is not a count)
KINDS = ((bool, "flag"), (int, "int"), (float, "real"), (str, "choice"), (list, "list"), (dict, "mapping"))


def kind_of(value) -> str | None:
    return next((kind for typ, kind in KINDS if isinstance(value, typ)), None)


def copy_root(root: Path) -> None:
    """A project folder in ``root`` with the real parameter files and (linked) notebooks."""
    for name in (PARAMS, PAPER):
        shutil.copy(ROOT / name, root / name)
    if not (root / "notebooks").exists():
        (root / "notebooks").symlink_to(ROOT / "notebooks")


def _write(root: Path, name: str, data) -> None:
    (root / name).write_text(yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False))


def _edit(name: str, change: Callable[[dict], None]) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        data = copy.deepcopy(_load(name))
        change(data)
        _write(root, name, data)
    return apply


def _text(name: str, text: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        (root / name).write_text(text)
    return apply


def _syntax_error(name: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        lines = (ROOT / name).read_text().splitlines()
        at = len(lines) // 2
        (root / name).write_text("\n".join(lines[:at] + ["broken: [1, 2", *lines[at:]]) + "\n")
    return apply


def params_mutations() -> list[Mutation]:
    """Every mutation of the sweep (module docstring), generated from the real files."""
    default, paper = _load(PARAMS), _load(PAPER)
    ids = list(default["experiments"])
    out = [
        Mutation("syntax error in params.yaml", "default", (PARAMS, "line"), _syntax_error(PARAMS)),
        Mutation("syntax error in params_paper.yaml", "paper", (PAPER, "line"), _syntax_error(PAPER)),
        Mutation("params.yaml is a list", "default", (PARAMS, "mapping"), _text(PARAMS, "- A1\n- A2\n")),
        Mutation("params_paper.yaml is a list", "paper", (PAPER, "mapping"), _text(PAPER, "- A1\n")),
        Mutation("no experiments", "default", ("experiments",), _edit(PARAMS, lambda d: d.pop("experiments"))),
        Mutation("scale unknown", "default", ("scale", "huge"), _edit(PARAMS, lambda d: d.update(scale="huge"))),
        Mutation("seed negative", "default", ("seed", "-1"), _edit(PARAMS, lambda d: d.update(seed=-1))),
        Mutation("unknown section", "default", ("A44",), _edit(PARAMS, lambda d: d.update(A44={"seed": 0}))),
        Mutation("unknown section at paper scale", "paper", ("Z9", PAPER),
                 _edit(PAPER, lambda d: d.update(Z9={"n": 1}))),
    ]
    for eid in ids:
        out += [
            Mutation(f"experiments.{eid} without notebook", "default", (f"experiments.{eid}", "notebook"),
                     _edit(PARAMS, lambda d, e=eid: d["experiments"][e].pop("notebook"))),
            Mutation(f"experiments.{eid} names a missing notebook", "default", (f"experiments.{eid}.notebook",),
                     _edit(PARAMS, lambda d, e=eid: d["experiments"][e].update(notebook="no_such_notebook"))),
            Mutation(f"experiments.{eid} is not a mapping", "default", (f"experiments.{eid}",),
                     _edit(PARAMS, lambda d, e=eid: d["experiments"].update({e: "A1_gaussian_mean_kl"}))),
            Mutation(f"section {eid} missing", "default", (eid, "section"), _edit(PARAMS, lambda d, e=eid: d.pop(e))),
            Mutation(f"section {eid} not a mapping", "default", (eid,), _edit(PARAMS, lambda d, e=eid: d.update({e: 3}))),
            Mutation(f"{eid} unknown key", "default", (f"{eid}.no_such_key",),
                     _edit(PARAMS, lambda d, e=eid: d[e].update(no_such_key=1))),
        ]
        for key, value in default[eid].items():
            if key not in RUNNER_SET:
                out.append(Mutation(f"{eid}.{key} missing", "default", (f"{eid}.{key}",),
                                    _edit(PARAMS, lambda d, e=eid, k=key: d[e].pop(k))))
            kind = kind_of(value)
            if kind is not None:
                bad = BAD_BY_KIND[kind]
                out.append(Mutation(f"{eid}.{key} = {bad!r}", "default", (f"{eid}.{key}", repr(bad), "allowed"),
                                    _edit(PARAMS, lambda d, e=eid, k=key, b=bad: d[e].update({k: b}))))
    for eid, section in paper.items():
        out.append(Mutation(f"paper {eid} not a mapping", "paper", (eid, PAPER),
                            _edit(PAPER, lambda d, e=eid: d.update({e: [1]}))))
        for key, value in (section or {}).items():
            kind = kind_of(value)
            if kind is not None:
                bad = BAD_BY_KIND[kind]
                out.append(Mutation(f"paper {eid}.{key} = {bad!r}", "paper", (f"{eid}.{key}", repr(bad), "allowed"),
                                    _edit(PAPER, lambda d, e=eid, k=key, b=bad: d[e].update({k: b}))))
    for eid, key, value in CROSS_FIELD:
        shown = (f"{eid}.{key}",) + ((str(value),) if not isinstance(value, list) else ())
        out.append(Mutation(f"{eid}.{key} = {value!r} (cross-field)", "default", shown,
                            _edit(PARAMS, lambda d, e=eid, k=key, v=value: d[e].update({k: v}))))
    return out


# --- extra_methods specs ---------------------------------------------------------------------------
#: a module of one's own methods with what can go wrong in one (written into a folder on sys.path)
SPEC_MODULE = '''
import numpy as np

CONSTANT = 3


def ok_coresets(Phi, y, k):
    from types import SimpleNamespace
    return SimpleNamespace(x=np.zeros(np.shape(Phi)[1]))


def ok_step(line):
    return 0.5


def ok_spectral(problem, theta0, *, max_iter, step, M, rng, eval_every):
    return None


def off_protocol():
    return None


mine_refit = ok_step
'''
SPEC_BROKEN = "raise RuntimeError('this module fails on import')\n"
#: the valid method of each family in :data:`SPEC_MODULE`
OK_METHOD = {"coresets": "ok_coresets", "herding": "ok_step", "boosting": "ok_step", "spectral": "ok_spectral"}


def write_spec_modules(folder: Path, tag: str) -> tuple[str, str]:
    """The spec module and a module failing on import, under names unique to ``tag``."""
    good, broken = f"specs_{tag}", f"broken_{tag}"
    (folder / f"{good}.py").write_text(SPEC_MODULE + "".join(
        f"\n{name} = {OK_METHOD[family]}\n" for family in FAMILIES for name in PAPER_METHODS[family]
        if name.isidentifier()))
    (folder / f"{broken}.py").write_text(SPEC_BROKEN)
    return good, broken


def spec_spoilers(family: str, good: str, broken: str) -> list[tuple[str, object]]:
    """``(label, entry)``: ``extra_methods`` entries of ``family`` that cannot register."""
    paper = next(n for n in PAPER_METHODS[family] if n.isidentifier())
    return [
        ("missing module", "no_such_module_47:f"),
        ("module failing on import", f"{broken}:f"),
        ("relative module", f".{good}:ok_step"),
        ("missing attribute", f"{good}:no_such_function"),
        ("attribute not callable", f"{good}:CONSTANT"),
        ("builtin without a signature", "builtins:max"),
        ("off the protocol", f"{good}:off_protocol"),
        ("a paper method's name", f"{good}:{paper}"),
        ("a re-fit name", f"{good}:mine_refit"),
        ("not a string", 3),
        ("three parts", f"{good}:a:b"),
        ("no attribute", f"{good}:"),
    ]


#: names a record may not be written under: each would leave results/<id>/ or is no file name
BAD_FILE_NAMES = ["../escape", "../../escape", "/tmp/escape_47", "sub/escape", "..", ".", "", "a\0b", "name/",
                  "\\..\\escape", 3, None, math.nan]
