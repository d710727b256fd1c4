#!/bin/sh
# Runs bench/sass_compare.py (cutec SASS vs CuTe DSL SASS) with the Python of
# a CuTe DSL venv, if there is one; sets nothing up (see the header of
# sass_compare.py for the one-time setup). Arguments go to the script.
#   CUTE_DSL_VENV         venv with nvidia-cutlass-dsl (default /work/venv-cutedsl)
#   CUTLASS_DSL_EXAMPLES  a CUTLASS checkout's examples/python/CuTeDSL
#                         (default /work/cutlass-src/examples/python/CuTeDSL)
#   CUTEC                 cutec binary (default build/bin/cutec)
venv=${CUTE_DSL_VENV:-/work/venv-cutedsl}
examples=${CUTLASS_DSL_EXAMPLES:-/work/cutlass-src/examples/python/CuTeDSL}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import cutlass' 2>/dev/null; then
    echo "skipped: no CuTe DSL venv at $venv"
    exit 0
fi
if [ ! -d "$examples" ]; then
    echo "skipped: no CUTLASS CuTe DSL examples at $examples"
    exit 0
fi
here=$(cd "$(dirname "$0")" && pwd)
CUTLASS_DSL_EXAMPLES=$examples exec "$venv/bin/python" "$here/sass_compare.py" "$@"
