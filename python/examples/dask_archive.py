"""Validate and tabulate a sharded archive on Dask.

Each shard (a directory, a .tar or .tar.zst archive, a .zip, or a list of
logs) goes to a worker, which calls the fgn package on it: the games
table of its logs and the count of its verdicts. The results are merged
into one table, in shard order, the table one process makes of all the
shards. The same code runs on a real cluster: give `Client` the
scheduler's address instead of a `LocalCluster`, with the package
installed on every worker and the shards where the workers can read them.

    python python/examples/dask_archive.py SHARD...
"""

from __future__ import annotations

import sys
from collections import Counter

import pyarrow

import fgn


def tabulate(shard: str, jobs: int | None = None) -> pyarrow.Table:
    """On a worker: the games table of one shard's logs, on `jobs` threads
    (every core of the machine by default: give 1 where each worker has
    one core of a machine it shares with others)."""
    return fgn.games_table(shard, jobs=jobs)


def verdicts(shard: str, jobs: int | None = None) -> Counter:
    """On a worker: how many of one shard's logs are valid, invalid and
    unsupported."""
    return Counter(game["status"] for game in fgn.games(shard, jobs=jobs))


def run(client, shards: list[str], jobs: int | None = None) -> tuple[pyarrow.Table, Counter]:
    """The games table of every shard, merged in shard order, and the
    verdicts of all of them, each shard worked on by a worker."""
    tables = client.gather(client.map(tabulate, shards, jobs=jobs))
    counts = client.gather(client.map(verdicts, shards, jobs=jobs))
    return pyarrow.concat_tables(tables), sum(counts, Counter())


def main(shards: list[str]) -> None:
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        table, counts = run(client, shards)
    games = table.to_pandas()
    print(f"{table.num_rows} logs: {dict(counts)}")
    decided = games[games["outcome"] != ""]
    print(decided.groupby("game")["outcome"].value_counts().to_string())


if __name__ == "__main__":
    main(sys.argv[1:])
