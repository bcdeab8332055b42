#!/bin/bash
# Runs vitest on the given test files with the process clock started shortly before a UTC midnight (Debian's
# libfaketime, `apt-get install faketime`; only Date and the wall clock move, timers and the monotonic clock stay
# real), so a test that compares answers computed on either side of the midnight shows it. Valuations are as of
# today's UTC date: such a test must collect its answers on one day (test/support/utc-day.ts onOneUtcDay).
# Usage: scripts/at-midnight.sh [-s SECONDS_BEFORE] FILE...   (default 10: the clock starts at 23:59:50)
set -euo pipefail
before=10
if [ "${1:-}" = "-s" ]; then before=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [-s SECONDS_BEFORE] FILE..." >&2; exit 2; }
lib=$(ls /usr/lib/*/faketime/libfaketimeMT.so.1 2>/dev/null | head -1)
[ -n "$lib" ] || { echo "$0: libfaketime not installed (apt-get install faketime)" >&2; exit 2; }
start=$(date -u -d "tomorrow 00:00:00 UTC - $before seconds" '+%Y-%m-%d %H:%M:%S')
echo "clock starts at $start UTC in each test process"
# Each process (vitest's forks included) starts its own clock at $start.
FAKETIME="@$start" DONT_FAKE_MONOTONIC=1 LD_PRELOAD="$lib" exec npx vitest run "$@"
