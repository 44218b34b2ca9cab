#!/usr/bin/env bash
# One-core survival-chess validation against pgn-reader + shakmaty, in one
# run on this machine (docs/performance.md).
#
#   bench/run.sh [GAMES] [RUNS]     # defaults: 3000 games, 20 timed runs each
#   FGN_BENCH_CALLGRIND=1 bench/run.sh   # also count instructions (valgrind)
#
# It builds fgn and the baseline crate in release, writes GAMES random
# survival-chess 8x8 games (one .fgn file each, and the same games as one
# PGN file whose SAN shakmaty writes, checking on the way that fgn's check
# markers and game ends agree with shakmaty's), then times, as a user runs
# them, `fgn validate DIR` (one core) and the baseline replaying the PGN:
# process start, reading, parsing, replaying, the summary. It prints the
# best time of RUNS runs of each (the least disturbed by the rest of a
# shared machine), plies per second and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-3000}
runs=${2:-20}
work=${FGN_BENCH_DIR:-target/bench-survival}

# `--example` alone would build only the example, not the fgn binary.
cargo build --release -q -p fgn
cargo build --release -q -p fgn-replay --example survival_corpus
cargo build --release -q --manifest-path bench/chess-baseline/Cargo.toml
fgn=target/release/fgn
baseline=bench/chess-baseline/target/release/chess-baseline

rm -rf "$work"
mkdir -p "$work"
target/release/examples/survival_corpus "$work" "$games" >"$work/corpus.txt"
plies=$(awk '{print $3}' "$work/corpus.txt")
"$baseline" pgn "$work/games.uci" "$work/games.pgn"
# Both must accept every game before they are timed.
"$fgn" validate "$work/fgn" >/dev/null
"$baseline" replay "$work/games.pgn" >/dev/null

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(rustc --version)"
echo "corpus: $(cat "$work/corpus.txt"); PGN: $(wc -c <"$work/games.pgn") bytes"

# One job: the comparison is core for core (fgn uses every core by default).
fgn_cmd="$fgn --jobs 1 validate $work/fgn"
all_cmd="$fgn validate $work/fgn"
base_cmd="$baseline replay $work/games.pgn"
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 3 --runs "$runs" --export-csv "$work/times.csv" "$fgn_cmd" "$base_cmd" "$all_cmd" >"$work/hyperfine.txt"
  # CSV columns: command,mean,stddev,median,user,system,min,max.
  fgn_s=$(awk -F, 'NR==2 {print $7}' "$work/times.csv")
  base_s=$(awk -F, 'NR==3 {print $7}' "$work/times.csv")
  all_s=$(awk -F, 'NR==4 {print $7}' "$work/times.csv")
else
  best() {
    local best=""
    for _ in $(seq "$runs"); do
      local t0 t1
      t0=$(date +%s%N)
      $1 >/dev/null
      t1=$(date +%s%N)
      local t=$(((t1 - t0) / 1000))
      if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    awk -v us="$best" 'BEGIN {printf "%.6f", us / 1e6}'
  }
  fgn_s=$(best "$fgn_cmd")
  base_s=$(best "$base_cmd")
  all_s=$(best "$all_cmd")
fi

awk -v p="$plies" -v f="$fgn_s" -v b="$base_s" -v a="$all_s" -v n="$(nproc)" -v r="$runs" 'BEGIN {
  printf "best of %d runs, one core, end to end:\n", r
  printf "  fgn validate DIR           %8.3f s  %6.2f M plies/s\n", f, p / f / 1e6
  printf "  pgn-reader + shakmaty PGN  %8.3f s  %6.2f M plies/s\n", b, p / b / 1e6
  printf "  ratio (fgn plies/s / baseline plies/s): %.2f\n", b / f
  printf "all %d cores: fgn validate DIR %8.3f s, %.2fx one job\n", n, a, f / a
}'

if [ -n "${FGN_BENCH_CALLGRIND:-}" ]; then
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
      awk '/Collected/ {print $4}'
  }
  echo "instructions (callgrind): fgn $(count $fgn_cmd), baseline $(count $base_cmd)"
  # fgn's stages: the instructions spent inside the parser and inside replay
  # (inclusive), and the rest of the process (start, walking and reading the
  # files, reports).
  valgrind --tool=callgrind --callgrind-out-file="$work/fgn.callgrind" $fgn_cmd >/dev/null 2>&1
  # Paths below the current directory are shortened and the lines of a
  # function split by them, so the largest count of each function is taken.
  callgrind_annotate --inclusive=yes "$work/fgn.callgrind" 2>/dev/null | awk -v p="$plies" '
    function count() { v = $1; gsub(",", "", v); return v + 0 }
    /PROGRAM TOTALS/ { total = count() }
    /parse\.rs:fgn_notation::parse::parse( |$)/ { if (count() > parse) parse = count() }
    /lib\.rs:fgn_replay::validate_with_params( |$)/ { if (count() > replay) replay = count() }
    END {
      printf "  parse   %6.0f M  %4.0f per ply\n", parse / 1e6, parse / p
      printf "  replay  %6.0f M  %4.0f per ply\n", replay / 1e6, replay / p
      printf "  rest    %6.0f M\n", (total - parse - replay) / 1e6
    }'
fi
