#!/usr/bin/env bash
# How long a cold `.ci/test` takes at each of some commits, one after the
# other in one sitting, so that a before/after claim (docs/testing.md,
# "How long the tests take") compares runs on the same machine under the
# same load.
#
#   bench/ci-time.sh COMMIT...                  # e.g. bench/ci-time.sh 9179c19 HEAD
#   FGN_CI_TIME_COMMAND='cargo --version' bench/ci-time.sh HEAD   # to try the script
#
# For each commit, in order: a clean clone of this repository in a
# temporary directory, checked out at the commit; the dependencies fetched
# (not timed: the registry is shared, so no run pays for downloads that
# another has made); then the command, `.ci/test` unless
# FGN_CI_TIME_COMMAND says otherwise, timed with a fresh CARGO_TARGET_DIR
# of its own, so that nothing is built before it starts. One line a commit:
#
#   <commit> wall <s> s, cpu <s> s (user <s> + sys <s>), exit <status>, log <file>
#
# CPU seconds count every process the command waited for (cargo, rustc,
# the tests). On a machine shared with other work they move less than
# wall seconds do; on a quiet one, wall seconds are what a developer waits.
# The logs stay in FGN_CI_TIME_LOGS (default: a new directory under /tmp);
# the clones and their builds are removed after each commit.
set -euo pipefail

usage() {
  echo "usage: bench/ci-time.sh COMMIT..." >&2
  exit 2
}
[ "$#" -ge 1 ] || usage
case "$1" in -h | --help) usage ;; esac

repo="$(cd "$(dirname "$0")/.." && pwd -P)"
command=${FGN_CI_TIME_COMMAND:-.ci/test}
# Every commit is resolved before anything is built, so that a typo fails
# at once rather than after the first run.
commits=()
for name in "$@"; do
  if ! hash="$(git -C "$repo" rev-parse --verify --quiet "$name^{commit}")"; then
    echo "error: $name is not a commit of $repo" >&2
    exit 2
  fi
  commits+=("$hash")
done

logs=${FGN_CI_TIME_LOGS:-$(mktemp -d /tmp/fgn-ci-time-logs.XXXXXX)}
mkdir -p "$logs"

work="$(mktemp -d /tmp/fgn-ci-time.XXXXXX)"
trap 'rm -rf "$work"' EXIT

for i in "${!commits[@]}"; do
  hash=${commits[$i]}
  short="$(git -C "$repo" rev-parse --short "$hash")"
  clone="$work/$short"
  log="$logs/$((i + 1))-$short.log"
  git clone --quiet --no-checkout "$repo" "$clone"
  git -C "$clone" checkout --quiet --detach "$hash"
  (cd "$clone" && cargo fetch --quiet) >"$log" 2>&1
  # `time -f` writes its line last on stderr, which goes to the log too.
  set +e
  (cd "$clone" && CARGO_TARGET_DIR="$clone/target" /usr/bin/time -f 'time %e %U %S' \
    bash -c "$command") >>"$log" 2>&1
  status=$?
  set -e
  read -r wall user sys < <(grep "^time " "$log" | tail -1 | cut -d" " -f2-) || { wall=? user=? sys=?; }
  cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
  echo "$short wall $wall s, cpu $cpu s (user $user + sys $sys), exit $status, log $log"
  rm -rf "$clone"
done
