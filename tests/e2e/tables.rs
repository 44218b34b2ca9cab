//! Issue 38's tables through the binary and real readers: a mixed archive
//! made with `fgn gen`, ordered so that its first 20,480 event rows (what
//! DuckDB's `read_json_auto` samples to guess types) come from
//! great-war-chess games, which have none of the later games' sparse
//! columns, with a few files that cannot be read; its events and games
//! tables as NDJSON and Parquet, loaded into DuckDB, pandas and pyarrow,
//! whose per-game counts must be `fgn stats`'s; and docs/analysis.md held
//! to the tables' definitions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::analysis::python_with;
use crate::util::{self, fgn};

/// The rows DuckDB's `read_json_auto` reads to guess the columns' types.
const DUCKDB_SAMPLE: usize = 20_480;

/// Makes the archive in `dir`: great-war-chess first (enough games to
/// fill DuckDB's sample), then the other games, and three files that
/// cannot be read as FGN among them. Returns the unreadable files' paths
/// with the line and column of their syntax error.
fn archive(dir: &Path) -> Vec<(String, u64, u64)> {
    for (folder, game, count) in [
        ("a-gwc", "great-war-chess", "170"),
        ("b-sc", "survival-chess", "40"),
        ("c-owc", "open-world-chess", "40"),
        ("d-md", "magic-draughts", "40"),
    ] {
        let out = dir.join(folder).display().to_string();
        let made = fgn(
            &["gen", "--game", game, "--seed", "7", "--count", count, "--out", &out],
            b"",
        );
        assert_eq!(made.status.code(), Some(0), "{}", String::from_utf8_lossy(&made.stderr));
    }
    let bad: [(&str, &[u8], u64, u64); 3] = [
        (
            "b-sc/bad-square.fgn",
            b"[Game \"survival-chess\"]\n[Rules \"1.0\"]\n\n1 w e2-z99\n",
            4,
            8,
        ),
        (
            "c-owc/not-utf8.fgn",
            b"[Game \"open-world-chess\"]\n[Rules \"1.2\"]\n\n1 w e2-e3 ; \xff\xfe\n",
            4,
            13,
        ),
        (
            "d-md/unknown-action.fgn",
            b"[Game \"magic-draughts\"]\n[Rules \"1.0\"]\n\n1 w castle\n",
            4,
            5,
        ),
    ];
    bad.iter()
        .map(|(name, bytes, line, column)| {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            (path.display().to_string(), *line, *column)
        })
        .collect()
}

fn lines(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8(bytes.to_vec())
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .collect()
}

/// The sums an analyst asks for, per game, from rows as fgn wrote them.
const COUNTS: [&str; 6] = [
    "captures",
    "deaths",
    "coins_spent",
    "coins_gained",
    "spells_cast",
    "charges_spent",
];

fn per_game_sums(rows: &[Value]) -> BTreeMap<String, BTreeMap<String, u64>> {
    let mut out: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    for row in rows {
        let game = out.entry(row["game"].as_str().unwrap().to_string()).or_default();
        *game.entry("rows".into()).or_default() += 1;
        for count in COUNTS {
            *game.entry(count.into()).or_default() += row[count].as_u64().unwrap();
        }
    }
    out
}

/// The Python half: every reader's answers as one JSON object.
const SCRIPT: &str = r#"
import duckdb, json, sys
import pandas, pyarrow.parquet
default, every, clause, events_dir, games_dir = sys.argv[1:6]
counts = ["captures", "deaths", "coins_spent", "coins_gained", "spells_cast", "charges_spent"]
sums = ", ".join(f"sum({c})::BIGINT" for c in counts)
con = duckdb.connect()
con.execute(f"CREATE VIEW j AS SELECT * FROM read_json_auto('{default}', format='newline_delimited')")
con.execute(f"CREATE VIEW p AS SELECT * FROM read_parquet('{events_dir}/**/*.parquet', hive_partitioning=true)")
con.execute(f"CREATE VIEW g AS SELECT * FROM read_parquet('{games_dir}/**/*.parquet', hive_partitioning=true)")
def per_game(view):
    rows = con.execute(f"SELECT game, count(*), {sums} FROM {view} GROUP BY game ORDER BY game").fetchall()
    return {r[0]: dict(zip(["rows"] + counts, r[1:])) for r in rows}
def unreadable(view):
    return sorted(con.execute(f"SELECT file, status, error_kind, error_line, error_column FROM {view} WHERE type = 'unreadable'").fetchall())
out = {
  "json_types": {r[0]: r[1] for r in con.execute("DESCRIBE j").fetchall()},
  "parquet_types": {r[0]: r[1] for r in con.execute("DESCRIBE p").fetchall()},
  "json_sums": per_game("j"),
  "parquet_sums": per_game("p"),
  "one_partition": con.execute("SELECT count(*) FROM p WHERE game = 'magic-draughts'").fetchone()[0],
  "json_unreadable": unreadable("j"),
  "parquet_unreadable": unreadable("p"),
  "games_unreadable": unreadable("g"),
  "games_types": {r[0]: r[1] for r in con.execute("DESCRIBE g").fetchall()},
  "games_rows": con.execute("SELECT count(*) FROM g").fetchone()[0],
}
pinned = f"read_json('{every}', format='newline_delimited', {clause})"
out["pinned_pieces"] = dict(con.execute(f"SELECT game, count(piece) FROM {pinned} GROUP BY game").fetchall())
out["pinned_spells"] = dict(con.execute(f"SELECT game, count(spell) FROM {pinned} GROUP BY game").fetchall())
auto = {r[0]: r[1] for r in con.execute(f"DESCRIBE SELECT * FROM read_json_auto('{every}', format='newline_delimited')").fetchall()}
out["auto_piece_type"] = auto["piece"]
frame = pandas.read_json(default, lines=True)
out["pandas_sums"] = {game: {c: int(v) for c, v in group[counts].sum().items()} | {"rows": len(group)} for game, group in frame.groupby("game")}
table = pyarrow.parquet.read_table(events_dir).to_pandas()
table["game"] = table["game"].astype(str)
out["pyarrow_sums"] = {game: {c: int(v) for c, v in group[counts].sum().items()} | {"rows": len(group)} for game, group in table.groupby("game")}
print(json.dumps(out))
"#;

#[test]
fn duckdb_pandas_and_pyarrow_read_the_tables_with_their_types_and_counts() {
    let Some(python) = python_with(&["duckdb", "pandas", "pyarrow"]) else {
        return;
    };
    let dir = util::scratch_dir("tables-archive");
    let logs = dir.join("logs");
    let unreadable = archive(&logs);
    let logs_arg = logs.display().to_string();
    let run = |args: &[&str]| {
        let out = fgn(args, b"");
        // Files with syntax errors are reported (exit 1), and written.
        assert_eq!(
            out.status.code(),
            Some(1),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let default = run(&["events", &logs_arg]);
    let every = run(&["events", "--columns", "all", &logs_arg]);
    let events_dir = dir.join("events");
    let games_dir = dir.join("games");
    let (events_arg, games_arg) = (events_dir.display().to_string(), games_dir.display().to_string());
    run(&["events", "--parquet", &events_arg, "--force", &logs_arg]);
    run(&["json", "--parquet", &games_arg, "--force", &logs_arg]);
    let clause = String::from_utf8(fgn(&["events", "--schema", "duckdb", "--columns", "all"], b"").stdout).unwrap();
    let (default_path, every_path) = (dir.join("events.ndjson"), dir.join("all.ndjson"));
    std::fs::write(&default_path, &default).unwrap();
    std::fs::write(&every_path, &every).unwrap();

    let rows = lines(&default);
    let all = lines(&every);
    assert_eq!(rows.len(), all.len());
    // The archive sets the trap: its first sampled rows have no piece,
    // which later rows have.
    assert!(
        all[..DUCKDB_SAMPLE]
            .iter()
            .all(|r| r["piece"].is_null() && r["game"] == "great-war-chess"),
        "the first {DUCKDB_SAMPLE} rows are great-war-chess's"
    );
    assert!(all[DUCKDB_SAMPLE..].iter().any(|r| r["piece"].is_string()));
    for row in &rows {
        assert!(
            row.as_object().unwrap().values().all(|v| !v.is_null()),
            "a default column is null: {row}"
        );
    }

    let out = std::process::Command::new(&python)
        .args([
            "-c",
            SCRIPT,
            &default_path.display().to_string(),
            &every_path.display().to_string(),
            clause.trim(),
            &events_arg,
            &games_arg,
        ])
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "the Python script failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).expect("the script prints JSON");

    // (a) Every default column read from NDJSON without hints has the type
    // it has in Parquet, and the type the table's schema gives it.
    let json_types = answer["json_types"].as_object().unwrap();
    let parquet_types = answer["parquet_types"].as_object().unwrap();
    assert_eq!(json_types.len(), rows[0].as_object().unwrap().len());
    let schema: Value =
        serde_json::from_slice(&fgn(&["events", "--schema", "json"], b"").stdout).expect("--schema json is JSON");
    for column in schema["columns"].as_array().unwrap() {
        let name = column["name"].as_str().unwrap();
        let expected = match column["type"].as_str().unwrap() {
            "integer" => "BIGINT",
            "boolean" => "BOOLEAN",
            _ => "VARCHAR",
        };
        assert_eq!(json_types[name], expected, "{name} from NDJSON");
        assert_eq!(parquet_types[name], expected, "{name} from Parquet");
    }
    // Per-game sums: what fgn's own `stats` counts (over valid logs, and
    // every generated log is valid; an unreadable row counts nothing),
    // read back from the rows by every reader.
    let stats = lines(&fgn(&["--format", "json", "stats", "--counts", &logs_arg], b"").stdout);
    let mut expected = serde_json::Map::new();
    let from_rows = per_game_sums(&rows);
    for game in stats[0]["games"].as_array().unwrap() {
        let name = game["game"].as_str().unwrap();
        let mut sums = game["counts"].as_object().unwrap().clone();
        sums.insert("rows".into(), from_rows[name]["rows"].into());
        expected.insert(name.to_string(), Value::Object(sums));
    }
    let expected = Value::Object(expected);
    assert_eq!(
        expected,
        serde_json::to_value(&from_rows).unwrap(),
        "the rows add up to stats"
    );
    assert_eq!(
        expected["magic-draughts"]["spells_cast"].as_u64().map(|n| n > 0),
        Some(true)
    );
    assert_eq!(
        expected["great-war-chess"]["charges_spent"].as_u64().map(|n| n > 0),
        Some(true)
    );
    // Generated open-world-chess games pick coins up but seldom buy.
    assert_eq!(
        expected["open-world-chess"]["coins_gained"].as_u64().map(|n| n > 0),
        Some(true)
    );
    for reader in ["json_sums", "parquet_sums", "pandas_sums", "pyarrow_sums"] {
        assert_eq!(answer[reader], expected, "{reader}");
    }

    // (b) With the schema clause the sparse columns keep their values,
    // which DuckDB's guess alone types as nothing.
    let pieces = |game: &str, column: &str| {
        all.iter()
            .filter(|r| r["game"] == game && r[column].is_string())
            .count() as u64
    };
    for game in ["survival-chess", "open-world-chess"] {
        assert_eq!(
            answer["pinned_pieces"][game].as_u64(),
            Some(pieces(game, "piece")),
            "{game}"
        );
        assert!(pieces(game, "piece") > 0, "{game}");
    }
    assert_eq!(
        answer["pinned_spells"]["magic-draughts"].as_u64(),
        Some(pieces("magic-draughts", "spell"))
    );
    assert_ne!(
        answer["auto_piece_type"], "VARCHAR",
        "the archive no longer sets the trap"
    );

    // (d) One partition read alone.
    assert_eq!(answer["one_partition"], expected["magic-draughts"]["rows"]);

    // (e) Every unreadable file has its row, in both formats and in the
    // games table, with its error's place.
    let mut wanted: Vec<Value> = unreadable
        .iter()
        .map(|(file, line, column)| serde_json::json!([file, "invalid", "syntax", line, column]))
        .collect();
    wanted.sort_by_key(|v| v[0].as_str().unwrap().to_string());
    for (reader, found) in [
        ("NDJSON", &answer["json_unreadable"]),
        ("Parquet", &answer["parquet_unreadable"]),
        ("games", &answer["games_unreadable"]),
    ] {
        assert_eq!(found.as_array().unwrap(), &wanted, "{reader}");
    }
    assert_eq!(answer["games_rows"].as_u64(), Some(util::fgn_files(&logs).len() as u64));
    assert_eq!(answer["games_types"]["events"], "BIGINT");
}

#[test]
fn parquet_files_are_refused_over_an_earlier_run_and_replaced_with_force() {
    let dir = util::scratch_dir("tables-force");
    let out = dir.join("out");
    let out_arg = out.display().to_string();
    let log = "corpus/survival-chess/valid/01-bishop-queen-mate.fgn";
    let first = fgn(&["events", "--parquet", &out_arg, log], b"");
    assert_eq!(
        first.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(first.stdout.is_empty(), "nothing on standard output");
    assert_eq!(
        String::from_utf8_lossy(&first.stderr),
        format!("wrote 1 file in {out_arg}\n")
    );
    let part: PathBuf = out.join("game=survival-chess").join("part-00000.parquet");
    let written = std::fs::read(&part).unwrap();
    assert!(written.starts_with(b"PAR1") && written.ends_with(b"PAR1"));
    let again = fgn(&["events", "--parquet", &out_arg, log], b"");
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&again.stderr),
        format!(
            "error: {}: not written: it already exists (--force overwrites it)\n",
            part.display()
        )
    );
    let forced = fgn(&["events", "--parquet", &out_arg, "--force", log], b"");
    assert_eq!(forced.status.code(), Some(0));
    assert_eq!(
        std::fs::read(&part).unwrap(),
        written,
        "the same rows give the same file"
    );
}

/// The default rows of the whole corpus, unreadable files' among them,
/// validate against docs/fgn-events.schema.json, and no value is null.
#[test]
fn default_rows_validate_against_the_events_schema() {
    let schema = crate::schema::Schema::load_from(&util::root().join("docs/fgn-events.schema.json"));
    let rows = lines(&fgn(&["events", "corpus"], b"").stdout);
    let mut kinds = std::collections::BTreeSet::new();
    for row in &rows {
        if let Some(e) = schema.errors(row) {
            panic!("an events row does not validate:\n{e}\n{row}");
        }
        assert!(row.as_object().unwrap().values().all(|v| !v.is_null()), "{row}");
        kinds.insert(row["type"].as_str().unwrap().to_string());
    }
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), ["event", "unreadable"]);
}

#[test]
fn columns_choose_what_is_written_and_an_unknown_name_lists_the_names() {
    let log = "corpus/open-world-chess/valid/owc-01-raid-king-killed.fgn";
    let chosen = lines(&fgn(&["events", "--columns", "event,spell,state_hash", log], b"").stdout);
    let keys: Vec<&String> = chosen[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["event", "spell", "state_hash"], "in the table's order");
    let bad = fgn(&["events", "--columns", "event,nope", log], b"");
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("no column `nope`") && err.contains("captures, deaths, coins_spent"),
        "{err}"
    );
    assert!(bad.stdout.is_empty());
    // The games table's columns need --parquet or --schema.
    let games = fgn(&["json", "--columns", "file", log], b"");
    assert_eq!(games.status.code(), Some(2));
    let clause =
        String::from_utf8(fgn(&["json", "--schema", "duckdb", "--columns", "file,events"], b"").stdout).unwrap();
    assert_eq!(clause, "columns={'file': 'VARCHAR', 'events': 'BIGINT'}\n");
}

/// docs/analysis.md lists every column of both tables with its type,
/// whether it may be null and whether it is written by default, as
/// `--schema json` describes them: the table of
/// columns is checked against the definitions, not copied from them.
#[test]
fn the_analysis_doc_lists_exactly_the_tables_columns() {
    let doc = std::fs::read_to_string(util::root().join("docs/analysis.md")).unwrap();
    for command in ["events", "json"] {
        let schema: Value =
            serde_json::from_slice(&fgn(&[command, "--schema", "json", "--columns", "all"], b"").stdout).unwrap();
        let table = schema["table"].as_str().unwrap();
        let heading = format!("<!-- columns: {table} -->");
        let start = doc
            .find(&heading)
            .unwrap_or_else(|| panic!("docs/analysis.md has no `{heading}`"));
        let listed: Vec<(String, String, String, String)> = doc[start + heading.len()..]
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .skip(2)
            .map(|l| {
                let cells: Vec<&str> = l.split('|').map(str::trim).collect();
                (
                    cells[1].trim_matches('`').to_string(),
                    cells[2].trim_matches('`').to_string(),
                    cells[3].to_string(),
                    cells[4].to_string(),
                )
            })
            .collect();
        let defined: Vec<(String, String, String, String)> = schema["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let yes = |v: &Value| if *v == true { "yes" } else { "no" }.to_string();
                (
                    c["name"].as_str().unwrap().to_string(),
                    c["type"].as_str().unwrap().to_string(),
                    yes(&c["nullable"]),
                    yes(&c["default"]),
                )
            })
            .collect();
        assert_eq!(listed, defined, "docs/analysis.md's {table} columns");
    }
}
