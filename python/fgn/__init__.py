"""FGN (Fog Game Notation) game logs from Python.

Every function calls fgn's Rust crates (fgn-notation, fgn-replay,
fgn-tools) through the native module ``fgn._fgn``: the rules, summaries,
hashes and tables are theirs, the same as the ``fgn`` command line's.
docs/python.md is the reference.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterable, Iterator, Union

from ._fgn import (
    Error,
    Event,
    Log,
    Replay,
    RuleError,
    SyntaxError,
    UnsupportedError,
    Validation,
    diff,
    log_hash,
    parse,
    read,
    validate,
    verify_view,
    view,
)
from . import _fgn

if TYPE_CHECKING:
    import pyarrow

__all__ = [
    "Error",
    "Event",
    "Log",
    "Replay",
    "RuleError",
    "SyntaxError",
    "UnsupportedError",
    "Validation",
    "diff",
    "events_table",
    "games",
    "games_table",
    "log_hash",
    "parse",
    "read",
    "validate",
    "verify_view",
    "view",
]

Paths = Union[str, "os.PathLike[str]", Iterable[Union[str, "os.PathLike[str]"]]]


def _paths(paths: Paths) -> list[str]:
    # One path or many: a str or PathLike is one path, not its characters.
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def games(paths: Paths, jobs: int | None = None) -> Iterator[dict]:
    """The summary of every log found in ``paths`` (files, directories,
    archives, compressed logs), in input order, each as docs/json.md
    section 15 writes it with its ``file``: an iterator, the logs validated
    on every core as it is read. A path that cannot be read raises OSError
    when its turn comes. ``jobs`` is how many threads (all cores by
    default)."""
    return _fgn.games(_paths(paths), jobs)


def _table(data: bytes) -> "pyarrow.Table":
    # pyarrow is needed by the tables only, so it is imported here, with a
    # word on what to install where it is missing.
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as e:
        raise ImportError("fgn's tables are pyarrow Tables: pip install pyarrow") from e

    return pyarrow.parquet.read_table(pyarrow.BufferReader(data))


def games_table(paths: Paths, columns: str | None = None, jobs: int | None = None) -> "pyarrow.Table":
    """The games table (docs/analysis.md) of every log found in ``paths``:
    one row per file, the columns and types of ``fgn json --parquet``
    (``columns`` is its ``--columns`` list: names, ``default``, ``all``),
    ``game`` among them in its place. ``jobs`` as in ``games``."""
    return _table(_fgn.games_parquet(_paths(paths), columns, jobs))


def events_table(paths: Paths, columns: str | None = None, jobs: int | None = None) -> "pyarrow.Table":
    """The events table (docs/analysis.md) of every log found in ``paths``:
    one row per event, the columns and types of ``fgn events --parquet``
    (``columns`` and ``jobs`` as in ``games_table``), ``game`` among them."""
    return _table(_fgn.events_parquet(_paths(paths), columns, jobs))
