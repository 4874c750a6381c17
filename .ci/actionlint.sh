#!/usr/bin/env bash
# Lints the workflows and action.yml with actionlint at a pinned version
# (with shellcheck for the run: scripts), installed once into the cache.
set -euo pipefail
cd "$(dirname "$0")/.."
version=v1.7.7
dir=${AGENTFIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentfix}/actionlint-$version
if [ ! -x "$dir/actionlint" ]; then
  GOBIN="$dir" GOFLAGS=-mod=mod go install "github.com/rhysd/actionlint/cmd/actionlint@$version"
fi
"$dir/actionlint" -color=false
echo "actionlint $version: workflows and action.yml are clean"
