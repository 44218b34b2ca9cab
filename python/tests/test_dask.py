"""The Dask example (python/examples/dask_archive.py) on a local cluster
of two worker processes: a sharded archive of the corpus, validated and
tabulated shard by shard on the workers, merges into the table and the
verdicts one process makes of it."""

from __future__ import annotations

import importlib
import sys
import tarfile
from collections import Counter

import pytest

import fgn
from conftest import CORPUS, ROOT, corpus_logs

distributed = pytest.importorskip("dask.distributed")


def load_example():
    # The example is imported by its name, from a path on sys.path: the
    # workers, processes started afresh, are handed the same sys.path and
    # import it there to run its functions.
    examples = str(ROOT / "python" / "examples")
    if examples not in sys.path:
        sys.path.insert(0, examples)
    return importlib.import_module("dask_archive")


def shards_of_the_corpus(folder, count: int) -> list[str]:
    """The corpus's logs dealt into `count` tar archives, in path order."""
    logs = corpus_logs()
    shards = []
    for i in range(count):
        shard = folder / f"shard-{i}.tar"
        with tarfile.open(shard, "w") as tar:
            for log in logs[i::count]:
                tar.add(log, arcname=str(log.relative_to(CORPUS)))
        shards.append(str(shard))
    return shards


def test_a_sharded_archive_on_two_workers_is_the_one_process_table(tmp_path):
    example = load_example()
    shards = shards_of_the_corpus(tmp_path, 4)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            table, counts = example.run(client, shards, jobs=1)
            workers = len(client.scheduler_info()["workers"])
    assert workers == 2
    one_process = fgn.games_table(shards)
    assert table.equals(one_process)
    assert table.num_rows == len(corpus_logs())
    assert counts == Counter(g["status"] for g in fgn.games(shards))
    assert counts["valid"] > 100 and counts["invalid"] > 100
    # The members are named as the CLI names them: ARCHIVE:MEMBER.
    assert table["file"][0].as_py() == f"{shards[0]}:{corpus_logs()[0].relative_to(CORPUS)}"
