"""What the tests share: the repository, its corpus, and the `fgn` binary
whose outputs the package must equal (the debug build `cargo test`
leaves in target/debug, built here when it is missing; FGN_BIN names
another)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"


def corpus_logs() -> list[Path]:
    """Every log of the corpus, in path order."""
    return sorted(CORPUS.rglob("*.fgn"))


@pytest.fixture(scope="session")
def fgn_bin() -> Path:
    named = os.environ.get("FGN_BIN")
    if named:
        return Path(named)
    binary = ROOT / "target" / "debug" / "fgn"
    if not binary.exists():
        subprocess.run(["cargo", "build", "--quiet", "-p", "fgn"], cwd=ROOT, check=True)
    return binary


def run_fgn(binary: Path, *args: str) -> subprocess.CompletedProcess:
    """Runs the binary in the repository's folder (so that the files it
    names are the paths given), without checking its exit code."""
    return subprocess.run([str(binary), *args], cwd=ROOT, capture_output=True, text=True)


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]
