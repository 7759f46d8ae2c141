"""``python -m inferopt.datasets list | fetch NAME [NAME ...] [--no-download]``."""

from __future__ import annotations

import argparse
import sys

from .fetching import DataUnavailableError, fetch
from .registry import DATASETS


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m inferopt.datasets")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the registered datasets")
    p = sub.add_parser("fetch", help="fetch datasets into data/ (verified by sha256)")
    p.add_argument("names", nargs="+", metavar="NAME")
    p.add_argument("--no-download", action="store_true", help="use the mirror only")
    args = parser.parse_args(argv)
    if args.command == "list":
        for ds in DATASETS.values():
            tag = f"  [stand-in for {ds.stand_in}]" if ds.stand_in else ""
            print(f"{ds.name:20s} {len(ds.files)} file(s)  {ds.description}{tag}")
        return 0
    try:
        for name in args.names:
            for path in fetch(name, allow_download=not args.no_download):
                print(f"ok  {path}")
    except (DataUnavailableError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
