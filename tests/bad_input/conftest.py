"""Prints the size and outcome of the bad-input sweep at the end of the run; the fixture
``registries`` restores every method registry a test registers into."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "plugins"))
from registries import restored_registries  # noqa: E402


@pytest.fixture
def registries():
    """Every method registry restored after the test; yields a function telling whether they are
    still as before it (nothing registered)."""
    with restored_registries() as unchanged:
        yield unchanged


def pytest_terminal_summary(terminalreporter):
    import sweep
    if sweep.EQUIV:
        terminalreporter.write_sep("-", "equivalent values")
        terminalreporter.write_line(", ".join(f"{n} {k}" for k, n in sorted(sweep.EQUIV.items())))
    if sweep.KINDS:
        terminalreporter.write_sep("-", "issue 47's kinds")
        for kind in sorted({k for k, _ in sweep.KINDS}):
            counts = {o: n for (k, o), n in sweep.KINDS.items() if k == kind}
            terminalreporter.write_line(f"{kind}: {sum(counts.values())} calls: "
                                        + ", ".join(f"{n} {o}" for o, n in sorted(counts.items())))
    if not sweep.TALLY:
        return
    n = sum(sweep.TALLY.values())
    terminalreporter.write_sep("-", "bad-input sweep")
    terminalreporter.write_line(
        f"{n} bad calls ({len(sweep.CALLS)} distinct) over {len({c.split(':')[0] for c, _ in sweep.CALLS})} "
        f"public callables: {sweep.TALLY[sweep.CLEAR]} clear, {sweep.TALLY[sweep.SILENT]} silent, "
        f"{sweep.TALLY[sweep.RAW]} raw")
