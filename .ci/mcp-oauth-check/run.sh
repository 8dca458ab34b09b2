#!/usr/bin/env bash
# Connects the official MCP TypeScript SDK client (@modelcontextprotocol/sdk 1.x, from the npm registry, installed
# here into a temporary folder) to the built distribution by the endpoint's URL alone, with the SDK's OAuth client
# (check-oauth.mjs): discovery from the 401, dynamic registration, the owner's consent (signed in with the one-time
# link `bin/platform workspace create` prints), the code exchange with PKCE, tools, a rotated refresh, revocation.
# Needs: a built distribution (distribution/target/lnp), Node.js 18+ and npm.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dist=${LNP_DIST_DIR:-$root/distribution/target/lnp}
sdk_version=1.32.2

log() { printf '[mcp-oauth-check] %s\n' "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
# shellcheck source=../lib/start-platform.sh
. "$here/../lib/start-platform.sh"

lnp_preflight "$dist"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || fail "Node.js 18 or newer is needed, found $(node --version)"

lnp_make_work lnp-mcp-oauth
server_pid=""
cleanup() {
    local status=$?
    lnp_stop "$server_pid"
    lnp_finish "$status"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "installing @modelcontextprotocol/sdk@$sdk_version into $work/client"
mkdir -p "$work/client"
cp "$here/check-oauth.mjs" "$here/../lib/console-person.mjs" "$work/client/"
printf '{"name":"lnp-mcp-oauth-check","private":true,"type":"module"}\n' > "$work/client/package.json"
(cd "$work/client" && npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/sdk@$sdk_version" \
        >/dev/null) || fail "npm could not install the MCP TypeScript SDK"

port=$(lnp_free_port node)
lnp_environment "$work" "$port"
# The issuer and the tokens' audience: the address the client is given.
export LNP_BASE_URL="http://127.0.0.1:$port"
log "creating a workspace with the operator commands"
workspace_json=$("$dist/bin/platform" workspace create --name "OAuth check" --owner-email owner@example.com --json) \
    || fail "bin/platform workspace create failed"
sign_in_link=$(node -e 'console.log(JSON.parse(process.argv[1]).sign_in_link)' "$workspace_json")
lnp_serve node "$dist" "$work" "$port"

log "running the TypeScript SDK OAuth client"
(cd "$work/client" && MCP_URL="http://127.0.0.1:$port/api/mcp" SIGN_IN_LINK="$sign_in_link" node check-oauth.mjs) \
    || fail "the TypeScript SDK OAuth check failed (see above)"
log "OK"
