#!/usr/bin/env bash
# Issue 7 CI step: start the built service on a free loopback port with a temporary AVM_DATA_DIR and an all-scope key,
# run Schemathesis (from PyPI, in a venv under .tmp/) against /api/openapi.json and the MCP conformance suite against
# /mcp, stop the service. Last line: "DOORS <passed> <failed>" for .ci/run's summary.
#   Schemathesis: one result per API operation (JUnit report): passed unless any check failed on it.
#   Conformance: one result per scenario; the scenarios in CONFORMANCE_EXPECTED_FAILURES are not counted as failures.
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=.tmp/ci-doors
rm -rf "$tmp"; mkdir -p "$tmp"
passed=0; failed=0
finish() { echo "DOORS ${passed} ${failed}"; exit 0; }

# Expected conformance failures, with why: each scenario needs a fixture of the suite's reference server (tools named
# test_image_content, test_audio_content, test_embedded_resource, test_multiple_content_types, test_tool_with_logging,
# test_tool_with_progress, test_sampling, test_elicitation*) or a capability this service does not offer (logging,
# completions, resources, prompts, server-initiated sampling/elicitation). The service exposes tools only.
CONFORMANCE_EXPECTED_FAILURES=" logging-set-level completion-complete tools-call-image tools-call-audio tools-call-embedded-resource
  tools-call-mixed-content tools-call-with-logging tools-call-with-progress tools-call-sampling tools-call-elicitation
  elicitation-sep1034-defaults elicitation-sep1330-enums resources-list resources-read-text resources-read-binary
  resources-templates-read resources-subscribe resources-unsubscribe prompts-list prompts-get-simple prompts-get-with-args
  prompts-get-embedded-resource prompts-get-with-image "
# 0.1.16 lists the same server scenarios as 0.1.12 and, run against this service, fails exactly the 23 above.
# 0.1.13+ needs Node >= 22: the suite and the service run on the project's pinned Node 24 from npm ci.
CONFORMANCE_PKG=@modelcontextprotocol/conformance@0.1.16
export PATH="$PWD/node_modules/.bin:$PATH"

npm run build --silent || { echo "doors: build failed"; failed=1; finish; }
data_dir=$(mktemp -d "$PWD/$tmp/data.XXXX")
key=$(node dist/src/cli.js keys create --scopes read,underwrite,write-state,webhooks --rpm 100000 --label ci-doors --data-dir "$data_dir" | sed -n 's/^API key[^:]*: //p')
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
secret=$(node -e 'console.log(require("crypto").randomBytes(24).toString("hex"))')
AVM_DATA_DIR="$data_dir" HOST=127.0.0.1 PORT="$port" WRITE_SECRET="$secret" AVM_LOG_LEVEL=error AVM_OPENDATA_BASE_URL=http://127.0.0.1:1/resource node dist/src/cli.js serve >"$tmp/serve.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 1 600); do curl -sf "$base/api/health" >/dev/null && break; kill -0 "$pid" 2>/dev/null || break; sleep 1; done
curl -sf "$base/api/health" >/dev/null || { echo "doors: service did not become healthy"; tail -20 "$tmp/serve.log"; failed=$((failed + 1)); finish; }

# Conformance runs first: its client is anonymous, and Schemathesis' auth checks (unauthenticated requests) draw on the
# same anonymous per-IP quota, which would turn its tools/call into 429s.
echo "--- MCP conformance ($CONFORMANCE_PKG) against $base/mcp"
npx -y "$CONFORMANCE_PKG" server --url "$base/mcp" >"$tmp/conformance.log" 2>&1
grep -E '^[✓✗] ' "$tmp/conformance.log" || { echo "conformance suite did not run:"; tail -20 "$tmp/conformance.log"; failed=$((failed + 1)); }
while read -r mark name _; do
  name=${name%:}
  if [ "$mark" = "✓" ]; then passed=$((passed + 1))
  elif [[ " $(echo $CONFORMANCE_EXPECTED_FAILURES) " == *" $name "* ]]; then echo "expected failure (needs reference-server fixture or capability): $name"
  else echo "UNEXPECTED conformance failure: $name"; failed=$((failed + 1)); fi
done < <(grep -E '^[✓✗] ' "$tmp/conformance.log")

echo "--- schemathesis (PyPI) against $base/api/openapi.json"
venv=.tmp/schemathesis-venv
[ -x "$venv/bin/schemathesis" ] || { python3 -m venv "$venv" && "$venv/bin/python" -m pip install -q schemathesis; }
if [ -x "$venv/bin/schemathesis" ]; then
  "$venv/bin/schemathesis" --version
  # REST GET/POST operations (the SSE stream is excluded: it never ends); 500 generated cases per operation; capped time.
  AVM_CI_API_KEY="$key" AVM_CI_WRITE_SECRET="$secret" "$venv/bin/schemathesis" --config-file .ci/schemathesis.toml run "$base/api/openapi.json" \
    --max-examples 500 --exclude-path /api/events --request-timeout 30 --max-time 900 \
    --report junit --report-junit-path "$tmp/schemathesis.xml" 2>&1 | tail -40
  counts=$(python3 - "$tmp/schemathesis.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    cases = ET.parse(sys.argv[1]).getroot().iter('testcase')
except Exception:
    print('0 1'); sys.exit()
p = f = 0
for c in cases:
    if c.find('failure') is not None or c.find('error') is not None: f += 1
    else: p += 1
print(p, f if p + f else 1)
PY
)
  read -r sp sf <<<"$counts"; passed=$((passed + sp)); failed=$((failed + sf))
  echo "schemathesis: $sp operations passed, $sf failed"
else
  echo "schemathesis could not be installed from PyPI"; failed=$((failed + 1))
fi

finish
