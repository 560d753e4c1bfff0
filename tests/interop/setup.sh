#!/usr/bin/env bash
# Installs the official MCP SDK clients used by the interop scripts in this folder:
#   $TARGET/venv  Python venv with mcp==2.3.0 (pinned tree: requirements.txt)
#   $TARGET/node  npm folder with @modelcontextprotocol/sdk 1.32.2 and oidc-provider 9.13.3 (npm ci from package-lock.json)
# TARGET defaults to <repo>/target/interop (gitignored). Idempotent: each half is skipped when a
# stamp file says it is already installed from the same pin file; delete $TARGET to force a reinstall.
# Needs python3 (3.10+) and node/npm (18+), plus the PyPI and npm registries.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
TARGET="${TARGET:-$REPO/target/interop}"
PYTHON="${PYTHON:-python3}"
mkdir -p "$TARGET"

# The stamp holds a hash of the pin file, so editing a pin triggers a reinstall.
stamp_of() { sha256sum "$@" | sha256sum | cut -c1-16; }

# --- Python: mcp 2.3.0 ---------------------------------------------------------------------
VENV="$TARGET/venv"
PY_STAMP="$(stamp_of "$HERE/requirements.txt")"
if [[ -x "$VENV/bin/python" && "$(cat "$VENV/.interop-stamp" 2>/dev/null)" == "$PY_STAMP" ]]; then
  echo "python: up to date ($VENV)"
else
  echo "python: installing mcp into $VENV"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$HERE/requirements.txt"
  "$VENV/bin/python" -c 'import importlib.metadata as m; assert m.version("mcp") == "2.3.0", m.version("mcp")'
  echo "$PY_STAMP" > "$VENV/.interop-stamp"
fi

# --- Node: @modelcontextprotocol/sdk 1.32.2 --------------------------------------------------
NODE_DIR="$TARGET/node"
NODE_STAMP="$(stamp_of "$HERE/package.json" "$HERE/package-lock.json")"
if [[ -d "$NODE_DIR/node_modules/@modelcontextprotocol/sdk" && "$(cat "$NODE_DIR/.interop-stamp" 2>/dev/null)" == "$NODE_STAMP" ]]; then
  echo "node:   up to date ($NODE_DIR)"
else
  echo "node:   installing @modelcontextprotocol/sdk into $NODE_DIR"
  mkdir -p "$NODE_DIR"
  cp "$HERE/package.json" "$HERE/package-lock.json" "$NODE_DIR/"
  (cd "$NODE_DIR" && npm ci --loglevel=error --no-audit --no-fund)
  echo "$NODE_STAMP" > "$NODE_DIR/.interop-stamp"
fi

SDK_VER="$(node -p "require('$NODE_DIR/node_modules/@modelcontextprotocol/sdk/package.json').version")"
cat <<EOF
interop clients ready:
  python venv:  $VENV  (mcp $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))'))
  npm folder:   $NODE_DIR  (@modelcontextprotocol/sdk $SDK_VER)
run:
  $VENV/bin/python $HERE/py_client.py -- SERVER_CMD [ARGS...]
  node $HERE/ts_client.mjs -- SERVER_CMD [ARGS...]   (finds the SDK in \$TARGET/node, or \$MCP_INTEROP_NODE_DIR)
EOF
