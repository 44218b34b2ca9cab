#!/usr/bin/env bash
# Issue 41's figures (docs/performance.md, "The Python package"), in one
# run, from release builds of the `fgn` binary and of the Python package
# (installed into a throw-away virtual environment that sees the machine's
# pyarrow, pandas and dask):
#
#  1. `fgn.games_table(ARCHIVE)` against `fgn json --ndjson ARCHIVE` read
#     by `pandas.read_json(lines=True)`, over a tar archive of 10,000
#     generated games (2,500 of each game, `fgn gen --seed 41`), the best
#     of three runs each, after checking that the table's counts are
#     `fgn stats`'s;
#  2. the Dask example (python/examples/dask_archive.py) over the same
#     games dealt into 8 tar shards, on a LocalCluster of 1 worker and of
#     2 (one thread each, and the package told `jobs=1`, so that a worker
#     is one core), the best of three runs each; the cluster's start is
#     not timed.
#
#   bench/python.sh
#
# Needs maturin and dask[distributed] (.ci/test installs both). Not part
# of the test suite. It prints a markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p fgn
FGN=$(realpath target/release/fgn)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv --system-site-packages "$work/venv"
(cd python && maturin build --release --quiet --out "$work/wheel")
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-deps "$work"/wheel/fgn-*.whl
for game in survival-chess open-world-chess great-war-chess magic-draughts; do
  "$FGN" -q gen --game "$game" --seed 41 --count 2500 --out "$work/logs/$game"
done
# The Python part is a file, not standard input: Dask's worker processes
# are started afresh and import the parent's main module (guarded below).
cat > "$work/bench.py" <<'PY'
import io
import json
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pandas

import fgn


def best(f, runs=3):
    """The shortest of `runs` timings of `f`, and its result."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - start)
    return min(times), result


def main(binary: str, work: Path, examples: str) -> None:
    sys.path.insert(0, examples)
    import dask_archive
    from dask.distributed import Client, LocalCluster

    logs = sorted((work / "logs").rglob("*.fgn"))
    archive = work / "archive.tar"
    shards = [work / f"shard-{i}.tar" for i in range(8)]
    with tarfile.open(archive, "w") as whole:
        for log in logs:
            whole.add(log, arcname=str(log.relative_to(work / "logs")))
    for i, shard in enumerate(shards):
        with tarfile.open(shard, "w") as part:
            for log in logs[i :: len(shards)]:
                part.add(log, arcname=str(log.relative_to(work / "logs")))
    shards = [str(s) for s in shards]

    def by_ndjson():
        out = subprocess.run([binary, "json", "--ndjson", str(archive)], capture_output=True, check=False)
        return pandas.read_json(io.BytesIO(out.stdout), lines=True)

    table_seconds, table = best(lambda: fgn.games_table(str(archive)))
    ndjson_seconds, frame = best(by_ndjson)
    stats = json.loads(subprocess.run([binary, "--format", "json", "stats", str(archive)], capture_output=True).stdout)
    games = table.to_pandas()
    assert table.num_rows == len(logs) == len(frame)
    for entry in stats["games"]:
        mine = games[games["game"] == entry["game"]]
        assert len(mine) == entry["logs"], entry["game"]
        assert (mine["status"] == "valid").sum() == entry["valid"], entry["game"]
    print(f"| what ({len(logs):,} games, one tar archive) | seconds |")
    print("| --- | ---: |")
    print(f"| `fgn.games_table(archive)` | {table_seconds:.2f} |")
    print(f"| `fgn json --ndjson archive` + `pandas.read_json(lines=True)` | {ndjson_seconds:.2f} |")
    print(f"| ratio | {ndjson_seconds / table_seconds:.1f}x |")
    print(flush=True)

    cluster_seconds = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                dask_archive.run(client, shards[:1], jobs=1)  # the workers import fgn
                seconds, (merged, counts) = best(lambda: dask_archive.run(client, shards, jobs=1))
        assert merged.equals(fgn.games_table(shards))
        cluster_seconds[workers] = seconds
    one_process, _ = best(lambda: fgn.games_table(shards))
    print("| Dask, 8 shards: games table and verdicts | seconds | speed-up |")
    print("| --- | ---: | ---: |")
    print(f"| 1 worker (1 core) | {cluster_seconds[1]:.2f} | 1.00 |")
    print(f"| 2 workers (1 core each) | {cluster_seconds[2]:.2f} | {cluster_seconds[1] / cluster_seconds[2]:.2f} |")
    print(f"| no Dask: `fgn.games_table(shards)`, every core | {one_process:.2f} | |")


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), sys.argv[3])
PY
"$work/venv/bin/python" "$work/bench.py" "$FGN" "$work" "$(realpath python/examples)"
