#!/usr/bin/env bash
# Regenerates the golden PTX of every example (tests/golden/NAME.ARCH.ptx)
# after an intended change of the compiler's output. Review the diff before
# committing it. Examples that use tcgen05 (listed in
# tests/golden/sm_100a-only.txt) have no sm_90a golden, those that use wgmma
# (tests/golden/sm_90a-only.txt) no sm_100a golden.
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
