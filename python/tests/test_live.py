"""The live API: a game played event by event, refused events leaving it
as it was, the errors and their places, and the world events a referee
owes."""

from __future__ import annotations

import pytest

import fgn
from conftest import CORPUS, json_lines, run_fgn

HEADER = '[Game "survival-chess"]\n[Rules "1.0"]\n[Board "8x8"]\n\n'
SETUP = "0 w place Ke1 Qd1 Bf1 Pe2 Pf2 Pg2\n0 b place Ke8 Pe7 Pf7 Pg7\n0 w ready\n0 b ready\n"


def test_parse_reads_the_header_and_typed_events():
    log = fgn.parse(HEADER + SETUP + "1 w e2-e4 {t=5}  ; a comment\n", file="g.fgn")
    assert log.header == {"Game": "survival-chess", "Rules": "1.0", "Board": "8x8"}
    assert log.game_name == "survival-chess" and log.perspective is None
    assert len(log) == 5 and log.file == "g.fgn"
    move = log.events[4]
    assert str(move) == "1 w e2-e4 {t=5}"
    assert (move.number, move.actor, move.clock_ms, move.line) == (1, "w", 5000, 9)
    assert move.action["type"] == "move"
    assert move.to_dict()["action"] == move.action
    assert str(log).endswith("1 w e2-e4 {t=5}\n")
    assert "; a comment" in log.formatted()
    assert log.to_json()["header"]["Board"] == "8x8"
    assert fgn.parse((HEADER + SETUP).encode()).events == log.events[:4]
    # Equal events are the same event, whatever line they were read from.
    assert fgn.parse(HEADER + "\n" + SETUP).events == log.events[:4]
    assert fgn.parse(HEADER + "\n" + SETUP).events[0].line == 6


def test_reprs_read_as_python():
    # Regression: the reprs were written with Rust's formatting, so a
    # validation read `Validation(status="valid", file=Some("g.fgn"))`.
    log = fgn.parse(HEADER + SETUP + "1 w e2-e4\n", file="g.fgn")
    assert repr(log) == "Log(game='survival-chess', events=5, file='g.fgn')"
    assert repr(fgn.parse(HEADER + SETUP)) == "Log(game='survival-chess', events=4, file=None)"
    assert repr(log.events[4]) == "Event('1 w e2-e4')"
    assert repr(fgn.validate(log)) == "Validation(status='valid', file='g.fgn')"
    assert repr(fgn.Replay.of(log)).startswith("Replay(game='survival-chess', events_applied=5, phase='")


def test_a_syntax_error_has_its_file_line_column_and_message():
    with pytest.raises(fgn.SyntaxError) as caught:
        fgn.parse(HEADER + "0 w place Ke1\n1 w e2-z99\n1 b e7-e5\n", file="bad.fgn")
    e = caught.value
    assert isinstance(e, fgn.Error)
    assert (e.file, e.line, e.column) == ("bad.fgn", 6, 8)
    assert e.message == "in `e2-z99`: expected a target square or `?`, found `z99`"
    assert e.diagnostics[0] == (6, 8, e.message)
    assert str(e).startswith("bad.fgn:6:8: ")


def test_a_corpus_syntax_error_is_placed_where_fgn_validate_places_it(fgn_bin):
    for path in sorted((CORPUS / "syntax-errors").glob("*.fgn")):
        out = run_fgn(fgn_bin, "--format", "json", "validate", str(path))
        error = json_lines(out.stdout)[0]["error"]
        if error is None:
            # A torn last line is a warning: the lines before it are read.
            assert fgn.read(path).torn
            continue
        with pytest.raises(fgn.SyntaxError) as caught:
            fgn.read(path)
        assert (caught.value.line, caught.value.column, caught.value.message) == (
            error["line"],
            error["column"],
            error["message"],
        ), path


def test_a_rule_error_in_a_log_is_placed_in_its_file(fgn_bin):
    for path in sorted(CORPUS.glob("*/invalid/*.fgn"))[::4]:
        error = fgn.validate(path).error
        # A refuted seed is found at the end of the log (validate places it
        # at the outcome it refutes); a replay event by event may stop at a
        # later event first, one that the refuted outcome made illegal.
        if error["kind"] != "rule" or error["index"] is None or error["rule"] == "seed":
            continue
        with pytest.raises(fgn.RuleError) as caught:
            fgn.Replay.of(fgn.read(path))
        e = caught.value
        assert (e.rule, e.line, e.column, e.index, e.message) == (
            error["rule"],
            error["line"],
            error["column"],
            error["index"],
            error["message"],
        ), path


def test_apply_refuses_an_illegal_event_and_leaves_the_game_unchanged():
    live = fgn.Replay("survival-chess", {"Rules": "1.0", "Board": "8x8"})
    for line in SETUP.splitlines():
        live.apply(line)
    assert live.phase == "playing" and live.events_applied == 4
    state, digest = live.state(), live.state_hash()
    with pytest.raises(fgn.RuleError) as caught:
        live.apply("1 w Ke1-e3")
    assert caught.value.rule == "move"
    assert caught.value.message.startswith("`1 w Ke1-e3`: ")
    with pytest.raises(fgn.SyntaxError):
        live.apply("1 w e2-e99")
    assert live.state() == state and live.state_hash() == digest
    assert live.events_applied == 4
    applied = live.apply("1 w e2-e4")
    assert str(applied) == "1 w e2-e4"
    assert live.state_hash() != digest


def test_legal_actions_each_apply_and_nothing_else_does():
    log = fgn.parse(HEADER + SETUP + "1 w e2-e4\n")
    live = fgn.Replay.of(log)
    legal = live.legal_actions()
    assert legal and all(e.actor == "b" for e in legal)
    for event in legal:
        fresh = fgn.Replay.of(log)
        assert str(fresh.apply(event)) == str(event)
    assert "1 b e7-e5" in {str(e) for e in legal}
    assert "1 b e7-e4" not in {str(e) for e in legal}


def test_replay_of_a_prefix_and_from_a_log_header():
    log = fgn.read(sorted(CORPUS.glob("survival-chess/valid/*.fgn"))[0])
    live = fgn.Replay(log)
    for event in log.events[:6]:
        live.apply(event)
    assert live.state_hash() == fgn.Replay.of(log, at=6).state_hash()


def test_knowledge_hides_what_a_player_cannot_see():
    live = fgn.Replay.of(fgn.parse(HEADER + "0 w place Ke1 Qd1\n"))
    white, black = live.knowledge("w"), live.knowledge("black")
    assert white["viewer"] == "w" and black["viewer"] == "b"
    assert live.knowledge_hash("w") != live.knowledge_hash("b")
    assert "Qd1" not in str(black) and live.knowledge() != white
    with pytest.raises(ValueError):
        live.knowledge("red")


def test_a_header_without_an_engine_is_unsupported_and_a_bad_one_a_rule_error():
    with pytest.raises(fgn.UnsupportedError):
        fgn.Replay("survival-chess", {"Rules": "0.1"})
    with pytest.raises(fgn.RuleError):
        fgn.Replay({"Game": "survival-chess", "Rules": "1.0", "Board": "99x99"})


def test_owed_world_events_come_from_the_seed_and_apply():
    # magic-draughts: a capture owes the reveal of the captured checker's
    # hidden number, derived from the server's secret world seed.
    seed = bytes([42]) * 32
    live = fgn.Replay("magic-draughts", {"Rules": "1.0", "TimeControl": "move=60"})
    assert live.owed_world_events(seed) == []
    with pytest.raises(ValueError):
        live.owed_world_events(b"short")
    for line in ["1 w e3-f4 {t=5}", "1 b h6-g5 {t=9}", "2 w f4:h6 {t=12}"]:
        live.apply(line)
    owed = live.owed_world_events(seed)
    assert [e.action["type"] for e in owed] == ["reveal"] and owed[0].actor == "@"
    before = live.events_applied
    for event in owed:
        live.apply(event)
    assert live.events_applied == before + 1
    assert live.owed_world_events(seed) == []
