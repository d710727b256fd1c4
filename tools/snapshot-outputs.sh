#!/usr/bin/env bash
# For changes that must not change any output (a refactoring): every .cute of
# examples/, tests/lit/ and the compile fuzz corpus through CUTEC (PTX and
# emulation for sm_100a and sm_90a, kernel IR, host launcher), each output
# with its diagnostics and exit code hashed into OUT/manifest.txt. Run it with
# the cutec built before and after the change and diff the two manifests.
#   tools/snapshot-outputs.sh CUTEC SRCROOT OUT
cutec=$(realpath "$1"); src=$(realpath "$2"); out=$3
mkdir -p "$out"; out=$(realpath "$out")
cd "$src"
one() {
  f=$1
  for mode in "ptx sm_100a" "ptx sm_90a" "emu sm_100a" "emu sm_90a" "ir sm_100a" "host sm_100a"; do
    set -- $mode
    case "$f" in fuzz/*) [ "$1" = ptx ] || [ "$1" = ir ] || continue ;; esac
    r=$( { timeout 60 "$cutec" "$f" --emit=$1 --arch=$2 -o - 2>&1; echo "rc=$?"; } | sha256sum | cut -c1-16)
    echo "$f $1 $2 $r"
  done
}
export -f one; export cutec
{ ls examples/*.cute; find tests/lit -name '*.cute' | sort; ls fuzz/corpus/compile/* ; } |
  xargs -P2 -I{} bash -c 'one {}' | sort > "$out/manifest.txt"
wc -l < "$out/manifest.txt"
