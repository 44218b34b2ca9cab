"""Types of fgn's native module (python/src). docs/python.md is the
reference; the values of dicts are docs/json.md's JSON forms."""

from __future__ import annotations

import os
from typing import Any, Iterator, Optional, Union

_Path = Union[str, "os.PathLike[str]"]
_Side = str  # "w", "white", "b" or "black"

class Error(Exception):
    """Every error fgn raises about a log (a file that cannot be opened is
    OSError)."""

class SyntaxError(Error):
    """A line that is not FGN."""

    file: Optional[str]
    """The file, or None for text parsed from a string."""
    line: int
    """The 1-based line of the first error."""
    column: int
    """Its 1-based column, in characters."""
    message: str
    """What is wrong, as `fgn validate` words it."""
    diagnostics: list[tuple[int, int, str]]
    """Every error of the file: (line, column, message)."""

class RuleError(Error):
    """An event or a header that breaks a rule."""

    rule: str
    """The rule's id (docs/rules.md): `move`, `turn`, `king-safety`, ..."""
    message: str
    """What is wrong, led by the event as the log spells it."""
    file: Optional[str]
    """The log's file; None for a live game's event or a header."""
    line: Optional[int]
    """The 1-based line in the file, or None."""
    column: Optional[int]
    """The 1-based column in the file, or None."""
    index: Optional[int]
    """The 0-based index of the event at fault, or None."""

class UnsupportedError(Error):
    """A log no engine checks: a player's view, or a game or rules version
    without an engine."""

class Event:
    """One event of a log; `str()` is its canonical FGN line."""

    @property
    def number(self) -> int:
        """The move number it carries."""
    @property
    def actor(self) -> str:
        """`w`, `b`, or `@` for the world."""
    @property
    def clock_ms(self) -> Optional[int]:
        """The clock reading in milliseconds, or None."""
    @property
    def action(self) -> dict[str, Any]:
        """The action as docs/json.md section 6 writes it, with its `type`."""
    @property
    def line(self) -> Optional[int]:
        """The 1-based line of the file it was read from, or None."""
    def to_dict(self) -> dict[str, Any]:
        """The event as docs/json.md section 4 writes it."""
    def __eq__(self, other: object) -> bool: ...

class Log:
    """A log read without a syntax error."""

    @property
    def header(self) -> dict[str, str]:
        """The header's tags, in file order."""
    @property
    def events(self) -> list[Event]:
        """The events, in log order."""
    @property
    def file(self) -> Optional[str]:
        """The file it was read from, or None."""
    @property
    def game_name(self) -> Optional[str]:
        """The `Game` tag."""
    @property
    def perspective(self) -> Optional[str]:
        """`w` or `b` for a player's view, None for a full log."""
    @property
    def torn(self) -> bool:
        """Whether the last line had no line end and was left out."""
    def to_json(self) -> dict[str, Any]:
        """The log as docs/json.md section 2 writes it."""
    def formatted(self) -> str:
        """The canonical text with the comments kept (`fgn fmt`)."""
    def __len__(self) -> int:
        """How many events."""

class Validation:
    """What `validate` says of a log."""

    @property
    def status(self) -> str:
        """`valid`, `invalid` or `unsupported`."""
    @property
    def valid(self) -> bool: ...
    @property
    def error(self) -> Optional[dict[str, Any]]:
        """The first fault (`kind`, `rule`, `line`, `column`, `index`,
        `message`), None for a valid log."""
    @property
    def summary(self) -> dict[str, Any]:
        """The summary, docs/json.md section 15."""
    @property
    def file(self) -> Optional[str]: ...
    def to_dict(self) -> dict[str, Any]:
        """The `result` object of `fgn validate --format json`."""
    def __bool__(self) -> bool:
        """Whether the log is valid."""

class Replay:
    """A live game: events applied one at a time, each applied whole or
    refused with the game left as it was."""

    def __init__(
        self, game: Union[str, dict[str, str], Log], params: Optional[dict[str, Any]] = None
    ) -> None:
        """Starts a game from a game's name and its other header tags in
        `params` (`Replay("survival-chess", {"Rules": "1.0", "Board":
        "8x8"})`), a dict of header tags, or a Log's header. Raises
        RuleError for a header that breaks a rule, UnsupportedError for a
        game or rules version without an engine."""
    @staticmethod
    def of(log: Log, at: Optional[int] = None) -> Replay:
        """The log's first `at` events (all by default) applied; RuleError,
        placed in the log's file, at the first one that breaks a rule."""
    def apply(self, event: Union[Event, str]) -> Event:
        """Applies an Event or a line of FGN (its check marker completed)
        and returns it as applied. Raises SyntaxError or RuleError, leaving
        the game unchanged."""
    def state(self) -> dict[str, Any]:
        """The state, as `fgn show --format json` writes `state`."""
    def knowledge(self, viewer: Optional[_Side] = None) -> dict[str, Any]:
        """What `viewer` knows (None: everyone), as `fgn show --as` writes it."""
    def state_hash(self) -> str:
        """The state hash, `blake3:` and 64 hex digits."""
    def knowledge_hash(self, viewer: Optional[_Side] = None) -> str:
        """The knowledge hash of `viewer`."""
    def legal_actions(self) -> list[Event]:
        """Every event the side to act may play now."""
    def owed_world_events(self, seed: bytes) -> list[Event]:
        """The world events owed now, derived from the 32-byte world seed."""
    @property
    def phase(self) -> str:
        """`playing`, `awaiting-extra`, `result-due` or `over`."""
    @property
    def events_applied(self) -> int: ...
    @property
    def game(self) -> str:
        """The game's name."""

class Games(Iterator[dict[str, Any]]):
    """The summaries `games` yields."""

    def __next__(self) -> dict[str, Any]: ...

def parse(text: Union[str, bytes], file: Optional[str] = None) -> Log:
    """Parses a log's text; raises SyntaxError at its first line that is
    not FGN."""

def read(path: _Path) -> Log:
    """Reads a log file (compressed or not), or game N of a file of several
    games named "FILE#N" (with the file's line numbers); raises SyntaxError,
    Error for a file of several games (its attributes `file` and `games`,
    how many it holds; read one as "FILE#N", or all with games()), or
    OSError for a file that cannot be read or a game it does not hold."""

def validate(log: Union[Log, _Path]) -> Validation:
    """Validates a Log or a log file ("FILE#N" too, as read() names one);
    a syntax error is an invalid log; raises as read() does for a path
    that names no one log."""

def view(log: Log, side: _Side) -> Log:
    """The view of a full log for `side` (`fgn view`)."""

def verify_view(full: Log, view: Log) -> dict[str, Any]:
    """Whether `view` is exactly the view of `full` for its Perspective:
    `verified`, `side`, and `events`, or `line` and `message` where it parts."""

def log_hash(log: Log) -> str:
    """The log hash (`fgn hash`)."""

def diff(a: Log, b: Log, side: Optional[_Side] = None) -> dict[str, Any]:
    """`fgn diff`: the document of `fgn diff --format json` (`same`,
    `header`, `event`, `there`, `end`, ...), comparing as `side`'s views
    where given."""

def games(paths: list[str], jobs: Optional[int] = None) -> Games:
    """Each log's summary, below files, directories and archives."""

def games_parquet(paths: list[str], columns: Optional[str] = None, jobs: Optional[int] = None) -> bytes:
    """The games table as one Parquet file's bytes."""

def events_parquet(paths: list[str], columns: Optional[str] = None, jobs: Optional[int] = None) -> bytes:
    """The events table as one Parquet file's bytes."""
