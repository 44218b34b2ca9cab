#!/usr/bin/env bash
# The browser test of `fgn html` (test.mjs): builds fgn, installs the
# pinned playwright-core (which drives Debian's Chromium; it never
# downloads a browser) and runs it. With `screenshots`, retakes the
# pictures in docs/images/ instead (screenshots.mjs).
#
# Needs /usr/bin/chromium (Debian's `chromium` package; .ci/test installs
# it) and Node.js 18 or later.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd -P)"
root="$(cd "$here/../.." && pwd -P)"
cd "$root"

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "error: no ${CHROMIUM:-/usr/bin/chromium}: install Debian's chromium package (apt-get install chromium)" >&2
  exit 2
fi
cargo build --quiet -p fgn
export FGN="$root/target/debug/fgn"
# playwright-core downloads nothing when installed; the variable makes sure.
(cd "$here" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
case "${1:-test}" in
  test) node "$here/test.mjs" ;;
  screenshots) node "$here/screenshots.mjs" ;;
  *) echo "usage: tests/browser/run.sh [test|screenshots]" >&2; exit 2 ;;
esac
