#!/usr/bin/env bash
# Issue 40 item 2's memory check of files of several games
# (docs/interchange.md, "Files of several games"): peak resident memory
# (`/usr/bin/time`'s maximum RSS) and wall-clock seconds of `fgn validate`
# over one file of 10,000 and of 100,000 games (the corpus's valid logs one
# after the other, 1.7 KB a game), plain and gzipped. The 100,000-game file
# is larger than the 64 MiB fgn reads of one log, so it is read game by
# game, as every compressed log is: memory must be flat in the file's size.
# Each run must find every game valid (the line it prints is checked).
#
#   bench/multigame-memory.sh                   # a release build
#   FGN=target/debug/fgn bench/multigame-memory.sh
#
# Needs python3 and gzip. Not part of the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${FGN:-}" ]; then
  cargo build --release -q -p fgn
  FGN=target/release/fgn
fi
FGN=$(realpath "$FGN")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| input | games | size (MiB) | max RSS (MiB) | seconds |"
echo "| --- | ---: | ---: | ---: | ---: |"
for n in 10000 100000; do
  python3 - "$n" "$work/games-$n.fgn" <<'PY'
import pathlib, sys
n, out = int(sys.argv[1]), sys.argv[2]
logs = [p.read_bytes() for p in sorted(pathlib.Path("corpus").glob("*/valid/*.fgn"))]
with open(out, "wb") as f:
    for i in range(n):
        f.write(logs[i % len(logs)])
PY
  gzip -1 -k "$work/games-$n.fgn"
  for input in "$work/games-$n.fgn" "$work/games-$n.fgn.gz"; do
    /usr/bin/time -f '%M %e' -o "$work/time" "$FGN" validate "$input" > "$work/out" 2> /dev/null || true
    read -r kb seconds < "$work/time"
    if [ "$(cat "$work/out")" != "$n valid, 0 invalid" ]; then
      echo "$(basename "$input"): expected $n valid games, got: $(cat "$work/out")" >&2
      exit 1
    fi
    size=$(( $(stat -c %s "$input") / 1048576 ))
    echo "| $(basename "$input") | $n | $size | $((kb / 1024)) | $seconds |"
  done
done
