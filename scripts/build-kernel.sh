#!/usr/bin/env bash
# Builds crates/avm-kernel into src/kernel/avm_kernel.wasm with Debian's rustc 1.63, reproducibly (source paths are
# remapped, so the bytes do not depend on the clone folder). `--check` rebuilds into a temp dir and fails if the
# result differs from the committed file (CI). Env: AVM_RUSTC / AVM_CARGO override the toolchain paths,
# AVM_KERNEL_SIMD=0 builds without wasm simd128.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUSTC_BIN="${AVM_RUSTC:-/usr/bin/rustc}"
CARGO_BIN="${AVM_CARGO:-/usr/bin/cargo}"
OUT="$ROOT/src/kernel/avm_kernel.wasm"
MODE="build"
case "${1:-}" in
  --check) MODE="check" ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

if [[ ! -x "$RUSTC_BIN" || ! -x "$CARGO_BIN" ]]; then
  echo "build-kernel: need Debian's rustc/cargo (apt-get install rustc cargo libstd-rust-dev-wasm32); set AVM_RUSTC/AVM_CARGO" >&2
  exit 2
fi

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
if [[ "$MODE" == "check" ]]; then TARGET_DIR="$TMP/target"; else TARGET_DIR="$ROOT/target/kernel"; fi

FEATURES=""
if [[ "${AVM_KERNEL_SIMD:-1}" == "1" ]]; then FEATURES="-C target-feature=+simd128"; fi
# Remap the clone folder and the temp target dir to fixed names; strip debug info (it carries paths and bulk).
export RUSTFLAGS="--remap-path-prefix=$ROOT=/avm --remap-path-prefix=$TARGET_DIR=/target -C strip=debuginfo $FEATURES"
export CARGO_TARGET_DIR="$TARGET_DIR"
export RUSTC="$RUSTC_BIN"
export SOURCE_DATE_EPOCH=0

(cd "$ROOT" && "$CARGO_BIN" build --release --offline --locked --target wasm32-unknown-unknown -p avm-kernel --quiet)
BUILT="$TARGET_DIR/wasm32-unknown-unknown/release/avm_kernel.wasm"

if [[ "$MODE" == "check" ]]; then
  if cmp -s "$BUILT" "$OUT"; then
    echo "build-kernel --check: $OUT matches the source ($(wc -c <"$OUT") bytes)"
  else
    echo "build-kernel --check: $OUT differs from a fresh build of crates/avm-kernel; run npm run build:kernel" >&2
    exit 1
  fi
else
  install -m 644 "$BUILT" "$OUT"
  echo "build-kernel: wrote $OUT ($(wc -c <"$OUT") bytes, sha256 $(sha256sum "$OUT" | cut -c1-16))"
fi
