#!/usr/bin/env bash
# The benchmark of docs/performance.md, in one run on this machine. It prints
# markdown (also kept in $work/report.md) that the document's figures are
# pasted from.
#
#   bench/run.sh [GAMES] [RUNS]     # defaults: 3000 survival games, 20 timed runs each
#   FGN_BENCH_QUICK=1 bench/run.sh  # small corpora and few runs, to try the script
#   FGN_BENCH_CALLGRIND=1 bench/run.sh   # also count instructions (valgrind)
#
# In order:
#  1. the machine;
#  2. the library's stages over generated corpora of every game, on one
#     core, next to blake3 over the same bytes (`--example bench stages`);
#  3. survival-chess 8x8 end to end, `fgn --jobs 1 validate DIR` against
#     pgn-reader + shakmaty replaying the same GAMES games from one PGN file
#     whose SAN shakmaty writes (checking on the way that fgn's check markers
#     and game ends agree with shakmaty's), and fgn on all cores;
#  4. every command over every corpus as a user runs it, one job and all;
#  5. peak memory and time of `fgn validate DIR` over 1,000 and 100,000
#     small files (written once under /tmp, kept for later runs);
#  6. parse + validate time per event across log sizes up to the file-size
#     limit (`--example bench sizes`).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-3000}
runs=${2:-20}
work=${FGN_BENCH_DIR:-target/bench}
files_dir=${FGN_BENCH_FILES:-/tmp/fgn-bench-files}
if [ -n "${FGN_BENCH_QUICK:-}" ]; then
  games=${1:-100}
  runs=${2:-3}
  stage_games=20 stage_secs=0.02 corpus_games=20 cli_runs=2 many=2000 size_limit=2000000
else
  stage_games=400 stage_secs=0.5 corpus_games=400 cli_runs=5 many=100000 size_limit=
fi

# `--example` alone would build only the example, not the fgn binary.
cargo build --release -q -p fgn
cargo build --release -q -p fgn-replay --example survival_corpus --example bench
cargo build --release -q --manifest-path bench/chess-baseline/Cargo.toml
fgn=target/release/fgn
bench=target/release/examples/bench
baseline=bench/chess-baseline/target/release/chess-baseline

rm -rf "$work"
mkdir -p "$work"
exec > >(tee "$work/report.md")

# The least of several timed runs of a command, in seconds, with hyperfine
# when it is installed (after one warm-up run) and a shell loop otherwise; output
# is discarded and a failing exit status (fmt --check on a non-canonical
# log) is not an error.
best() {
  local n=$1
  shift
  if command -v hyperfine >/dev/null; then
    hyperfine -N -i --warmup 1 --runs "$n" --export-csv "$work/t.csv" "$*" >/dev/null 2>&1
    # CSV columns: command,mean,stddev,median,user,system,min,max.
    awk -F, 'NR==2 {printf "%.4f", $7}' "$work/t.csv"
  else
    local best=""
    for _ in $(seq "$n"); do
      local t0 t1
      t0=$(date +%s%N)
      "$@" >/dev/null 2>&1 || true
      t1=$(date +%s%N)
      local t=$(((t1 - t0) / 1000))
      if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    awk -v us="$best" 'BEGIN {printf "%.4f", us / 1e6}'
  fi
}

# The least time of each of two commands (seconds, space-separated) over
# `n` rounds in which they take turns, after one warm-up round: on a shared
# machine whose speed drifts over minutes, runs of the two that alternate
# meet the same conditions, where hyperfine's runs of one command and then
# of the other do not. Each command is one string, split on spaces.
best_alternating() {
  local n=$1 a=$2 b=$3 best_a="" best_b=""
  $a >/dev/null 2>&1 || true
  $b >/dev/null 2>&1 || true
  for _ in $(seq "$n"); do
    local t0 t1 t
    t0=$(date +%s%N); $a >/dev/null 2>&1 || true; t1=$(date +%s%N)
    t=$(((t1 - t0) / 1000))
    if [ -z "$best_a" ] || [ "$t" -lt "$best_a" ]; then best_a=$t; fi
    t0=$(date +%s%N); $b >/dev/null 2>&1 || true; t1=$(date +%s%N)
    t=$(((t1 - t0) / 1000))
    if [ -z "$best_b" ] || [ "$t" -lt "$best_b" ]; then best_b=$t; fi
  done
  awk -v a="$best_a" -v b="$best_b" 'BEGIN {printf "%.4f %.4f\n", a / 1e6, b / 1e6}'
}

echo "## The machine"
echo
echo "- $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "- $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo) of memory, $(uname -sr)"
echo "- $(rustc --version)"
echo "- load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- run on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)"
echo

echo "## Every game and stage, one core, in memory"
echo
"$bench" stages "$stage_games" "$stage_secs"
echo

echo "## survival-chess 8x8 against pgn-reader + shakmaty"
echo
surv="$work/survival"
mkdir -p "$surv"
target/release/examples/survival_corpus "$surv" "$games" >"$surv/corpus.txt"
plies=$(awk '{print $3}' "$surv/corpus.txt")
"$baseline" pgn "$surv/games.uci" "$surv/games.pgn"
# Both must accept every game before they are timed.
"$fgn" validate "$surv/fgn" >/dev/null
"$baseline" replay "$surv/games.pgn" >/dev/null
read -r fgn_s base_s < <(best_alternating "$runs" "$fgn --jobs 1 validate $surv/fgn" "$baseline replay $surv/games.pgn")
all_s=$(best "$runs" "$fgn" validate "$surv/fgn")
echo "Corpus: $(cat "$surv/corpus.txt"); PGN: $(wc -c <"$surv/games.pgn") bytes. Best of $runs runs, end to end (process start, reading, parsing, replaying, the summary), fgn and the baseline taking turns run by run:"
echo
awk -v p="$plies" -v f="$fgn_s" -v b="$base_s" -v a="$all_s" -v n="$(nproc)" 'BEGIN {
  print "| | seconds | M plies/s |"
  print "| --- | ---: | ---: |"
  printf "| `fgn --jobs 1 validate DIR` | %.3f | %.2f |\n", f, p / f / 1e6
  printf "| pgn-reader + shakmaty, one PGN file | %.3f | %.2f |\n", b, p / b / 1e6
  printf "| `fgn validate DIR`, %d cores | %.3f | %.2f |\n", n, a, p / a / 1e6
  print ""
  printf "**Ratio, one core (fgn plies/s over the baseline'\''s): %.2f.** All cores: %.2f× one job.\n", b / f, f / a
}'
if [ -n "${FGN_BENCH_CALLGRIND:-}" ]; then
  count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
      awk '/Collected/ {print $4}'
  }
  echo
  echo "Instructions (callgrind): fgn $(count "$fgn" --jobs 1 validate "$surv/fgn"), baseline $(count "$baseline" replay "$surv/games.pgn")."
  # fgn's stages: the instructions spent inside the parser and inside replay
  # (inclusive), and the rest of the process (start, walking and reading the
  # files, reports). `fgn validate` replays each run of events as the parser
  # hands it on (`parse_in_runs`), so the parser's inclusive count holds the
  # replay's (`Validation::apply`), which is taken out of it.
  valgrind --tool=callgrind --callgrind-out-file="$work/fgn.callgrind" "$fgn" --jobs 1 validate "$surv/fgn" >/dev/null 2>&1
  # Paths below the current directory are shortened and the lines of a
  # function split by them, so the largest count of each function is taken.
  callgrind_annotate --inclusive=yes "$work/fgn.callgrind" 2>/dev/null | awk -v p="$plies" '
    function count() { v = $1; gsub(",", "", v); return v + 0 }
    /PROGRAM TOTALS/ { total = count() }
    /parse\.rs:fgn_notation::parse::parse(_with)?( |$)/ { if (count() > parse) parse = count() }
    /lib\.rs:fgn_replay::Validation::apply( |$)/ { if (count() > replay) replay = count() }
    END {
      parse -= replay
      printf "  parse   %6.0f M  %4.0f per ply\n", parse / 1e6, parse / p
      printf "  replay  %6.0f M  %4.0f per ply\n", replay / 1e6, replay / p
      printf "  rest    %6.0f M\n", (total - parse - replay) / 1e6
    }'
fi
echo

echo "## Every command over every corpus, end to end"
echo
all="$work/all"
total_files=0 total_events=0 total_bytes=0
for slug in survival-8x8 survival-12x12 magic draughts owc owc-busy gwc gwc-forts; do
  max=300
  [ "${slug#owc}" != "$slug" ] && max=600
  read -r f e b < <("$bench" write "$all/$slug" "$slug" "$corpus_games" "$max")
  total_files=$((total_files + f)) total_events=$((total_events + e)) total_bytes=$((total_bytes + b))
done
json_bytes=$("$fgn" json --ndjson "$all" | wc -c)
echo "The $corpus_games games of each corpus above as files: $total_files files, $total_events events, $total_bytes bytes. Best of $cli_runs runs; MB/s of FGN read (json: and $json_bytes bytes written)."
echo
echo "| command | one job, s | MB/s | M events/s | $(nproc) cores, s | speed-up |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
# `hash --states` is left to the library table: a state hash after every
# event makes it minutes long over this corpus.
for cmd in "validate" "hash" "json --ndjson" "fmt --check"; do
  # shellcheck disable=SC2086 # the command's words are meant to split
  one=$(best "$cli_runs" "$fgn" --jobs 1 $cmd "$all")
  # shellcheck disable=SC2086
  many_s=$(best "$cli_runs" "$fgn" $cmd "$all")
  awk -v c="$cmd" -v o="$one" -v m="$many_s" -v b="$total_bytes" -v e="$total_events" 'BEGIN {
    printf "| `fgn %s DIR` | %.3f | %.1f | %.2f | %.3f | %.2f× |\n", c, o, b / o / 1e6, e / o / 1e6, m, o / m
  }'
done
echo

echo "## Memory over many files"
echo
# Small survival-chess 8x8 games (at most 60 plies), written once: the
# directory is kept for later runs when it holds the expected files.
mem_rows=""
for n in 1000 "$many"; do
  dir="$files_dir/$n"
  if [ "$(cat "$dir/.count" 2>/dev/null)" != "$n" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    "$bench" write "$dir/logs" survival-8x8 "$n" 60 >"$dir/.count.txt"
    echo "$n" >"$dir/.count"
  fi
  for jobs in "--jobs 1" ""; do
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %M" -o "$work/time.txt" "$fgn" $jobs validate "$dir/logs" >/dev/null
    read -r secs kb <"$work/time.txt"
    mem_rows+=$(awk -v n="$n" -v j="${jobs:-all cores}" -v s="$secs" -v k="$kb" -v b="$(awk '{print $3}' "$dir/.count.txt")" 'BEGIN {
      printf "| %d | %.1f | %s | %.2f | %.1f |\\n", n, b / 1e6, j, s, k / 1024
    }')
  done
done
echo "\`/usr/bin/time\` of one run of \`fgn validate DIR\` over small survival-chess 8x8 logs (at most 60 plies each):"
echo
echo "| files | MB | jobs | seconds | peak resident MiB |"
echo "| ---: | ---: | --- | ---: | ---: |"
printf "%b" "$mem_rows"
echo

echo "## Time per event across log sizes"
echo
"$bench" sizes $size_limit
