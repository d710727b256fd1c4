#!/usr/bin/env bash
# Regenerates the golden PTX of every example (tests/golden/NAME.ARCH.ptx)
# after an intended change of the compiler's output. Review the diff before
# committing it. Examples that use tcgen05 (listed in
# tests/golden/sm_100a-only.txt) have no sm_90a golden, those that use wgmma
# (tests/golden/sm_90a-only.txt) no sm_100a golden. The ports of
# examples/ports/ have one golden each (tests/golden/ports/NAME.ARCH.ptx),
# for the architecture their name ends in: _hopper sm_90a, _blackwell
# sm_100a.
#   tools/update-goldens.sh [BUILD_DIR]     (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
cutec="${1:-build}/bin/cutec"
[ -x "$cutec" ] || { echo "update-goldens: no cutec at $cutec: build first" >&2; exit 1; }
for source in examples/*.cute; do
  name=$(basename "$source" .cute)
  arches="sm_100a sm_90a"
  grep -qx "$name" tests/golden/sm_100a-only.txt && arches=sm_100a
  grep -qx "$name" tests/golden/sm_90a-only.txt && arches=sm_90a
  for arch in $arches; do
    "$cutec" "$source" --arch="$arch" -o "tests/golden/$name.$arch.ptx"
    echo "wrote tests/golden/$name.$arch.ptx"
  done
done
for source in examples/ports/*.cute; do
  name=$(basename "$source" .cute)
  case "$name" in
    *_hopper) arch=sm_90a ;;
    *_blackwell) arch=sm_100a ;;
    *) echo "update-goldens: $source: a port's name ends in _hopper or _blackwell" >&2; exit 1 ;;
  esac
  "$cutec" "$source" --arch="$arch" -o "tests/golden/ports/$name.$arch.ptx"
  echo "wrote tests/golden/ports/$name.$arch.ptx"
done
