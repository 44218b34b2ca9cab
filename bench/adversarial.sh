#!/usr/bin/env bash
# The worst cases of issue 36, item 5, in one rerunnable command: inputs that
# cost super-linear time or unbounded memory before, each run at a size and
# at four times that size, so that the ratio of the two times (about 4 for
# linear work) and the peak memory against the log's size can be read off.
# It prints markdown tables (docs/performance.md, "Adversarial inputs"):
# times and peak memory, then the instructions each case executes at the
# sixteenth sizes and four times those, counted by callgrind, whose ratio
# does not depend on a quiet machine (about 4.0 for linear work).
#
#   bench/adversarial.sh            # the sizes of the issue (a 64 MiB log)
#   FGN_BENCH_QUICK=1 bench/adversarial.sh   # a sixteenth of them, to try it
#   FGN_BENCH_NO_COUNT=1 bench/adversarial.sh   # times only, no callgrind
#
# Not part of the test suite: it takes minutes (the counts about five more,
# under valgrind) and needs a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${FGN_BENCH_DIR:-target/bench-adversarial}
scale=16
if [ -n "${FGN_BENCH_QUICK:-}" ]; then scale=1; fi
cargo build --release -q -p fgn
fgn=$PWD/target/release/fgn
mkdir -p "$work"
cd "$work"

# Writes a log: the header lines in $1, then $2 copies of the line $3.
write_log() {
  python3 - "$@" <<'PY'
import sys
header, n, line, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
with open(out, "w") as f:
    f.write(header.replace("\\n", "\n"))
    f.write((line + "\n") * n)
PY
}

# Writes a header of $1 tags T0..: the `Game` and `Rules` tags, then n more.
write_tags() {
  python3 - "$@" <<'PY'
import sys
n, out = int(sys.argv[1]), sys.argv[2]
with open(out, "w") as f:
    f.write('[Game "survival-chess"]\n[Rules "1.0"]\n')
    f.write("".join('[T%d "v"]\n' % i for i in range(n)))
    f.write("\n")
PY
}

# Runs fgn with the arguments (standard input from $STDIN, if set) and
# prints its wall-clock seconds and peak memory in KB, whatever its exit
# status (refusals are the point of some cases).
timed() {
  /usr/bin/time -o time.txt -f "%e %M" "$fgn" "$@" <"${STDIN:-/dev/null}" >/dev/null 2>&1 || true
  tail -1 time.txt
}

# Writes $1 chat lines on the 26x26 open-world-chess board, each with a
# clock reading a tenth of a second after the one before: each changes the
# state's progress and nothing else.
write_clock_chats() {
  python3 - "$@" <<'PY'
import sys
n, out = int(sys.argv[1]), sys.argv[2]
with open(out, "w") as f:
    f.write('[Game "open-world-chess"]\n[Rules "1.2"]\n[Board "26x26"]\n\n')
    for i in range(1, n + 1):
        t = "%d.%d" % (i // 10, i % 10) if i % 10 else "%d" % (i // 10)
        f.write('0 w chat "gl" {t=%s}\n' % t)
PY
}

# The instructions fgn executes with the arguments, by callgrind (one job,
# so that no thread's waiting is counted).
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=callgrind.out "$fgn" --jobs 1 "$@" >/dev/null 2>callgrind.txt || true
  rm -f callgrind.out
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' callgrind.txt | tail -1
}

# One row of instruction counts: as `row`, at the sixteenth sizes.
count_row() {
  local name=$1 small=$2 large=$3
  shift 3
  local a1=("$small") a4=("$large")
  if [ -n "${TWICE:-}" ]; then a1+=("$small"); a4+=("$large"); fi
  local i1 i4
  i1=$(instructions "$@" "${a1[@]}")
  i4=$(instructions "$@" "${a4[@]}")
  awk -v n="$name" -v c="fgn $*" -v i1="$i1" -v i4="$i4" 'BEGIN {
    printf "| %s | `%s` | %.1f M | %.1f M | %.2f |\n", n, c, i1 / 1e6, i4 / 1e6, (i1 > 0) ? i4 / i1 : 0
  }'
}

# One row: the case, the command, the seconds and peak memory at size 1x
# and 4x, and the ratio of the times. With TWICE=1 the log is given twice
# (`diff` of a log with itself).
row() {
  local name=$1 small=$2 large=$3
  shift 3
  local t1 m1 t4 m4 a1=("$small") a4=("$large")
  if [ -n "${TWICE:-}" ]; then a1+=("$small"); a4+=("$large"); fi
  read -r t1 m1 < <(timed "$@" "${a1[@]}")
  read -r t4 m4 < <(timed "$@" "${a4[@]}")
  local s4
  s4=$(stat -c %s "$large")
  awk -v n="$name" -v c="fgn $*" -v t1="$t1" -v t4="$t4" -v m1="$m1" -v m4="$m4" -v s4="$s4" 'BEGIN {
    r = (t1 > 0) ? t4 / t1 : 0
    printf "| %s | `%s` | %.2f s, %.0f MB | %.2f s, %.0f MB | %.1f | %.1f |\n", n, c, t1, m1 / 1024, t4, m4 / 1024, r, (m4 * 1024) / s4
  }'
}


tags=$((10000 * scale))
write_tags "$tags" tags-1x.fgn
write_tags $((tags * 4)) tags-4x.fgn
chats=$((80640 * scale))
survival='[Game "survival-chess"]\n[Rules "1.0"]\n[Board "8x8"]\n\n'
write_log "$survival" "$chats" '0 w chat "x"' chat-1x.fgn
write_log "$survival" $((chats * 4)) '0 w chat "x"' chat-4x.fgn
owc_chats=$((15625 * scale))
owc='[Game "open-world-chess"]\n[Rules "1.2"]\n[Board "26x26"]\n\n'
write_log "$owc" "$owc_chats" '0 w chat "gl"' owc26-1x.fgn
write_log "$owc" $((owc_chats * 4)) '0 w chat "gl"' owc26-4x.fgn
write_clock_chats "$owc_chats" owcclock-1x.fgn
write_clock_chats $((owc_chats * 4)) owcclock-4x.fgn

echo "| case | command | 1x | 4x | time ratio 4x/1x | peak memory / log size at 4x |"
echo "| --- | --- | --- | --- | --- | --- |"
for cmd in validate json; do
  row "$tags and $((tags * 4)) header tags" tags-1x.fgn tags-4x.fgn $cmd
done
for cmd in "events --ndjson" "hash --states"; do
  # shellcheck disable=SC2086
  row "$chats and $((chats * 4)) chat lines, survival-chess 8x8" chat-1x.fgn chat-4x.fgn $cmd
done
TWICE=1 row "$chats and $((chats * 4)) chat lines, survival-chess 8x8, the log with itself" chat-1x.fgn chat-4x.fgn diff
for cmd in "events --ndjson" "hash --states" "view --as white" "show --as white"; do
  # shellcheck disable=SC2086
  row "$owc_chats and $((owc_chats * 4)) chat lines, open-world-chess 26x26" owc26-1x.fgn owc26-4x.fgn $cmd
done
for cmd in "events --ndjson" "hash --states"; do
  # shellcheck disable=SC2086
  row "$owc_chats and $((owc_chats * 4)) chat lines with clock readings, open-world-chess 26x26" owcclock-1x.fgn owcclock-4x.fgn $cmd
done
echo
echo "| endless input | seconds, peak memory |"
echo "| --- | --- |"
read -r t m < <(timed hash --check /dev/zero)
echo "| \`fgn hash --check /dev/zero\` | $t s, $((m / 1024)) MB |"
read -r t m < <(timed validate --rules /dev/zero chat-1x.fgn)
echo "| \`fgn validate --rules /dev/zero\` | $t s, $((m / 1024)) MB |"
head -c 100000000 /dev/zero >zeros
read -r t m < <(STDIN=zeros timed hash --check -)
echo "| \`fgn hash --check - <zeros\` (100 MB of zero bytes) | $t s, $((m / 1024)) MB |"

if [ -n "${FGN_BENCH_NO_COUNT:-}" ]; then exit 0; fi
# Instruction counts, at the sixteenth sizes whatever FGN_BENCH_QUICK says:
# the counts do not need the large sizes to show the ratio, and callgrind
# runs some fifty times slower than the program.
tags=10000
chats=80640
owc_chats=15625
write_tags "$tags" cnt-tags-1x.fgn
write_tags $((tags * 4)) cnt-tags-4x.fgn
write_log "$survival" "$chats" '0 w chat "x"' cnt-chat-1x.fgn
write_log "$survival" $((chats * 4)) '0 w chat "x"' cnt-chat-4x.fgn
write_log "$owc" "$owc_chats" '0 w chat "gl"' cnt-owc26-1x.fgn
write_log "$owc" $((owc_chats * 4)) '0 w chat "gl"' cnt-owc26-4x.fgn
write_clock_chats "$owc_chats" cnt-owcclock-1x.fgn
write_clock_chats $((owc_chats * 4)) cnt-owcclock-4x.fgn
echo
echo "| case | command | instructions 1x | 4x | ratio 4x/1x |"
echo "| --- | --- | --- | --- | --- |"
for cmd in validate json; do
  count_row "$tags and $((tags * 4)) header tags" cnt-tags-1x.fgn cnt-tags-4x.fgn $cmd
done
for cmd in "events --ndjson" "hash --states"; do
  # shellcheck disable=SC2086
  count_row "$chats and $((chats * 4)) chat lines, survival-chess 8x8" cnt-chat-1x.fgn cnt-chat-4x.fgn $cmd
done
TWICE=1 count_row "$chats and $((chats * 4)) chat lines, survival-chess 8x8, the log with itself" cnt-chat-1x.fgn cnt-chat-4x.fgn diff
for cmd in "events --ndjson" "hash --states" "view --as white" "show --as white"; do
  # shellcheck disable=SC2086
  count_row "$owc_chats and $((owc_chats * 4)) chat lines, open-world-chess 26x26" cnt-owc26-1x.fgn cnt-owc26-4x.fgn $cmd
done
for cmd in "events --ndjson" "hash --states"; do
  # shellcheck disable=SC2086
  count_row "$owc_chats and $((owc_chats * 4)) chat lines with clock readings, open-world-chess 26x26" cnt-owcclock-1x.fgn cnt-owcclock-4x.fgn $cmd
done
