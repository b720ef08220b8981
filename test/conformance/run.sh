#!/usr/bin/env bash
# Runs the official MCP conformance suite against Switchboard's client (test/conformance/client.ts):
# every client scenario, one at a time; a scenario passes only with >0 checks, no FAILURE and no
# WARNING. Prints one line per scenario and "N passed, N failed" (scenarios), then the check totals.
# The runner needs Node >= 22: taken from the npm registry's node@22 package into .cache/node22.
set -u
cd "$(dirname "$0")/../.."
NODE22=.cache/node22/node_modules/.bin/node
if [ ! -x "$NODE22" ]; then
  mkdir -p .cache/node22
  (cd .cache/node22 && npm init -y >/dev/null && npm install --no-audit --no-fund node@22 >/dev/null) || { echo "conformance: could not fetch node@22 from the npm registry" >&2; exit 2; }
fi
RUNNER=node_modules/@modelcontextprotocol/conformance/dist/index.js
CLIENT="exec node --import tsx test/conformance/client.ts"
OUT="${CONFORMANCE_OUT:-.cache/conformance-results}"
rm -rf "$OUT" && mkdir -p "$OUT"

if [ "$#" -gt 0 ]; then
  SCENARIOS="$*"
else
  SCENARIOS=$("$NODE22" "$RUNNER" list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
fi
[ -n "$SCENARIOS" ] || { echo "conformance: the runner listed no client scenarios" >&2; exit 2; }

passed=0; failed=0; checks_ok=0; checks_bad=0
for scenario in $SCENARIOS; do
  dir="$OUT/$(echo "$scenario" | tr '/' '_')"
  "$NODE22" "$RUNNER" client --command "$CLIENT" --scenario "$scenario" -o "$dir" >"$dir.log" 2>&1
  json=$(find "$dir" -name checks.json 2>/dev/null | head -n 1)
  counts=$(node -e '
    const fs = require("node:fs");
    const file = process.argv[1];
    const checks = file ? JSON.parse(fs.readFileSync(file, "utf8")) : [];
    const n = (s) => checks.filter((c) => c.status === s).length;
    console.log(`${checks.length} ${n("SUCCESS")} ${n("FAILURE")} ${n("WARNING")}`);
  ' "$json")
  read -r total ok bad warn <<<"$counts"
  if [ "$total" -gt 0 ] && [ "$bad" -eq 0 ] && [ "$warn" -eq 0 ]; then
    passed=$((passed + 1)); verdict=PASS
  else
    failed=$((failed + 1)); verdict=FAIL
  fi
  checks_ok=$((checks_ok + ok)); checks_bad=$((checks_bad + bad + warn))
  printf '%-4s %-45s checks: %s, success %s, failure %s, warning %s\n' "$verdict" "$scenario" "$total" "$ok" "$bad" "$warn"
done
echo "$passed passed, $failed failed"
echo "checks: $checks_ok succeeded, $checks_bad failed or warned (details in $OUT)"
[ "$failed" -eq 0 ]
