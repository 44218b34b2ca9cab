#!/usr/bin/env bash
# The figures of docs/analysis.md and docs/performance.md's "Tables": on a
# mixed archive made by `fgn gen` (a quarter of the games of each kind), the
# size of the logs, of `fgn events` as NDJSON (default and --columns all)
# and as Parquet, of `fgn json --parquet`; the time DuckDB takes to load
# the events from NDJSON and from Parquet; and the peak memory (max RSS,
# /usr/bin/time -v) of writing the events as Parquet for 1,000 and 10,000
# games, which stays flat because rows go out a row group at a time.
#
# Usage: bench/tables.sh [GAMES...]   (default: 1000 10000)
# FGN names the binary (default: target/release/fgn, built if missing);
# python3 needs the duckdb package (.ci/test installs it, pinned).
set -euo pipefail
cd "$(dirname "$0")/.."
fgn="${FGN:-target/release/fgn}"
[ -x "$fgn" ] || cargo build --release -p fgn
fgn="$(realpath "$fgn")"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {print $2}'; }
printf '%-7s %9s %11s %11s %9s %9s %12s %12s %10s\n' games logs_kB ndjson_kB all_kB pq_kB games_pq_kB duckdb_json_s duckdb_pq_s rss_pq_kB
for n in "${sizes[@]}"; do
  dir="$work/$n"
  for game in great-war-chess survival-chess open-world-chess magic-draughts; do
    "$fgn" gen --game "$game" --seed 1 --count $((n / 4)) --out "$dir/logs/$game" >/dev/null 2>&1
  done
  (cd "$dir" && "$fgn" -q events logs >events.ndjson && "$fgn" -q events --columns all logs >all.ndjson) || [ $? -eq 1 ]
  (cd "$dir" && "$fgn" -q json --parquet games logs) || true
  kb() { du -sk --apparent-size "$1" | cut -f1; }
  peak="$(cd "$dir" && rss "$fgn" -q events --parquet events logs)"
  times="$(python3 - "$dir" <<'PY'
import duckdb, sys, time
d = sys.argv[1]
def load(source):
    con = duckdb.connect()
    start = time.perf_counter()
    con.execute(f"CREATE TABLE t AS SELECT * FROM {source}")
    return time.perf_counter() - start
ndjson = load(f"read_json_auto('{d}/events.ndjson', format='newline_delimited')")
parquet = load(f"read_parquet('{d}/events/**/*.parquet', hive_partitioning=true)")
print(f"{ndjson:.2f} {parquet:.2f}")
PY
)"
  printf '%-7s %9s %11s %11s %9s %9s %12s %12s %10s\n' "$n" "$(kb "$dir/logs")" "$(kb "$dir/events.ndjson")" "$(kb "$dir/all.ndjson")" \
    "$(kb "$dir/events")" "$(kb "$dir/games")" ${times} "$peak"
  rm -rf "$dir"
done
