#!/usr/bin/env bash
# Builds release archives for every platform: test input for the patch
# corpus.
set -euo pipefail

cd "$(dirname "$0")/.."

version=${1:-}
if [ -z "$version" ]; then
  echo "usage: $0 VERSION" >&2
  exit 2
fi

out=dist/$version
rm -rf "$out"
mkdir -p "$out"

platforms=(
  linux/amd64
  linux/arm64
  darwin/amd64
  darwin/arm64
  windows/amd64
)

build() {
  local os=$1 arch=$2
  local name=tool-$version-$os-$arch
  local bin=tool
  if [ "$os" = windows ]; then
    bin=tool.exe
  fi

  echo "== $os/$arch"
  mkdir -p "$out/$name"
  GOOS=$os GOARCH=$arch CGO_ENABLED=0 \
    go build -trimpath -ldflags "-s -w -X main.version=$version" \
    -o "$out/$name/$bin" ./cmd/tool

  cp LICENSE README.md "$out/$name/"

  if [ "$os" = windows ]; then
    (cd "$out" && zip -qr "$name.zip" "$name")
  else
    tar -C "$out" -czf "$out/$name.tar.gz" "$name"
  fi
  rm -rf "${out:?}/$name"
}

for p in "${platforms[@]}"; do
  build "${p%/*}" "${p#*/}"
done

echo "== checksums"
(
  cd "$out"
  if command -v sha256sum >/dev/null; then
    sha256sum ./* > SHA256SUMS
  else
    shasum -a 256 ./* > SHA256SUMS
  fi
)

echo "== done"
ls -l "$out"
