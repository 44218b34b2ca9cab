#!/usr/bin/env bash
# The memory figures of issue 38, item 3 (docs/performance.md, "Memory"), in
# one rerunnable command: peak resident memory (`/usr/bin/time`'s maximum
# RSS) and wall-clock seconds of
#
#  - `fgn from-json --out` of NDJSON archives of 2,000 and 10,000 generated
#    games (a quarter of each game), which must be flat: the same memory
#    whatever the archive's size;
#  - one log of 200,000 events (survival-chess from the classical start,
#    uniformly random moves, left open: the kings walk on alone) through
#    `fgn json`, `fgn from-json` of its pretty document and of its NDJSON
#    line, `fgn events --ndjson`, and `fgn diff` of it against an earlier
#    version of itself (its first 199,000 events).
#
# It prints a markdown table. The inputs are generated into a temporary
# folder, removed at the end (FGN_BENCH_KEEP=1 keeps it and says where).
#
#   bench/memory.sh                       # the sizes above, a release build
#   FGN_BENCH_QUICK=1 bench/memory.sh     # a tenth of the sizes, to try it
#   FGN=/path/to/fgn bench/memory.sh      # another build (an older commit's)
#
# Not part of the test suite: it takes a few minutes, most of it generating
# the 10,000 games.
set -euo pipefail
cd "$(dirname "$0")/.."
small=2000
large=10000
events=200000
if [ -n "${FGN_BENCH_QUICK:-}" ]; then
  small=200
  large=1000
  events=20000
fi
if [ -z "${FGN:-}" ]; then
  cargo build --release -q -p fgn
  FGN=$PWD/target/release/fgn
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/fgn-memory.XXXXXX")
if [ -n "${FGN_BENCH_KEEP:-}" ]; then
  echo "inputs kept in $work" >&2
else
  trap 'rm -rf "$work"' EXIT
fi
cd "$work"

# Runs fgn with the arguments, its output thrown away, and prints its
# seconds and peak memory in MB, whatever its exit status.
timed() {
  /usr/bin/time -o time.txt -f "%e %M" "$FGN" "$@" >/dev/null 2>&1 || true
  awk '{ printf "%.2f s, %.1f MB", $1, $2 / 1024 }' < <(tail -1 time.txt)
}

# An archive of $1 games, a quarter of each game, as NDJSON in $1.ndjson.
archive() {
  local n=$1 each=$(($1 / 4)) game
  for game in survival-chess open-world-chess great-war-chess magic-draughts; do
    "$FGN" gen --game "$game" --seed 1 --count "$each" --out "games-$n/$game" 2>/dev/null
  done
  "$FGN" json --ndjson "games-$n" >"$n.ndjson"
}

archive "$small"
archive "$large"
"$FGN" gen --game survival-chess --board 8x8 --setup classical --finish 0 \
  --unfinished --seed 1 --plies "$events" >long.fgn
head -n -$((events / 200)) long.fgn >earlier.fgn
"$FGN" json long.fgn >long.json
"$FGN" json --ndjson long.fgn >long.ndjson

size() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
long_events=$(grep -c '^[0-9]' long.fgn)
echo "| input | command | time, peak memory |"
echo "| --- | --- | --- |"
for n in "$small" "$large"; do
  echo "| $n games, NDJSON ($(size "$n.ndjson")) | \`fgn from-json --out DIR\` | $(rm -rf out; timed from-json --out out "$n.ndjson") |"
done
echo "| one log of $long_events events ($(size long.fgn)) | \`fgn json\` | $(timed json long.fgn) |"
echo "| its document, pretty ($(size long.json)) | \`fgn from-json\` | $(timed from-json long.json) |"
echo "| its document, NDJSON ($(size long.ndjson)) | \`fgn from-json\` | $(timed from-json long.ndjson) |"
echo "| the log | \`fgn events --ndjson\` | $(timed events --ndjson long.fgn) |"
echo "| the log and its first $(grep -c '^[0-9]' earlier.fgn) events | \`fgn diff\` | $(timed diff long.fgn earlier.fgn) |"
echo "| the log with itself | \`fgn diff\` | $(timed diff long.fgn long.fgn) |"
