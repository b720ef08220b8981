# Sourced by .ci/run (and usable by hand: `source .ci/node-lts.sh`): puts Node 24 first on PATH when the
# machine's Node is older than package.json's engines (>= 22.12), fetching it once into .cache/node24.
node_ok() { node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=12)?0:1)' 2>/dev/null; }
if ! node_ok; then
  lts_dir="$(pwd)/.cache/node24"
  if [ ! -x "$lts_dir/node_modules/.bin/node" ]; then
    echo "ci: $(node --version 2>/dev/null || echo 'no node') is older than the project's Node; fetching node@24 from the npm registry"
    mkdir -p "$lts_dir"
    npm install --prefix "$lts_dir" --no-audit --no-fund --loglevel=error node@24 >/dev/null
  fi
  export PATH="$lts_dir/node_modules/.bin:$PATH"
  node_ok || { echo "ci: could not put Node >= 22.12 on PATH" >&2; exit 1; }
fi
