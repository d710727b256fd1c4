#!/usr/bin/env python3
"""Checks that every #include between cutec's folders follows the layers.

Each entry of LAYERS names a folder and the folders its files may include
(besides their own). A file belongs to the longest folder that names it.
Prints the folder-to-folder include graph with counts, then every include
that no rule allows, and exits 1 if there is one.
  tools/check-layers.py [--graph]
"""
import os, re, sys
from collections import Counter

# folder -> folders it may include. Keep in step with docs/architecture.md.
LAYERS = {
    'hardware': [],
    'cache': [],
    'runtime/base': [],
    'runtime/numerics': ['runtime/base'],
    'runtime/io': ['runtime/base'],
    'runtime/memory': ['runtime/base', 'hardware'],
    'runtime/race': ['runtime/base', 'runtime/memory'],
    'runtime/tensorcore': ['runtime/base', 'runtime/numerics', 'runtime/memory', 'hardware'],
    'runtime/engine': ['runtime/base', 'runtime/numerics', 'runtime/memory', 'runtime/race',
                       'runtime/tensorcore', 'hardware'],
    'runtime': ['runtime/base', 'runtime/numerics', 'runtime/memory', 'runtime/tensorcore',
                'runtime/engine'],
    'ir/layout': [],
    'ir/core': ['ir/layout', 'hardware'],
    'target/ptx': ['ir/core', 'ir/layout', 'hardware'],
    'frontend': ['ir/core', 'ir/layout', 'hardware'],
    'passes': ['ir/core', 'ir/layout', 'target/ptx', 'hardware'],
    'target/ptx/isel': ['target/ptx', 'passes', 'ir/core', 'ir/layout', 'hardware'],
    'codegen/ptx': ['target/ptx', 'ir/core', 'ir/layout'],
    'codegen/emu': ['codegen/ptx', 'codegen/host', 'target/ptx', 'ir/core', 'ir/layout'],
    'codegen/host': ['ir/core', 'ir/layout'],
    'codegen/jit': ['cache'],
    'codegen/cubin': [],
    'driver': ['frontend', 'passes', 'target/ptx', 'target/ptx/isel', 'ir/core', 'ir/layout'],
    'run': ['cache', 'codegen/jit', 'codegen/emu', 'runtime/base', 'runtime/numerics', 'runtime/io',
            'runtime/engine', 'ir/core', 'ir/layout'],
    'tools/cutec': ['cache', 'driver', 'run', 'frontend', 'passes', 'target/ptx', 'target/ptx/isel',
                    'codegen/ptx', 'codegen/emu', 'codegen/host', 'codegen/cubin', 'ir/core',
                    'ir/layout'],
    # The Python package's extension: the CUDA driver only (it compiles by
    # running the cutec program).
    'python/native': [],
}
# Sub-folders that are part of their parent's layer.
MEMBERS = {'passes/analysis': 'passes', 'passes/checks': 'passes', 'passes/lowering': 'passes',
           'passes/transforms': 'passes', 'frontend/irgen': 'frontend'}


def layer_of(path):
    d = os.path.dirname(path)
    d = MEMBERS.get(d, d)
    best = None
    for name in LAYERS:
        if d == name or d.startswith(name + '/'):
            if best is None or len(name) > len(best):
                best = name
    return best


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    os.chdir(root)
    include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    edges, bad = Counter(), []
    for top in ('hardware', 'cache', 'runtime', 'ir', 'target', 'frontend', 'passes', 'codegen', 'driver',
                'run', 'tools', 'python'):
        for dirpath, _, files in os.walk(top):
            for f in sorted(files):
                if not f.endswith(('.h', '.cpp', '.def')):
                    continue
                path = os.path.join(dirpath, f)
                src = layer_of(path)
                if src is None:
                    bad.append(f'{path}: in no layer')
                    continue
                for target in include.findall(open(path, encoding='utf-8').read()):
                    dst = layer_of(target)
                    if dst is None or not os.path.exists(target):
                        continue  # a header beside the file, or generated
                    if dst != src:
                        edges[(src, dst)] += 1
                        if dst not in LAYERS[src]:
                            bad.append(f'{path}: includes {target} ({src} -> {dst})')
    if '--graph' in sys.argv:
        for (src, dst), n in sorted(edges.items()):
            print(f'{src:20} -> {dst:20} {n:4}')
    for line in bad:
        print(line)
    print(f'{len(edges)} folder-to-folder edges, {len(bad)} against the layers')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
