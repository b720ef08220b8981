#!/usr/bin/env bash
# Runs the official MCP conformance suite against Switchboard's client (test/conformance/client.ts).
# First run: every client scenario of the installed @modelcontextprotocol/conformance, one at a time;
# a scenario passes only with >0 checks, no FAILURE and no WARNING; this run decides the exit code.
# Second run (reported, not gating): the draft-spec (2026-07-28) scenarios of the 0.2.0 alpha,
# fetched into .cache/conformance-next. SKIP_DRAFT=1 skips it; scenario names as arguments run
# only those, on the first runner. The runners need Node >= 22: the npm registry's node@22 package.
set -u
cd "$(dirname "$0")/../.."
# The project's own Node (>= 22.12) runs the runners; an older one falls back to the registry's node@22.
NODE22=node
if ! node -e 'process.exit(+process.versions.node.split(".")[0] >= 22 ? 0 : 1)' 2>/dev/null; then
  NODE22=.cache/node22/node_modules/.bin/node
  if [ ! -x "$NODE22" ]; then
    mkdir -p .cache/node22
    (cd .cache/node22 && npm init -y >/dev/null && npm install --no-audit --no-fund node@22 >/dev/null) || { echo "conformance: could not fetch node@22 from the npm registry" >&2; exit 2; }
  fi
fi
STABLE=node_modules/@modelcontextprotocol/conformance/dist/index.js
DRAFT_VERSION=0.2.0-alpha.12
DRAFT=.cache/conformance-next/node_modules/@modelcontextprotocol/conformance/dist/index.js
CLIENT="exec node --import tsx test/conformance/client.ts"
OUT="${CONFORMANCE_OUT:-.cache/conformance-results}"
rm -rf "$OUT" && mkdir -p "$OUT"

# run_suite <label> <runner> <scenarios...>: prints one line per scenario and "N passed, N failed".
run_suite() {
  local label=$1 runner=$2; shift 2
  local passed=0 failed=0 checks_ok=0 checks_bad=0 scenario dir json counts total ok bad warn verdict
  echo "== $label"
  for scenario in "$@"; do
    dir="$OUT/$label/$(echo "$scenario" | tr '/' '_')"
    mkdir -p "$dir"
    "$NODE22" "$runner" client --command "$CLIENT" --scenario "$scenario" -o "$dir" >"$dir/runner.log" 2>&1
    json=$(find "$dir" -name checks.json 2>/dev/null | head -n 1)
    counts=$(node -e '
      const fs = require("node:fs");
      const file = process.argv[1];
      const checks = file ? JSON.parse(fs.readFileSync(file, "utf8")) : [];
      const n = (s) => checks.filter((c) => c.status === s).length;
      console.log(`${checks.length} ${n("SUCCESS")} ${n("FAILURE")} ${n("WARNING")}`);
    ' "$json")
    read -r total ok bad warn <<<"$counts"
    if [ "$total" -gt 0 ] && [ "$ok" -gt 0 ] && [ "$bad" -eq 0 ] && [ "$warn" -eq 0 ]; then
      passed=$((passed + 1)); verdict=PASS
    else
      failed=$((failed + 1)); verdict=FAIL
    fi
    checks_ok=$((checks_ok + ok)); checks_bad=$((checks_bad + bad + warn))
    printf '%-4s %-45s checks: %s, success %s, failure %s, warning %s\n' "$verdict" "$scenario" "$total" "$ok" "$bad" "$warn"
  done
  echo "$passed passed, $failed failed"
  echo "checks: $checks_ok succeeded, $checks_bad failed or warned (details in $OUT/$label)"
  [ "$failed" -eq 0 ]
}

if [ "$#" -gt 0 ]; then
  run_suite selected "$STABLE" "$@"
  exit $?
fi

mapfile -t scenarios < <("$NODE22" "$STABLE" list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
[ "${#scenarios[@]}" -gt 0 ] || { echo "conformance: the runner listed no client scenarios" >&2; exit 2; }
run_suite stable "$STABLE" "${scenarios[@]}"
status=$?

if [ "${SKIP_DRAFT:-}" != "1" ]; then
  if [ ! -f "$DRAFT" ]; then
    mkdir -p .cache/conformance-next
    (cd .cache/conformance-next && npm init -y >/dev/null && npm install --no-audit --no-fund "@modelcontextprotocol/conformance@$DRAFT_VERSION" >/dev/null 2>&1) ||
      echo "conformance: could not fetch @modelcontextprotocol/conformance@$DRAFT_VERSION; draft run skipped" >&2
  fi
  if [ -f "$DRAFT" ]; then
    mapfile -t drafts < <("$NODE22" "$DRAFT" list --client | sed -n 's/^  - \([^ ]*\) \[.*2026-07-28.*/\1/p')
    run_suite draft "$DRAFT" "${drafts[@]}" || true
  fi
fi
exit $status
