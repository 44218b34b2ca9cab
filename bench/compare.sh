#!/usr/bin/env bash
# Every stage of every benchmark corpus, before and after a change, counted
# in instructions: the figure that does not depend on a quiet machine. Each
# commit's own library benchmark (`replay/examples/bench`) is built in
# release, and `bench profile CORPUS 0 GAMES STAGE` runs once under
# callgrind, collecting only inside the stage (`Stage::run`), so that
# generating the corpus is not counted. It prints a markdown table:
# instructions before, after, and after/before (1.00 is unchanged; more is
# slower).
#
#   bench/compare.sh BEFORE AFTER [GAMES]    # commits; GAMES defaults to 100
#   FGN_COMPARE_STAGES="parse validate" FGN_COMPARE_CORPORA="owc" bench/compare.sh A B
#
# Not part of the test suite: two release builds and 160 runs under
# valgrind take about half an hour on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: bench/compare.sh BEFORE AFTER [GAMES]" >&2
  exit 2
fi
before=$(git rev-parse --short "$1")
after=$(git rev-parse --short "$2")
games=${3:-100}
stages=${FGN_COMPARE_STAGES:-parse validate validate-runs replay hash states view json json-writing fmt-check}
corpora=${FGN_COMPARE_CORPORA:-survival-8x8 survival-12x12 magic draughts owc owc-busy gwc gwc-forts}
work=${FGN_COMPARE_DIR:-$PWD/target/compare}
command -v valgrind >/dev/null || { echo "bench/compare.sh needs valgrind" >&2; exit 2; }
mkdir -p "$work"

# Builds the benchmark of commit $1 in a worktree of its own (kept between
# runs, so a second comparison against the same commit builds nothing).
build() {
  local commit=$1 tree="$work/tree-$1"
  if [ ! -d "$tree" ]; then
    git worktree add -q --detach "$tree" "$commit"
  fi
  (cd "$tree" && CARGO_TARGET_DIR="$work/target-$commit" \
    cargo build --release -q -p fgn-replay --example bench)
  echo "$work/target-$commit/release/examples/bench"
}

# The instructions `bench profile $2 0 $games $3` executes inside the stage.
count() {
  local bin=$1 corpus=$2 stage=$3 out
  out="$work/callgrind.out"
  if ! valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect='*Stage*run*' \
    "$bin" profile "$corpus" 0 "$games" "$stage" >/dev/null 2>"$work/valgrind.log"; then
    echo "-"
    return
  fi
  awk '/^summary:/ {print $2}' "$out"
}

bin_before=$(build "$before")
bin_after=$(build "$after")

echo "Instructions of each stage over $games games, $before against $after (callgrind, \`Stage::run\` only)."
echo
echo "| corpus | stage | $before | $after | ratio |"
echo "|---|---|---:|---:|---:|"
for corpus in $corpora; do
  for stage in $stages; do
    a=$(count "$bin_before" "$corpus" "$stage")
    b=$(count "$bin_after" "$corpus" "$stage")
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", b / a; else print "-" }')
    echo "| $corpus | $stage | $a | $b | $ratio |"
  done
done
