"""Prints the size and outcome of the bad-input sweep at the end of the run."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


def pytest_terminal_summary(terminalreporter):
    import sweep
    if sweep.EQUIV:
        terminalreporter.write_sep("-", "equivalent values")
        terminalreporter.write_line(", ".join(f"{n} {k}" for k, n in sorted(sweep.EQUIV.items())))
    if not sweep.TALLY:
        return
    n = sum(sweep.TALLY.values())
    terminalreporter.write_sep("-", "bad-input sweep")
    terminalreporter.write_line(
        f"{n} bad calls ({len(sweep.CALLS)} distinct) over {len({c.split(':')[0] for c, _ in sweep.CALLS})} "
        f"public callables: {sweep.TALLY[sweep.CLEAR]} clear, {sweep.TALLY[sweep.SILENT]} silent, "
        f"{sweep.TALLY[sweep.RAW]} raw")
