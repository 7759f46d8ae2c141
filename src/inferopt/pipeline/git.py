"""The one way the pipeline asks git: a command's output, or None where git is missing or fails."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(root: Path, *args: str) -> str | None:
    """Standard output of ``git *args`` run in ``root``; None if git is not installed, ``root`` is
    not in a repository, or the command fails (an unknown revision, say)."""
    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
