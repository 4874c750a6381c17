#!/usr/bin/env bash
# Builds the Ollama server used by the real-server tests, once per version,
# into a cache directory outside the project's module, and prints its path.
#
# The version is the one go.mod pins for the api client, so client and server
# always agree. A cold build takes 6-16 minutes on 2 cores; later runs reuse
# the cached binary.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=$(cd "$root" && go list -m -f '{{.Version}}' github.com/ollama/ollama)
cache=${AGENTFIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentfix}/ollama-$version
bin=$cache/ollama

if [ -x "$bin" ] && "$bin" --version >/dev/null 2>&1; then
  echo "$bin"
  exit 0
fi

# Module zips drop llama.cpp's vendored headers: take them from Debian and
# from the malgo module, which ships the same miniaudio.h.
need=()
[ -f /usr/include/nlohmann/json.hpp ] || need+=(nlohmann-json3-dev)
[ -f /usr/include/stb/stb_image.h ] || need+=(libstb-dev)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
  else
    sudo apt-get update -qq >&2
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
  fi
fi

mkdir -p "$cache/include/miniaudio"
src=$(cd "$root" && go mod download -json "github.com/ollama/ollama@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
malgo=$(cd "$root" && GOFLAGS=-mod=mod go mod download -json github.com/gen2brain/malgo@v0.11.24 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
cp "$malgo/miniaudio.h" "$cache/include/miniaudio/miniaudio.h"

echo "building ollama $version into $cache (takes several minutes the first time)" >&2
tmp=$cache/ollama.tmp
(
  cd "$src"
  CGO_ENABLED=1 CGO_CPPFLAGS="-I$cache/include -I/usr/include" \
    go build -trimpath -o "$tmp" \
      -ldflags "-X github.com/ollama/ollama/version.Version=${version#v}" .
) >&2
mv "$tmp" "$bin"
echo "$bin"
