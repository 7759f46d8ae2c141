"""Command line of the pipeline stages (called by ``dvc.yaml``).

    python -m inferopt.pipeline strip ID      # notebooks/<notebook>.ipynb -> build/stripped/ID.ipynb
    python -m inferopt.pipeline run ID        # execute it with params.yaml's section ID
    python -m inferopt.pipeline report        # reports/html/*.html and reports/index.html
    python -m inferopt.pipeline paper [IDS] [--workers N] [--dry-run]
                                              # the papers' scale into reports/paper/ (plan first)
    python -m inferopt.pipeline review        # reports/paper/REVIEW.md and reports/review.html: each claim
                                              # beside the paper's words
    python -m inferopt.pipeline small-figures [IDS]  # reports/paper/figures-small/ID/ from an existing
                                              # paper-scale run's figures (a run makes them itself)
    python -m inferopt.pipeline readme-table [--check]  # README.md's results table from reports/paper/metrics/
    python -m inferopt.pipeline claims-diff A B  # verdicts that changed between two runs (workspace =
                                              # default, paper, paper@REV, a git revision, a DVC
                                              # experiment, a folder); claims-diff default paper
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .._paths import repo_root
from .claims_diff import claims_diff
from .._config import check_experiments, experiments
from .report import build_reports
from .layout import PAPER_DIR
from .metrics_file import read_metrics
from .readme import update_readme
from .review import write_review
from .review_html import write_review_html
from .small_figures import keep_small_figures
from .paper import run_paper
from .run import StageFailed, run_experiment
from .strip import strip_notebook

ROOT_ENV = "INFEROPT_ROOT"  # read by repo_root()


def use_working_copy() -> None:
    """Make the project at the working directory the root (for this process and the notebook
    kernels it starts) when it is one: DVC runs each stage at the root of its copy, and a
    queued experiment (``dvc exp run --queue``) runs in a temporary copy, which must not write
    into the folder that the editable install of ``inferopt`` points at."""
    cwd = Path.cwd()
    if ROOT_ENV not in os.environ and all((cwd / name).is_file() for name in ("dvc.yaml", "pyproject.toml")):
        os.environ[ROOT_ENV] = str(cwd)
        repo_root.cache_clear()


def small_figures_of(root: Path, ids: list[str]) -> list[str]:
    """The experiments ``small-figures`` copies: ``ids`` (each must have paper-scale metrics), else every
    experiment that has them."""
    have = sorted(p.stem for p in (root / PAPER_DIR / "metrics").glob("*.json"))
    missing = [i for i in ids if i not in have]
    if missing:
        raise ValueError(f"ids: no paper-scale metrics (reports/paper/metrics/<id>.json) for {missing}")
    return list(ids) or have


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m inferopt.pipeline", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("strip", "run"):
        p = sub.add_parser(name)
        p.add_argument("experiment")
    sub.add_parser("report")
    sub.add_parser("review", help="reports/paper/REVIEW.md and reports/review.html from the committed metrics")
    small = sub.add_parser("small-figures", help="small copies of the figures of existing paper-scale runs, to commit")
    small.add_argument("ids", nargs="*", metavar="ID", help="experiments (default: every one with paper-scale metrics)")
    table = sub.add_parser("readme-table", help="README.md's results table from the committed paper-scale metrics")
    table.add_argument("--check", action="store_true", help="exit 1 when README.md's table is out of step; write nothing")
    paper = sub.add_parser("paper", help="the papers' scale into reports/paper/, one experiment at a time")
    paper.add_argument("ids", nargs="*", metavar="ID", help="experiments (default: all)")
    paper.add_argument("--workers", type=int, help="n_jobs of the notebooks that have it (default: all cores)")
    paper.add_argument("--dry-run", action="store_true", help="print the plan only")
    diff = sub.add_parser("claims-diff", help="verdicts that changed between two runs")
    diff.add_argument("a", help="workspace (= default) | paper | paper@REV | git revision | DVC experiment name | folder")
    diff.add_argument("b", nargs="?", default="workspace", help="as A (default: workspace)")
    args = parser.parse_args(argv)
    use_working_copy()
    root = repo_root()
    try:
        if args.command == "strip":
            registry = experiments()
            check_experiments([args.experiment], registry)
            notebook = root / "notebooks" / f"{registry[args.experiment]['notebook']}.ipynb"
            strip_notebook(notebook, root / "build" / "stripped" / f"{args.experiment}.ipynb")
        elif args.command == "run":
            run_experiment(args.experiment)
        elif args.command == "paper":
            run_paper(args.ids, workers=args.workers, dry_run=args.dry_run)
        elif args.command == "review":
            print(write_review(root, experiments()))
            print(write_review_html(root, experiments()))
        elif args.command == "small-figures":
            for exp_id in small_figures_of(root, args.ids):
                print(exp_id, *(p.relative_to(root).as_posix() for p in keep_small_figures(
                    root / PAPER_DIR, exp_id, read_metrics(root / PAPER_DIR / "metrics" / f"{exp_id}.json").get("figures") or [])))
        elif args.command == "readme-table":
            if not update_readme(root, experiments(), check=args.check):
                print("error: README.md's results table is out of step with reports/paper/metrics/: run "
                      "`python -m inferopt.pipeline readme-table`", file=sys.stderr)
                return 1
        elif args.command == "claims-diff":
            print(claims_diff(root, args.a, args.b))
        else:
            print(build_reports())
    except StageFailed as exc:       # a notebook failed: one line naming the stage (the notebook is kept)
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except (ValueError, TypeError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
