#!/usr/bin/env bash
# Lints the platform's OpenAPI document with Redocly CLI (npm @redocly/cli, pinned, installed here into a temporary
# folder) and the rules of .ci/openapi-lint/redocly.yaml (docs/api-conventions.md, "Linting the document"). Any error
# fails; warnings are printed.
#
#   .ci/openapi-lint/run.sh                  starts the built distribution (distribution/target/lnp, every bundled
#                                            plugin) as an operator would and lints its /openapi/v1.json
#   .ci/openapi-lint/run.sh FILE             lints a document already written, e.g. curl'ed from a running platform
#   .ci/openapi-lint/run.sh http://HOST/...  lints the document a running platform serves at that URL
#
# Needs Node.js 18+ and npm; without FILE or URL also a built distribution (./mvnw -B verify or package).
# OPENAPI_LINT_KEEP=PATH keeps a copy of the linted document there (e.g. to read what a finding points at).
set -euo pipefail

keep=${OPENAPI_LINT_KEEP:-}

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dist=${LNP_DIST_DIR:-$root/distribution/target/lnp}
redocly_version=2.77.0

log() { printf '[openapi-lint] %s\n' "$*" >&2; }
fail() { log "FAILED: $*"; exit 1; }
# shellcheck source=../lib/start-platform.sh
. "$here/../lib/start-platform.sh"

command -v node >/dev/null 2>&1 || fail "node is not installed"
command -v npm >/dev/null 2>&1 || fail "npm is not installed"
[ "$(node -p 'process.versions.node.split(".")[0]')" -ge 18 ] || fail "Node.js 18 or newer is needed"

source_arg=${1:-}
if [ -z "$source_arg" ]; then
    lnp_preflight "$dist"
fi

lnp_make_work lnp-openapi-lint
server_pid=""
cleanup() {
    local status=$?
    lnp_stop "$server_pid"
    lnp_finish "$status"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

document="$work/v1.json"
case "$source_arg" in
    "")
        port=$(lnp_free_port node)
        lnp_environment "$work" "$port"
        lnp_serve node "$dist" "$work" "$port"
        url="http://127.0.0.1:$port/openapi/v1.json"
        ;;
    http://*|https://*)
        url=$source_arg
        ;;
    *)
        [ -f "$source_arg" ] || fail "no document at $source_arg"
        cp "$source_arg" "$document"
        url=""
        ;;
esac
if [ -n "$url" ]; then
    log "reading $url"
    node -e '
        const [url, out] = process.argv.slice(1);
        fetch(url).then(async r => {
            if (r.status !== 200) { console.error(`${url} answered ${r.status}`); process.exit(1); }
            require("fs").writeFileSync(out, await r.text());
        }).catch(e => { console.error(String(e)); process.exit(1); });' "$url" "$document" \
        || fail "could not read the document"
fi

if [ -n "$keep" ]; then
    cp "$document" "$keep" && log "the document is kept in $keep"
fi

log "installing @redocly/cli@$redocly_version into $work/lint"
mkdir -p "$work/lint"
printf '{"name":"lnp-openapi-lint","private":true}\n' > "$work/lint/package.json"
(cd "$work/lint" && npm install --no-audit --no-fund --loglevel=error "@redocly/cli@$redocly_version" >/dev/null) \
    || fail "npm could not install @redocly/cli"

log "linting $(wc -c < "$document") bytes with $here/redocly.yaml"
(cd "$work/lint" && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
    ./node_modules/.bin/redocly lint --config "$here/redocly.yaml" --format stylish "$document") \
    || fail "Redocly found errors in the OpenAPI document (see above)"
log "no errors"
