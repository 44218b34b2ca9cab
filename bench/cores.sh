#!/usr/bin/env bash
# Issue 42's benchmark: how every command that reads many files scales
# across cores. It prints a markdown table, ready to paste into
# docs/performance.md ("Scaling across cores").
#
#   bench/cores.sh [RUNS]           # default: the median of 5 interleaved runs
#   FGN_CORES_QUICK=1 bench/cores.sh   # small corpora and 2 runs, to try the script
#   FGN_CORES_INSTRUCTIONS=1 bench/cores.sh   # instructions, not seconds (below)
#
# It builds fgn in release, generates its corpora with `fgn gen` into a
# temporary directory (removed at the end):
#
#  - 3,000 survival-chess 8x8 games (the classical army, seed 1),
#  - 15,000 such games (seeds 1 to 5, so the 3,000 and 12,000 more),
#  - 8,000 open-world-chess games (seeds 1 and 2),
#
# and runs each command over each corpus with `--jobs 1`, `--jobs 2` and,
# on a machine with more cores, `--jobs $(nproc)`, taking turns run by run
# (a machine whose speed drifts meets every job count alike). Each figure
# is the median of RUNS runs after one warm-up run of each: the wall time,
# and the CPU time (user + system, of the process and its threads).
# `events`, whose output is about 60 times its input and which takes
# ten to forty times as long as `validate`, runs over every tenth file of
# each corpus (hard links, in a directory of their own), so that the
# whole script stays under ten minutes on two cores. The speed-up is the
# serial wall time over the parallel one; the extra CPU is the parallel
# CPU time over the serial one, less one: what running in parallel costs
# beyond the work itself. The two columns after them are the same from
# the fastest run of each job count (the least disturbed: on a shared
# virtual machine other programs only ever add time, and from one run to
# the next they moved a row by 10% to 50%). The next two columns are the control: two
# runs of `--jobs 1` side by side, sharing nothing (twice the work in the
# pair's wall time against once in one job's, and their CPU time against
# twice one job's): what the machine gives two jobs at best, since two
# cores of a virtual machine that share caches, memory bandwidth or a
# physical core each run slower when both run. The last three read only
# the calm rounds, those in which the round's own control pair reached
# 1.85x: how many there were, and the median speed-up and extra CPU of
# the all-core run over `--jobs 1`, each taken within its round. Output goes to /dev/null, and the
# exit status of a command (1 for `fmt --check` on an uncanonical log, say)
# is not an error.
#
# With FGN_CORES_INSTRUCTIONS=1 it counts instructions instead, once per
# command, corpus and job count, under valgrind's callgrind (all threads
# added up): what running in parallel costs beyond the work, as a count
# that is the same whatever else the machine does, where the extra CPU
# time of the table above moves by ±20% on a shared virtual machine. It
# leaves out what instructions do not show: waiting, and the caches and
# memory the jobs share. It takes about half an hour on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
if [ -n "${FGN_CORES_QUICK:-}" ]; then
  runs=${1:-2}
  per_seed=200 owc_per_seed=300
else
  per_seed=3000 owc_per_seed=4000
fi

cargo build --release -q -p fgn
fgn=$PWD/target/release/fgn
work=$(mktemp -d "${TMPDIR:-/tmp}/fgn-cores.XXXXXX")
trap 'rm -rf "$work"' EXIT

load=$(cut -d' ' -f1-3 /proc/loadavg)

# The corpora, each seed's games made by a `fgn gen` of its own, all at once.
survival=(--game survival-chess --board 8x8 --setup classical)
"$fgn" gen "${survival[@]}" --seed 1 --count "$per_seed" --out "$work/survival-small" -q &
for seed in 1 2 3 4 5; do
  "$fgn" gen "${survival[@]}" --seed "$seed" --count "$per_seed" --out "$work/survival-large" -q &
done
for seed in 1 2; do
  "$fgn" gen --game open-world-chess --seed "$seed" --count "$owc_per_seed" --out "$work/open-world" -q &
done
wait
# Every tenth file of each corpus, for `events`.
for corpus in survival-small survival-large open-world; do
  mkdir "$work/$corpus-tenth"
  find "$work/$corpus" -name '*.fgn' | sort | awk 'NR % 10 == 1' | xargs ln -t "$work/$corpus-tenth"
done
printf '{"survival-chess": {"move_seconds": 600}, "open-world-chess": {"moves_per_turn": 2}}\n' >"$work/rules.json"

python3 - "$fgn" "$work" "$runs" "$(nproc)" "$load" "$(git rev-parse --short HEAD)" "${FGN_CORES_INSTRUCTIONS:-}" <<'EOF'
import os, re, statistics, subprocess, sys, time

fgn, work, runs, cores, load, commit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
instructions = bool(sys.argv[7])
rules = os.path.join(work, "rules.json")
corpora = [
    ("survival-chess 8x8", "survival-small"),
    ("survival-chess 8x8", "survival-large"),
    ("open-world-chess", "open-world"),
]
commands = [
    ("validate", ["validate"]),
    ("fmt --check", ["fmt", "--check"]),
    ("json --ndjson", ["json", "--ndjson"]),
    ("events --ndjson", ["events", "--ndjson"]),
    ("hash", ["hash"]),
    ("select --min-moves 20", ["select", "--min-moves", "20"]),
    ("stats", ["stats"]),
    ("impact --rules", ["impact", "--rules", rules]),
    ("leaderboard", ["leaderboard"]),
]
jobs = [1, 2] + ([cores] if cores > 2 else [])
# A round counts as calm when its control pair reached this speed-up.
CALM = 1.85
quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]
env = dict(os.environ, FGN_NO_PROGRESS="1")


def once(args):
    """The wall time and the CPU time (user + system) of one run, in seconds."""
    began = time.perf_counter()
    pid = os.posix_spawn(fgn, [fgn] + args, env, file_actions=quiet)
    _, _, usage = os.wait4(pid, 0)
    return time.perf_counter() - began, usage.ru_utime + usage.ru_stime


def pair(args):
    """The wall time of two runs of `--jobs 1` side by side, both ended,
    and their CPU time added up: the same work twice with nothing shared
    between the two, which is what the machine gives two jobs at best."""
    began = time.perf_counter()
    pids = [os.posix_spawn(fgn, [fgn, "--jobs", "1"] + args, env, file_actions=quiet) for _ in range(2)]
    cpu = 0.0
    for pid in pids:
        _, _, usage = os.wait4(pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
    return time.perf_counter() - began, cpu


def size(directory):
    names = [os.path.join(directory, n) for n in os.listdir(directory)]
    return len(names), sum(os.path.getsize(n) for n in names)


def counted(args):
    """The instructions of one run under callgrind, every thread's added up."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", fgn] + args,
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # 1 is a run that found an invalid log (fmt --check); 2, a run that
    # did no work (a usage or I/O error), would be counted as if it had.
    assert run.returncode in (0, 1), f"{args}: exit {run.returncode}: {run.stderr[-2000:]}"
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1))


if instructions:
    print(f"Instructions (callgrind, all threads), commit {commit}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: `--jobs 1` against `--jobs 2`.")
    print()
    print("| command | corpus | `--jobs 1`, M | `--jobs 2`, M | extra |")
    print("| --- | --- | ---: | ---: | ---: |")
    for label, folder in corpora:
        path = os.path.join(work, folder)
        for name, args in commands:
            corpus = path + "-tenth" if name.startswith("events") else path
            shown, _ = size(corpus)
            one, two = (counted(["--jobs", str(j)] + args + [corpus]) for j in (1, 2))
            print(f"| {name} | {label}, {shown} files | {one / 1e6:,.0f} | {two / 1e6:,.0f} | {(two / one - 1) * 100:+.1f}% |",
                  flush=True)
    sys.exit(0)

print(f"Machine: {cores} cores ({os.uname().release}), load average at the start {load}, commit {commit}, "
      f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Median of {runs} runs, the job counts taking turns; "
      f"\"best runs\": the fastest of the {runs} runs of each job count, with all cores.")
print()
for label, folder in corpora:
    files, total = size(os.path.join(work, folder))
    print(f"- {label}, {files} files, {total / 1e6:.1f} MB")
print()
head = "| command | corpus | `--jobs 1`, s |"
rule = "| --- | --- | ---: |"
for j in jobs[1:]:
    head += f" `--jobs {j}`, s | speed-up | extra CPU |"
    rule += " ---: | ---: | ---: |"
head += " best runs: speed-up | extra CPU |"
rule += " ---: | ---: |"
head += " two `--jobs 1` at once: speed-up | extra CPU |"
rule += " ---: | ---: |"
head += " calm rounds | speed-up | extra CPU |"
rule += " ---: | ---: | ---: |"
print(head)
print(rule)
for label, folder in corpora:
    path = os.path.join(work, folder)
    for name, args in commands:
        corpus = path + "-tenth" if name.startswith("events") else path
        shown, _ = size(corpus)
        times = {j: [] for j in jobs}
        pairs = []
        for round in range(runs + 1):
            for j in jobs:
                wall, cpu = once(["--jobs", str(j)] + args + [corpus])
                if round > 0:
                    times[j].append((wall, cpu))
            wall, cpu = pair(args + [corpus])
            if round > 0:
                pairs.append((wall, cpu))
        med = {j: (statistics.median(w for w, _ in times[j]), statistics.median(c for _, c in times[j])) for j in jobs}
        row = f"| {name} | {label}, {shown} files | {med[1][0]:.3f} |"
        for j in jobs[1:]:
            speed = med[1][0] / med[j][0]
            extra = med[j][1] / med[1][1] - 1
            row += f" {med[j][0]:.3f} | {speed:.2f}× | {extra * 100:+.0f}% |"
        # The fastest run of each job count: the other programs of a shared
        # machine only ever add time, so the fastest run is the one they
        # disturbed least (the CPU time likewise).
        best = {j: (min(w for w, _ in times[j]), min(c for _, c in times[j])) for j in jobs}
        row += f" {best[1][0] / best[jobs[-1]][0]:.2f}× | {(best[jobs[-1]][1] / best[1][1] - 1) * 100:+.0f}% |"
        # Twice the work in the pair's time, against once in one job's.
        pair_wall, pair_cpu = statistics.median(w for w, _ in pairs), statistics.median(c for _, c in pairs)
        row += f" {2 * med[1][0] / pair_wall:.2f}× | {(pair_cpu / (2 * med[1][1]) - 1) * 100:+.0f}% |"
        # The calm rounds: those whose own control pair reached CALM (the
        # machine gave two independent jobs that much in that round), and
        # the median of their speed-ups and extra CPU, each taken within
        # its round. A round is a minute's slice of a shared machine whose
        # speed swings from one minute to the next; the control run in the
        # same round says which slices to read.
        # (Judged by the median --jobs 1 run, not the round's own: a
        # disturbed --jobs 1 run would both make its round look calm and
        # inflate that round's speed-up.)
        calm = [r for r in range(runs) if 2 * med[1][0] / pairs[r][0] >= CALM]
        if calm:
            top = jobs[-1]
            speed = statistics.median(times[1][r][0] / times[top][r][0] for r in calm)
            extra = statistics.median(times[top][r][1] / times[1][r][1] - 1 for r in calm)
            row += f" {len(calm)} | {speed:.2f}× | {extra * 100:+.0f}% |"
        else:
            row += " 0 | | |"
        print(row, flush=True)
EOF
