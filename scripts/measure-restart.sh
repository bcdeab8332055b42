#!/bin/bash
# Restart time on an already-ingested data dir (AVM_DATA_DIR, default data/local): seconds from the command until
# GET /api/health answers ok, then SIGTERM. Alternates, ROUNDS times (default 5):
#   before: tsc on every start, as the old prestart did (`npm run build:force`), then the service;
#   after:  `npm start` (prestart: scripts/build.mjs, tsc skipped when the sources are unchanged).
# Usage: bash scripts/measure-restart.sh   (PORT defaults to 18911; it must be free)
cd "$(dirname "$0")/.." || exit 1
export PORT="${PORT:-18911}" AVM_BACKGROUND_JOBS=false AVM_LOG_LEVEL=error
one() {
  local t0 t1 pgid
  t0=$(date +%s.%N)
  setsid bash -c "$1" >/dev/null 2>&1 &
  pgid=$!
  until curl -sf "127.0.0.1:$PORT/api/health" >/dev/null; do sleep 0.05; done
  t1=$(date +%s.%N)
  kill -TERM -- "-$pgid"
  wait "$pgid" 2>/dev/null
  echo "$t1 - $t0" | bc
}
for i in $(seq 1 "${ROUNDS:-5}"); do
  before=$(one "npm run build:force --silent && node dist/src/cli.js serve")
  after=$(one "npm start")
  echo "round $i: before ${before} s, after ${after} s, load $(cut -d' ' -f1-3 /proc/loadavg)"
done
