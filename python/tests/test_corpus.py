"""The package over the corpus says what the `fgn` binary says: every
verdict equals `fgn validate --format json`'s, every state and state hash
`fgn show --format json`'s, and the tables are `fgn json --parquet`'s and
`fgn events --parquet`'s, column for column and type for type."""

from __future__ import annotations

import gzip
import json

import pyarrow
import pyarrow.compute
import pyarrow.dataset
import pytest

import fgn
from conftest import CORPUS, ROOT, corpus_logs, json_lines, run_fgn


def relative(path) -> str:
    return str(path.relative_to(ROOT))


@pytest.fixture(scope="module")
def cli_results(fgn_bin) -> dict[str, dict]:
    out = run_fgn(fgn_bin, "--format", "json", "validate", *map(relative, corpus_logs()))
    results = [r for r in json_lines(out.stdout) if r["type"] == "result"]
    return {r["file"]: r for r in results}


def test_the_corpus_is_all_read(cli_results):
    assert len(cli_results) == len(corpus_logs()) > 300


@pytest.mark.parametrize("path", corpus_logs(), ids=lambda p: relative(p))
def test_every_verdict_is_the_clis(path, cli_results):
    expected = dict(cli_results[relative(path)])
    got = fgn.validate(path).to_dict()
    assert got.pop("file") == str(path)
    expected.pop("file")
    assert got == expected


def test_a_log_validates_as_its_file_does():
    path = CORPUS / "survival-chess" / "invalid"
    for log_path in sorted(path.glob("*.fgn"))[:5]:
        log = fgn.read(log_path)
        assert fgn.validate(log).to_dict() == fgn.validate(log_path).to_dict()
        assert not fgn.validate(log)


VALID = sorted(CORPUS.glob("*/valid/*.fgn"))


@pytest.mark.parametrize("path", VALID, ids=lambda p: relative(p))
def test_every_state_and_state_hash_is_fgn_shows(path, fgn_bin):
    out = run_fgn(fgn_bin, "show", "--format", "json", relative(path))
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    replay = fgn.Replay.of(fgn.read(path))
    assert replay.state_hash() == shown["state_hash"]
    assert replay.state() == shown["state"]
    assert replay.events_applied == shown["events_applied"]


@pytest.mark.parametrize("side", ["white", "black"])
def test_knowledge_and_its_hash_are_fgn_shows(side, fgn_bin):
    for path in VALID[::7]:
        out = run_fgn(fgn_bin, "show", "--format", "json", "--as", side, relative(path))
        shown = json.loads(out.stdout)
        replay = fgn.Replay.of(fgn.read(path))
        assert replay.knowledge_hash(side) == shown["knowledge_hash"], path
        assert replay.knowledge(side) == shown["knowledge"], path


def test_log_hashes_are_fgn_hashs(fgn_bin):
    paths = VALID[::3]
    out = run_fgn(fgn_bin, "hash", "--format", "json", *map(relative, paths))
    hashes = {h["file"]: h["log_hash"] for h in json_lines(out.stdout)}
    for path in paths:
        assert fgn.log_hash(fgn.read(path)) == hashes[relative(path)]


def test_views_are_fgn_views_and_verify(fgn_bin):
    for path in sorted(CORPUS.glob("*/views/*.fgn")):
        stem, side = path.name.rsplit(".", 2)[:2]
        full = CORPUS / path.parent.parent.name / "valid" / f"{stem}.fgn"
        if not full.exists():
            continue
        out = run_fgn(fgn_bin, "view", "--as", side, relative(full))
        assert out.returncode == 0, out.stderr
        made = fgn.view(fgn.read(full), side)
        assert str(made) == str(fgn.parse(out.stdout))
        assert fgn.verify_view(fgn.read(full), fgn.read(path))["verified"] is True, path


def cli_table(fgn_bin, tmp_path, command: list[str]) -> pyarrow.Table:
    folder = tmp_path / "parquet"
    out = run_fgn(fgn_bin, *command, "--parquet", str(folder), "--columns", "all", "corpus")
    assert folder.exists(), out.stderr
    return pyarrow.dataset.dataset(folder, format="parquet", partitioning="hive").to_table()


def same_table(ours: pyarrow.Table, theirs: pyarrow.Table, key: list[str]):
    """The CLI's folder gives `game` as its Hive partition (a dictionary
    column, last); every other column must have our name, type and
    values."""
    # A log without a game is in the folder `__HIVE_DEFAULT_PARTITION__`,
    # read back as null; its row says "" as every row of the table does.
    game = pyarrow.compute.fill_null(theirs["game"].cast(pyarrow.string()), "")
    theirs = theirs.set_column(theirs.schema.get_field_index("game"), "game", game)
    theirs = theirs.select(ours.column_names)
    ours_sorted = ours.sort_by([(k, "ascending") for k in key])
    theirs_sorted = theirs.sort_by([(k, "ascending") for k in key])
    for name in ours.column_names:
        if name == "game":
            continue
        assert ours.schema.field(name).type == theirs.schema.field(name).type, name
    assert ours_sorted.to_pylist() == theirs_sorted.to_pylist()


def test_the_games_table_is_fgn_jsons(fgn_bin, tmp_path):
    # The CLI names files as given: it runs on `corpus`, ours on the full
    # path, cut back to the same names.
    ours = fgn.games_table(str(CORPUS), columns="all")
    ours = ours.set_column(1, "file", pyarrow.array([f[len(str(ROOT)) + 1 :] for f in ours["file"].to_pylist()]))
    same_table(ours, cli_table(fgn_bin, tmp_path, ["json"]), ["file"])
    assert ours.num_rows == len(corpus_logs())


def test_the_events_table_is_fgn_events(fgn_bin, tmp_path):
    ours = fgn.events_table(str(CORPUS), columns="all")
    ours = ours.set_column(1, "file", pyarrow.array([f[len(str(ROOT)) + 1 :] for f in ours["file"].to_pylist()]))
    same_table(ours, cli_table(fgn_bin, tmp_path, ["events"]), ["file", "index", "type"])


def test_default_columns_are_the_clis_defaults(fgn_bin):
    for table, command in [(fgn.games_table, "json"), (fgn.events_table, "events")]:
        out = run_fgn(fgn_bin, command, "--schema", "json")
        schema = json_lines(out.stdout)[0]
        names = [c["name"] for c in schema["columns"]]
        assert table(str(CORPUS / "syntax-errors")).column_names == names
        with pytest.raises(ValueError, match="no column `nope`"):
            table(str(CORPUS), columns="nope")


def test_counts_are_fgn_stats(fgn_bin):
    out = run_fgn(fgn_bin, "--format", "json", "stats", "--counts", "corpus")
    stats = json_lines(out.stdout)[0]
    games = fgn.games_table(str(CORPUS)).to_pandas()
    events = fgn.events_table(str(CORPUS)).to_pandas()
    # stats counts each distinct game once (by log hash) and the events of
    # valid logs only.
    distinct = games.drop_duplicates("log_hash").query("log_hash != ''")
    valid_files = set(distinct.query("status == 'valid'")["file"])
    counted = events[events["file"].isin(valid_files) & (events["type"] == "event")]
    sums = counted.groupby("game")[["captures", "deaths", "coins_spent", "coins_gained", "spells_cast", "charges_spent"]].sum()
    per_game = {s["game"]: s for s in stats["games"]}
    assert len(per_game) == 5, out.stdout[:500]
    for game, row in sums.iterrows():
        assert per_game[game]["counts"] == {k: int(v) for k, v in row.items()}, game
        assert per_game[game]["valid"] == int((distinct.query("game == @game")["status"] == "valid").sum()), game


def test_the_tables_and_summaries_do_not_depend_on_the_jobs():
    assert fgn.games_table(str(CORPUS), jobs=1).equals(fgn.games_table(str(CORPUS), jobs=3))
    assert fgn.events_table(str(CORPUS), jobs=1).equals(fgn.events_table(str(CORPUS)))
    assert list(fgn.games(str(CORPUS), jobs=1)) == list(fgn.games(CORPUS))


def test_games_is_an_iterator_that_may_stop_early_and_a_bad_path_raises(tmp_path):
    found = fgn.games([str(CORPUS), str(CORPUS)])
    first = next(found)
    assert first["file"].endswith(".fgn") and first["status"] in {"valid", "invalid", "unsupported"}
    del found  # the run behind it stops
    with pytest.raises(OSError, match="no such file"):
        list(fgn.games([str(CORPUS / "syntax-errors"), str(tmp_path / "missing")]))
    with pytest.raises(OSError):
        fgn.games_table(str(tmp_path / "missing"))
    with pytest.raises(OSError):
        fgn.read(tmp_path / "missing.fgn")


def diff_pairs():
    """Pairs of logs of one game: different, the same, one that breaks a
    rule, and a view against its full log."""
    pairs = []
    for game in ["survival-chess", "magic-draughts", "great-war-chess", "open-world-chess"]:
        valid = sorted((CORPUS / game / "valid").glob("*.fgn"))
        invalid = sorted((CORPUS / game / "invalid").glob("*.fgn"))
        pairs += [(valid[0], valid[1], None), (valid[0], valid[0], None), (valid[2], invalid[3], None)]
        pairs += [(valid[0], valid[1], "white"), (invalid[5], valid[4], "black")]
    view = sorted(CORPUS.glob("survival-chess/views/*.fgn"))[0]
    full = CORPUS / "survival-chess" / "valid" / (view.name.split(".")[0] + ".fgn")
    pairs.append((full, view, None))
    return pairs


@pytest.mark.parametrize("a, b, side", diff_pairs(), ids=lambda v: v.name if hasattr(v, "name") else str(v))
def test_diff_is_fgn_diffs(a, b, side, fgn_bin):
    args = ["diff", "--format", "json", str(a), str(b)] + (["--as", side] if side else [])
    out = run_fgn(fgn_bin, *args)
    assert out.returncode in (0, 1), out.stderr
    assert fgn.diff(fgn.read(a), fgn.read(b), side=side) == json.loads(out.stdout)


def test_a_file_of_several_games_is_read_game_by_game_as_fgn_reads_it(fgn_bin, tmp_path):
    # Three corpus logs end to end in one file, one of them invalid: each
    # game is a log named FILE#N with the file's line numbers.
    logs = [
        CORPUS / "survival-chess" / "valid" / "01-bishop-queen-mate.fgn",
        sorted((CORPUS / "survival-chess" / "invalid").glob("*.fgn"))[3],
        sorted((CORPUS / "magic-draughts" / "valid").glob("*.fgn"))[0],
    ]
    several = tmp_path / "several.fgn"
    several.write_text("\n".join(p.read_text() for p in logs))
    for command, ours in [("json", fgn.games_table), ("events", fgn.events_table)]:
        folder = tmp_path / command
        out = run_fgn(fgn_bin, command, "--parquet", str(folder), "--columns", "all", str(several))
        assert folder.exists(), out.stderr
        theirs = pyarrow.dataset.dataset(folder, format="parquet", partitioning="hive").to_table()
        table = ours(str(several), columns="all")
        same_table(table, theirs, ["file", "index", "type"] if command == "events" else ["file"])
    files = fgn.games_table(str(several))["file"].to_pylist()
    assert files == [f"{several}#{n}" for n in (1, 2, 3)]
    assert [g["status"] for g in fgn.games(str(several))] == ["valid", "invalid", "valid"]


def test_text_before_the_first_game_is_a_row_named_as_the_file(fgn_bin, tmp_path):
    # Regression: text before the first game of a file of several made no
    # row, where the command's tables have one for it (an unreadable log
    # named FILE), read whole or, compressed, game by game on the walk.
    logs = [
        CORPUS / "survival-chess" / "valid" / "01-bishop-queen-mate.fgn",
        sorted((CORPUS / "magic-draughts" / "valid").glob("*.fgn"))[0],
    ]
    text = "junk line here\n" + "".join(p.read_text() for p in logs)
    plain = tmp_path / "stray.fgn"
    plain.write_text(text)
    compressed = tmp_path / "stray.fgn.gz"
    compressed.write_bytes(gzip.compress(text.encode()))
    for several in [plain, compressed]:
        for command, ours in [("json", fgn.games_table), ("events", fgn.events_table)]:
            folder = tmp_path / f"{several.name}-{command}"
            out = run_fgn(fgn_bin, command, "--parquet", str(folder), "--columns", "all", str(several))
            assert folder.exists(), out.stderr
            theirs = pyarrow.dataset.dataset(folder, format="parquet", partitioning="hive").to_table()
            table = ours(str(several), columns="all")
            same_table(table, theirs, ["file", "index", "type"] if command == "events" else ["file"])
        files = fgn.games_table(str(several))["file"].to_pylist()
        assert files == [str(several), f"{several}#1", f"{several}#2"]
        found = list(fgn.games(str(several)))
        assert [g["status"] for g in found] == ["invalid", "valid", "valid"]
        assert (found[0]["error"]["kind"], found[0]["error"]["line"]) == ("syntax", 1)


def test_a_file_of_several_games_past_the_limit_below_a_directory_loses_no_game(tmp_path):
    # Regression: such a file was read up to the limit of a log (64 MiB)
    # and split there, so that every game past it was lost and the game cut
    # at the limit read as torn. Games of about a megabyte, most of it a
    # comment, so that few games pass the limit.
    game = (CORPUS / "survival-chess" / "valid" / "01-bishop-queen-mate.fgn").read_text()
    game += ("; " + "x" * 1021 + "\n") * 1024
    count = (64 << 20) // len(game) + 3
    folder = tmp_path / "folder"
    folder.mkdir()
    month = folder / "month.fgn"
    month.write_text(game * count)
    assert month.stat().st_size > 64 << 20
    files = fgn.games_table(str(folder))["file"].to_pylist()
    assert files == [f"{month}#{n}" for n in range(1, count + 1)]
    assert {g["status"] for g in fgn.games(str(folder))} == {"valid"}


def test_read_and_validate_take_one_game_of_a_file_of_several_as_file_n(fgn_bin, tmp_path):
    # As the commands that take one log: `FILE#N` is game N, with the
    # file's line numbers; the file itself is refused, saying how many
    # games it holds and how to read them.
    first = CORPUS / "survival-chess" / "valid" / "01-bishop-queen-mate.fgn"
    broken = '[Game "magic-draughts"]\n[Rules "1.0"]\n1 x c3-d4\n'
    third = sorted((CORPUS / "magic-draughts" / "valid").glob("*.fgn"))[0]
    several = tmp_path / "several.fgn"
    several.write_text(first.read_text() + broken + third.read_text())
    before_third = len(first.read_text().splitlines()) + len(broken.splitlines())

    log = fgn.read(f"{several}#3")
    alone = fgn.read(third)
    assert log.file == f"{several}#3"
    assert log.events == alone.events
    assert [e.line for e in log.events] == [e.line + before_third for e in alone.events]

    cli = run_fgn(fgn_bin, "--format", "json", "validate", str(several))
    results = {r["file"]: r for r in json_lines(cli.stdout) if r["type"] == "result"}
    for n in (1, 2, 3):
        assert fgn.validate(f"{several}#{n}").to_dict() == results[f"{several}#{n}"], n

    with pytest.raises(fgn.SyntaxError) as raised:
        fgn.read(f"{several}#2")
    assert (raised.value.file, raised.value.line) == (f"{several}#2", before_third)

    for call, name in [(fgn.read, "fgn.read"), (fgn.validate, "fgn.validate")]:
        with pytest.raises(fgn.Error, match=r"it holds 3 games .* fgn\.games\(\)") as raised:
            call(str(several))
        assert name in str(raised.value)
        assert f'"{several}#1" to "{several}#3"' in str(raised.value)
        assert (raised.value.file, raised.value.games) == (str(several), 3)
    with pytest.raises(OSError, match="it holds no game 4 \\(it holds 3\\)"):
        fgn.read(f"{several}#4")
    # A file whose name ends in `#N` is that file, as for the commands.
    named = tmp_path / "odd.fgn#2"
    named.write_text(third.read_text())
    assert fgn.read(named).events == alone.events
