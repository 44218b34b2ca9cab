#!/usr/bin/env bash
# Issue 40's memory check of archives (docs/interchange.md, "Archives"):
# peak resident memory (`/usr/bin/time`'s maximum RSS) and wall-clock
# seconds of `fgn validate` over a `.tar.zst` of 2,000, 20,000 and 100,000
# logs (the corpus's valid logs, copied under numbered names; `zstd -19`,
# and the largest also with `--long`), and over the folder of 20,000 they
# were packed from. Memory must be flat in the archive's size: the walk
# reads one member at a time and hands it on; only zstd's window (8 MiB at
# -19, up to 128 MiB with --long) is held besides.
#
#   bench/archive-memory.sh                   # a release build
#   FGN=target/debug/fgn bench/archive-memory.sh
#
# Needs tar and zstd. Not part of the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${FGN:-}" ]; then
  cargo build --release -q -p fgn
  FGN=target/release/fgn
fi
FGN=$(realpath "$FGN")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| input | logs | max RSS (MiB) | seconds |"
echo "| --- | ---: | ---: | ---: |"
for n in 2000 20000 100000; do
  # The archive is written by Python's tarfile: copying 100,000 files
  # one process each would take longer than the runs.
  python3 - "$n" "$work/logs-$n.tar" "$work/logs-$n" <<'PY'
import io, pathlib, sys, tarfile
n, out, folder = int(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
logs = [p.read_bytes() for p in sorted(pathlib.Path("corpus").glob("*/valid/*.fgn"))]
if n == 20000:
    folder.mkdir()
with tarfile.open(out, "w", format=tarfile.GNU_FORMAT) as tar:
    for i in range(n):
        data = logs[i % len(logs)]
        info = tarfile.TarInfo(f"g-{i}.fgn")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
        if n == 20000:
            (folder / f"g-{i}.fgn").write_bytes(data)
PY
  # `--long` (a window of 128 MiB instead of 8) only for the largest:
  # whoever decodes it must hold the window, fgn as zstd itself.
  [ "$n" = 100000 ] && zstd -q -19 --long -T0 -o "$work/logs-$n-long.tar.zst" "$work/logs-$n.tar"
  zstd -q -19 -T0 --rm "$work/logs-$n.tar"
  for input in "$work/logs-$n.tar.zst" $([ "$n" = 20000 ] && echo "$work/logs-$n") \
    $([ "$n" = 100000 ] && echo "$work/logs-$n-long.tar.zst"); do
    /usr/bin/time -f '%M %e' -o "$work/time" "$FGN" -q validate "$input" > /dev/null 2>&1 || true
    read -r kb seconds < "$work/time"
    echo "| $(basename "$input") | $n | $((kb / 1024)) | $seconds |"
  done
done
