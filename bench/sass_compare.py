#!/usr/bin/env python3
"""Put cutec's sm_100a SASS next to CuTe DSL's for the same kernels.

A measurement yardstick, not a test: it compiles each cutec example to PTX
(cutec --arch=sm_100a), compiles the matching CuTe DSL kernel (the peer) to
PTX without a GPU (CUTE_DSL_ARCH=sm_100a, CUTE_DSL_KEEP=ptx,cubin,
cute.compile only; see sass_compare_peers.py), assembles BOTH PTX files
with the same ptxas (-arch=sm_100a -v), disassembles them with cuobjdump
-sass and prints one table per pair. The peer's own cubin (built by the
toolchain inside CuTe DSL) is also read, for one line of registers and
instruction count, so a ptxas-version effect can be seen.

Setup (once, outside the repository; CuTe DSL is never a dependency):
    python3 -m venv /work/venv-cutedsl
    /work/venv-cutedsl/bin/pip install nvidia-cutlass-dsl \
        nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
    # the CUTLASS examples (peer sources), from a CUTLASS git checkout:
    mkdir -p /work/cutlass-src && git -C CUTLASS archive HEAD \
        examples/python/CuTeDSL | tar -x -C /work/cutlass-src
    git -C CUTLASS rev-parse HEAD > /work/cutlass-src/COMMIT   # optional
Run:  bench/sass_compare.sh [--cutec build/bin/cutec] [--work DIR]

Pairs (cutec example file : kernel  <->  peer):
  gemv        nvfp4_gemv.cute        <-> seed 004 GEMV (GPU MODE reference)
  gemv_warp   nvfp4_gemv_warp.cute   <-> seed 004 GEMV (same peer)
  gemm        nvfp4_gemm.cute        <-> tutorial nvfp4_gemm_0.py (128x256x256)
  persist_1   nvfp4_gemm_persistent.cute, kernel without "2cta" in its name
              <-> dense_blockscaled_gemm_persistent.py tiler (128,256) cluster (1,1)
  persist_2   nvfp4_gemm_persistent.cute, kernel with "2cta" in its name
              <-> dense_blockscaled_gemm_persistent.py tiler (256,256) cluster (2,1)
  gemm_2cta   nvfp4_gemm_2cta.cute (not persistent) <-> the persistent 2-CTA peer
  dual        nvfp4_dual_gemm.cute (silu(A B1^T) * (A B2^T), 128x128 tiles)
              <-> dense_blockscaled_gemm_persistent.py tiler (128,128) cluster (1,1):
              CuTe DSL has no dual GEMM example, so the peer is the single
              GEMM with the dual's MMA shape. The dual issues two MMAs per K
              step (B1, B2) and its epilogue reads two accumulator columns
              per output: 256 per thread per 128x128 tile, the peer's 128.
A cutec example that does not exist is reported as 'not present'.
All peers use NVFP4: e2m1 A/B (K-major), e4m3 scale factors per 16 K,
f32 accumulation, f16 C (N-major); M, N, K, L are dynamic (2048,2048,2048,1
at compile time, which only the examples' host checks see).

Heuristics (static SASS, cuobjdump -sass; addresses are byte offsets):
  * total: every instruction except NOP and the closing `BRA self` padding.
  * class: by opcode, first token before '.', see CLASSES below; uniform
    variants (UIADD3, ULOP3, ...) count with their vector class; the
    'uniform datapath' row counts U* opcodes (other than UTC*/UTMA*) plus
    R2UR/S2UR/LDCU. HFMA2 with operands -RZ, RZ is a move, as ptxas uses it.
  * loop: a branch whose target is at or before itself, spanning
    [target, branch]. Spans that contain an EXIT are ignored: they come
    from the slow paths of mbarrier try-waits that ptxas places after the
    kernel's EXIT and that jump back into the body. So out-of-line slow
    paths are never counted in a loop; the fast path is. Backward
    `BRA.U.ANY` are not loops of the source either: ptxas wraps an
    instruction that needs a warp-uniform operand it cannot prove uniform
    (R2UR ... UTCCP/UTCOMMA ... BRA.U.ANY) in a loop run once per distinct
    value; they are counted in their own row and never taken as loops.
  * main loop: the smallest loop that contains an MMA (UTC*MMA); for a
    kernel without MMA (GEMV), the smallest loop that contains an LDG.
    'loop body' is the number of instructions in its span (inner spin-wait
    loops count once).
  * GEMV instrs per fp4 element: loop body / fp4 elements of A one SASS
    iteration consumes per thread. The element counts are read from the
    kernels' source (ELEMS below, per source loop iteration). Check against
    the SASS: a source iteration of E elements loads E/2 bytes of A, E/2 of
    B and E/16 of each scale factor, 1.125 E bytes; the loop's LDG bytes
    (from the size modifiers) are printed, and if they are a whole multiple
    (>= 2) of that, ptxas unrolled the loop and E is multiplied; any other
    difference is noted and the source count kept.
  * epilogue: starts at the first LDTM (tcgen05.ld). If no loop contains
    it, it ends at the last global or TMA store (STG/UTMASTG) after it, and
    is counted once. If a loop L contains it (a sub-tile loop), L runs
    trips = ACC_COLS / (sum of .xN of the LDTMs in L) times per tile, with
    ACC_COLS = 256 f32 accumulator columns per thread per output tile (each
    thread owns one row of the 128 x 256 tile, 1-CTA and 2-CTA alike; the
    128 x 128 peer of the dual pair 128, ACC_COLS_OF); the
    epilogue ends at the end of the smallest loop enclosing L (the
    persistent tile loop) or, without one, at the last store. Per output
    tile = instructions from the first LDTM to that end, plus L's body
    (trips - 1) more times. Class columns of the epilogue use the same
    weights.
Deterministic: no timings, addresses or temporary paths in the tables.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

ACC_COLS = 256  # f32 accumulator columns per thread per output tile (see header)
ACC_COLS_OF = {"persistent_1cta_n128": 128}  # kernels whose tiles have another count

# Pair: (key, title, cutec example, cutec kernel selector, peer, peer note)
# cutec kernel selector: exact name, or ("no2cta",) / ("2cta",) for the
# persistent example, whose kernel names are not known yet.
PAIRS = [
    ("gemv", "NVFP4 GEMV, one thread per row (seed 004)",
     "nvfp4_gemv.cute", "nvfp4_gemv", "gemv_seed", ""),
    ("gemv_warp", "NVFP4 GEMV, cutec's warp-per-row variant vs the seed",
     "nvfp4_gemv_warp.cute", "nvfp4_gemv_warp", "gemv_seed",
     "peer is the seed kernel (one thread per row): different designs"),
    ("gemm", "NVFP4 GEMM 128x256x256, 1 CTA, not persistent (tutorial nvfp4_gemm_0)",
     "nvfp4_gemm.cute", "nvfp4_gemm", "gemm_tutorial0", ""),
    ("persist_1", "NVFP4 GEMM persistent, mma tiler 128x256, cluster 1x1",
     "nvfp4_gemm_persistent.cute", ("no2cta",), "persistent_1cta", ""),
    ("persist_2", "NVFP4 GEMM persistent, mma tiler 256x256, cluster 2x1 (2-CTA)",
     "nvfp4_gemm_persistent.cute", ("2cta",), "persistent_2cta", ""),
    ("gemm_2cta", "NVFP4 GEMM 256x256 2-CTA: cutec (not persistent) vs persistent peer",
     "nvfp4_gemm_2cta.cute", "nvfp4_gemm_2cta", "persistent_2cta",
     "cutec kernel is not persistent, the peer is: loop and epilogue compare, totals less so"),
    ("dual", "NVFP4 dual GEMM silu(A B1^T) * (A B2^T) vs the single GEMM, mma tiler 128x128",
     "nvfp4_dual_gemm.cute", "nvfp4_dual_gemm", "persistent_1cta_n128",
     "no dual GEMM in CuTe DSL: the peer is the single persistent GEMM; per K step the dual issues "
     "twice its MMAs, and per 128x128 output tile its epilogue reads twice its accumulator columns"),
]

# fp4 elements of A per thread per iteration of the kernel's source loop.
#  nvfp4_gemv.cute: tile_mnk[2] = 64 k values per `for k` iteration (one row per thread).
#  nvfp4_gemv_warp.cute: tile_mk[1] = 32 k values per lane per iteration.
#  seed 004 (peer): mma_tiler_mnk[2] = 64 k values per k_tile iteration.
ELEMS = {"nvfp4_gemv": 64, "nvfp4_gemv_warp": 32, "gemv_seed": 64}

CLASSES = [
    ("MMA (UTC*MMA)", lambda b: re.fullmatch(r"UTC\w*MMA", b) is not None),
    ("UTCCP smem->tmem", lambda b: b == "UTCCP"),
    ("UTCBAR mma commit", lambda b: b == "UTCBAR"),
    ("tcgen05 other (UTC*)", lambda b: b.startswith("UTC")),
    ("TMA UTMALDG/UTMASTG", lambda b: b in ("UTMALDG", "UTMASTG", "UTMAREDG")),
    ("TMA other (UTMA*)", lambda b: b.startswith(("UTMA", "UBLK"))),
    ("TMEM LDTM/STTM", lambda b: b in ("LDTM", "STTM")),
    ("global LDG/STG/RED", lambda b: b in ("LDG", "STG", "LD", "ST", "LDGSTS", "RED", "REDG", "ATOMG", "ATOM")),
    ("shared LDS/STS/ATOMS", lambda b: b in ("LDS", "STS", "LDSM", "STSM", "ATOMS", "STAS", "LDSU")),
    ("local LDL/STL", lambda b: b in ("LDL", "STL")),
    ("cvt F2FP/F2F/I2F/F2I", lambda b: b in ("F2FP", "F2F", "I2F", "F2I", "I2FP", "F2IP", "FRND", "I2I", "I2IP")),
    ("int IMAD/IADD3/LEA..", lambda b: b in ("IMAD", "IADD3", "IADD", "VIADD", "VIADDMNMX", "LEA", "IABS", "IMUL",
                                            "IMNMX", "VIMNMX", "ISCADD", "IDP", "POPC", "FLO")),
    ("bit SHF/LOP3/PRMT..", lambda b: b in ("SHF", "SHL", "SHR", "LOP3", "LOP", "PRMT", "BFE", "BFI", "BMSK", "BREV", "SGXT")),
    ("fp32 FMUL/FADD/FFMA..", lambda b: b in ("FMUL", "FADD", "FFMA", "FMNMX", "FMUL2", "FADD2", "FFMA2", "FMNMX2",
                                             "MUFU", "FCHK", "FSWZADD")),
    ("fp16x2 HADD2/HMUL2/HFMA2", lambda b: b in ("HADD2", "HMUL2", "HFMA2", "HMNMX2")),
    ("cmp/sel ISETP/SEL/PLOP3", lambda b: b in ("ISETP", "FSETP", "HSETP2", "DSETP", "SEL", "FSEL", "PLOP3", "P2R", "R2P", "PSETP")),
    ("move MOV/LDC/S2R/R2UR", lambda b: b in ("MOV", "MOV32I", "LDC", "LDCU", "S2R", "S2UR", "CS2R", "R2UR", "UR2R", "UVIRTCOUNT")),
    ("warp SHFL/REDUX/VOTE/ELECT", lambda b: b in ("SHFL", "REDUX", "VOTE", "VOTEU", "ELECT", "MATCH")),
    ("sync BAR/SYNCS/FENCE..", lambda b: b in ("BAR", "SYNCS", "MEMBAR", "FENCE", "DEPBAR", "NANOSLEEP", "UCGABAR_ARV",
                                              "UCGABAR_WAIT", "CCTL", "ERRBAR", "LDGDEPBAR", "ACQBULK", "CGAERRBAR")),
    ("branch BRA/EXIT/CALL..", lambda b: b in ("BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "CALL", "BSSY", "BSYNC", "YIELD",
                                              "BPT", "KILL", "BREAK", "WARPSYNC")),
]
OTHER = "other"
CLASS_NAMES = [c for c, _ in CLASSES] + [OTHER]
# Uniform-datapath opcodes that share a class with their vector form.
UNIFORM_ALIAS = {"UIADD3": "IADD3", "UIMAD": "IMAD", "ULEA": "LEA", "UIABS": "IABS", "UIMNMX": "IMNMX",
                 "UFLO": "FLO", "UPOPC": "POPC", "USHF": "SHF", "ULOP3": "LOP3", "ULOP": "LOP", "UPRMT": "PRMT",
                 "UBMSK": "BMSK", "UBREV": "BREV", "USGXT": "SGXT", "UMOV": "MOV", "USEL": "SEL",
                 "UISETP": "ISETP", "UPLOP3": "PLOP3", "ULDC": "LDC", "UP2UR": "P2R", "UR2UP": "R2P",
                 "UPSETP": "PSETP"}


def classify(base, operands):
    if base == "HFMA2" and re.match(r"\S+,\s*-RZ,\s*RZ,", operands):
        return "move MOV/LDC/S2R/R2UR"
    base = UNIFORM_ALIAS.get(base, base)
    for name, test in CLASSES:
        if test(base):
            return name
    return OTHER


def is_uniform(base):
    if base in ("R2UR", "S2UR", "LDCU"):
        return True
    return base.startswith("U") and not base.startswith(("UTC", "UTMA", "UBLK"))


# --- SASS parsing -----------------------------------------------------------

class Insn:
    __slots__ = ("addr", "pred", "op", "base", "operands", "cls", "target")

    def __init__(self, addr, text):
        self.addr = addr
        toks = text.split(None, 1)
        self.pred = ""
        if toks and toks[0].startswith("@"):
            self.pred = toks[0]
            toks = toks[1].split(None, 1) if len(toks) > 1 else [""]
        self.op = toks[0].rstrip(";")
        self.operands = toks[1].rstrip(" ;") if len(toks) > 1 else ""
        self.base = self.op.split(".")[0]
        self.cls = classify(self.base, self.operands)
        self.target = None
        if self.base in ("BRA", "JMP"):
            hexes = re.findall(r"0x[0-9a-f]+", self.operands)
            if hexes:
                self.target = int(hexes[-1], 16)


def parse_sass(text):
    """{function name: [Insn]} from cuobjdump -sass output."""
    funcs, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*(/\*.*)?$", line)
        if m and cur is not None:
            body = m.group(2).strip()
            if body:
                cur.append(Insn(int(m.group(1), 16), body.rstrip(";").strip()))
    return funcs


def strip_padding(insns):
    """Drop NOPs and the closing `BRA self`; return (kept, dropped count)."""
    kept = [i for i in insns if i.base != "NOP" and not (i.target == i.addr and not i.pred)]
    return kept, len(insns) - len(kept)


def waterfall_loops(insns):
    """Backward `BRA.U.ANY`: ptxas repeats an instruction that needs a
    warp-uniform operand once per distinct value (R2UR ... BRA.U.ANY)."""
    return [i for i in insns if i.target is not None and i.target <= i.addr and ".ANY" in i.op]


def loops(insns):
    exits = [i.addr for i in insns if i.base in ("EXIT",)]
    spans = []
    for i in insns:
        if i.target is not None and i.target <= i.addr and ".ANY" not in i.op:
            lo, hi = i.target, i.addr
            if any(lo <= e <= hi for e in exits):
                continue  # slow path placed after EXIT jumping back: not a loop
            spans.append((lo, hi))
    return sorted(set(spans), key=lambda s: (s[1] - s[0], s[0]))


def in_span(insns, span):
    return [i for i in insns if span[0] <= i.addr <= span[1]]


def smallest_loop_with(insns, spans, pred):
    for s in spans:  # sorted smallest first
        if any(pred(i) for i in in_span(insns, s)):
            return s
    return None


def ldg_size(i):
    """Bytes one LDG moves, from its size modifier (none: 32 bits)."""
    mods = i.op.split(".")[1:]
    for m, n in (("256", 32), ("128", 16), ("64", 8), ("U16", 2), ("S16", 2), ("U8", 1), ("S8", 1)):
        if m in mods:
            return n
    return 4


def ldtm_cols(i):
    m = re.search(r"\.x(\d+)", i.op)
    return int(m.group(1)) if m else 1


# --- per-kernel analysis ----------------------------------------------------

class Figures:
    def __init__(self):
        self.rows = {}      # summary row -> value (int, float or str)
        self.kernel = Counter()
        self.loop = Counter()
        self.epi = Counter()
        self.other_ops = Counter()
        self.notes = []


def analyse(insns, ptxas_info, elems_src=None, is_gemv=False, acc_cols=ACC_COLS):
    f = Figures()
    insns, padding = strip_padding(insns)
    f.rows["registers / thread"] = ptxas_info.get("registers", "?")
    f.rows["spill stores / loads (bytes)"] = "%s / %s" % (ptxas_info.get("spill_stores", "?"), ptxas_info.get("spill_loads", "?"))
    f.rows["stack frame (bytes)"] = ptxas_info.get("stack", "?")
    f.rows["SASS instructions (total)"] = len(insns)
    f.rows["  of which uniform datapath"] = sum(1 for i in insns if is_uniform(i.base))
    f.rows["NOP / padding (not counted)"] = padding
    for i in insns:
        f.kernel[i.cls] += 1
        if i.cls == OTHER:
            f.other_ops[i.base] += 1
    spans = loops(insns)
    f.rows["loops (backward branches)"] = len(spans)
    f.rows["uniformity loops (BRA.U.ANY)"] = len(waterfall_loops(insns))

    has_mma = any(i.cls == "MMA (UTC*MMA)" for i in insns)
    if has_mma:
        main = smallest_loop_with(insns, spans, lambda i: i.cls == "MMA (UTC*MMA)")
    else:
        main = smallest_loop_with(insns, spans, lambda i: i.base == "LDG")
    if main is None:
        f.rows["main loop body (instrs)"] = "no loop"
    else:
        body = in_span(insns, main)
        for i in body:
            f.loop[i.cls] += 1
        f.rows["main loop body (instrs)"] = len(body)
        if has_mma:
            mmas = sum(1 for i in body if i.cls == "MMA (UTC*MMA)")
            f.rows["  MMAs per loop iteration"] = mmas
            f.rows["  loop instrs per MMA"] = len(body) / mmas
        if is_gemv:
            # Check: A, B, SFA and SFB bytes of one source iteration are
            # elems/2 + elems/2 + elems/16 + elems/16 = 1.125 * elems.
            ldg_bytes = sum(ldg_size(i) for i in body if i.base == "LDG")
            elems_sass = ldg_bytes / 1.125
            elems = elems_src
            f.rows["  fp4 elems of A/iter (source)"] = elems_src if elems_src else "?"
            f.rows["  loop LDG bytes (check: 1.125/elem)"] = ldg_bytes
            if elems_src and abs(elems_sass - elems_src) > 0.5:
                unroll = elems_sass / elems_src
                if abs(unroll - round(unroll)) < 0.01 and round(unroll) >= 2:
                    f.notes.append("loop loads %d bytes = %d x the source iteration's: ptxas unrolled it "
                                   "%d times; using %d elements" % (ldg_bytes, round(unroll), round(unroll),
                                                                    elems_src * round(unroll)))
                    elems = elems_src * round(unroll)
                else:
                    f.notes.append("loop loads %d bytes, not the %.0f of %d elements: some bytes are loaded "
                                   "twice or not in the loop; using the source count" % (ldg_bytes, 1.125 * elems_src, elems_src))
            if elems:
                f.rows["  loop instrs per fp4 element"] = len(body) / elems

    ldtms = [i for i in insns if i.base == "LDTM"]
    if ldtms:
        start = ldtms[0].addr
        stores = [i.addr for i in insns if i.base in ("STG", "UTMASTG") and i.addr > start]
        last_store = max(stores) if stores else insns[-1].addr
        sub = smallest_loop_with(insns, spans, lambda i: i.addr == start)
        trips = 1
        if sub is None:
            end = last_store
        else:
            cols = sum(ldtm_cols(i) for i in in_span(insns, sub) if i.base == "LDTM")
            trips = max(1, acc_cols // cols)
            outer = [s for s in spans if s[0] <= sub[0] and s[1] >= sub[1] and s != sub]
            end = outer[0][1] if outer else max(last_store, sub[1])
        region = [i for i in insns if start <= i.addr <= end]
        for i in region:
            f.epi[i.cls] += 1
        extra = in_span(insns, sub) if sub is not None else []
        for i in extra:
            f.epi[i.cls] += trips - 1
        f.rows["epilogue: static instrs"] = len(region)
        f.rows["epilogue: LDTM sub-tile loop trips"] = trips if sub is not None else "no loop"
        f.rows["epilogue instrs per output tile"] = len(region) + len(extra) * (trips - 1)
        f.rows["  per accumulator column"] = (len(region) + len(extra) * (trips - 1)) / acc_cols
    return f


# --- tools ------------------------------------------------------------------

def run(cmd, env=None, cwd=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=cwd)
    return p.returncode, p.stdout


def find_tool(name, explicit, candidates):
    if explicit:
        return explicit
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return shutil.which(name)


def ptxas_info(text):
    """{function: {registers, spill_stores, spill_loads, stack}} from ptxas -v."""
    info, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line) or re.search(r"Function properties for (\S+)", line)
        if m:
            cur = info.setdefault(m.group(1), {})
            continue
        if cur is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            cur["stack"], cur["spill_stores"], cur["spill_loads"] = (int(x) for x in m.groups())
        m = re.search(r"Used (\d+) registers", line)
        if m:
            cur["registers"] = int(m.group(1))
    return info


def res_usage_regs(cuobjdump, cubin):
    rc, out = run([cuobjdump, "-res-usage", cubin])
    regs = {}
    cur = None
    for line in out.splitlines():
        m = re.match(r"\s*Function (\S+):", line)
        if m:
            cur = m.group(1)
        m = re.search(r"REG:(\d+)", line)
        if m and cur:
            regs[cur] = int(m.group(1))
    return regs


class Built:
    """A compiled side of a pair: functions' SASS and ptxas info, or why not."""

    def __init__(self, error=None):
        self.error = error
        self.funcs = {}
        self.info = {}
        self.own = None   # (registers, total instrs) of the peer's own cubin
        self.nvvm = None


def assemble(ptxas, cuobjdump, ptx, cubin):
    b = Built()
    rc, out = run([ptxas, "-v", "-arch=sm_100a", ptx, "-o", cubin])
    if rc != 0:
        return Built("ptxas failed: " + out.strip().splitlines()[-1] if out.strip() else "ptxas failed")
    b.info = ptxas_info(out)
    rc, sass = run([cuobjdump, "-sass", cubin])
    if rc != 0:
        return Built("cuobjdump failed: " + sass.strip()[:200])
    b.funcs = parse_sass(sass)
    return b


def build_cutec(args, example, work):
    src = os.path.join(REPO, "examples", example)
    if not os.path.isfile(src):
        return Built("not present (examples/%s)" % example)
    stem = os.path.join(work, "cutec_" + example.replace(".cute", ""))
    rc, out = run([args.cutec, src, "--arch=sm_100a", "-o", stem + ".ptx"])
    if rc != 0:
        return Built("cutec failed: " + " | ".join(out.strip().splitlines()[:3]))
    return assemble(args.ptxas, args.cuobjdump, stem + ".ptx", stem + ".cubin")


def build_peer(args, peer, work):
    out_dir = os.path.join(work, "peer_" + peer)
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    env = dict(os.environ, CUTE_DSL_ARCH="sm_100a", CUTE_DSL_KEEP="ptx,cubin", CUTE_DSL_DUMP_DIR=out_dir)
    rc, out = run([sys.executable, os.path.join(HERE, "sass_compare_peers.py"), peer,
                   "--examples", args.cutlass_examples, "--out", out_dir], env=env)
    ptxs = sorted(glob.glob(os.path.join(out_dir, "*.ptx")))
    if rc != 0 or not ptxs:
        tail = [l for l in out.strip().splitlines() if l.strip()][-3:]
        return Built("CuTe DSL compile failed: " + " | ".join(tail))
    b = assemble(args.ptxas, args.cuobjdump, ptxs[0], os.path.join(out_dir, "reassembled.cubin"))
    if b.error:
        return b
    with open(ptxs[0]) as fh:
        head = fh.read(400)
    m = re.search(r"Cuda compilation tools, release ([\d.]+), (V[\d.]+)", head)
    b.nvvm = "%s %s" % m.groups() if m else "unknown"
    own = sorted(glob.glob(os.path.join(out_dir, "*.sm_100a.cubin")) + glob.glob(os.path.join(out_dir, "*_sm_100a.cubin")))
    own = [c for c in own if not c.endswith("reassembled.cubin")]
    if own:
        rc, sass = run([args.cuobjdump, "-sass", own[0]])
        funcs = parse_sass(sass) if rc == 0 else {}
        regs = res_usage_regs(args.cuobjdump, own[0])
        if funcs:
            name = pick_peer_function(funcs)
            b.own = (regs.get(name, "?"), len(strip_padding(funcs[name])[0]))
    return b


def pick_peer_function(funcs):
    names = sorted(funcs)
    kernels = [n for n in names if "kernel" in n] or names
    return kernels[0]


def pick_cutec_function(funcs, selector):
    names = sorted(funcs)
    if isinstance(selector, str):
        return selector if selector in funcs else None
    want_2cta = selector[0] == "2cta"
    hits = [n for n in names if ("2cta" in n) == want_2cta]
    return hits[0] if hits else None


# --- output -----------------------------------------------------------------

def fmt(v):
    if isinstance(v, float):
        return "%.2f" % v
    return str(v)


def ratio(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and b:
        return "%.2fx" % (a / b)
    return ""


def short(name, n=60):
    return name if len(name) <= n else name[:n - 3] + "..."


def print_pair(title, note, cname, cfig, cerr, pname, pfig, perr, peer_built):
    print("=" * 100)
    print(title)
    print("  cutec : %s" % (cname if cname else cerr))
    print("  peer  : %s" % (short(pname, 90) if pname else perr))
    if note:
        print("  note  : %s" % note)
    if peer_built is not None and peer_built.own:
        print("  peer as CuTe DSL itself assembled it (NVVM/ptxas %s): %s registers, %s instructions"
              % (peer_built.nvvm, peer_built.own[0], peer_built.own[1]))
    print()
    cols = ("cutec", "CuTe DSL", "cutec/DSL")
    rows = []
    for f in (cfig, pfig):
        if f:
            for r in f.rows:
                if r not in rows:
                    rows.append(r)
    w = max([len(r) for r in rows] + [36])
    print("  %-*s %12s %12s %10s" % (w, "figure", *cols))
    print("  %s %s %s %s" % ("-" * w, "-" * 12, "-" * 12, "-" * 10))
    for r in rows:
        a = cfig.rows.get(r, "") if cfig else "-"
        b = pfig.rows.get(r, "") if pfig else "-"
        print("  %-*s %12s %12s %10s" % (w, r, fmt(a), fmt(b), ratio(a, b)))
    print()
    print("  %-28s %8s %8s   %8s %8s   %8s %8s" % ("instruction class", "kernel", "", "loop", "", "epi/tile", ""))
    print("  %-28s %8s %8s   %8s %8s   %8s %8s" % ("", "cutec", "DSL", "cutec", "DSL", "cutec", "DSL"))
    print("  %s" % ("-" * 84))
    for c in CLASS_NAMES:
        vals = []
        for part in ("kernel", "loop", "epi"):
            for f in (cfig, pfig):
                vals.append(getattr(f, part)[c] if f else "-")
        if all(v in (0, "-") for v in vals):
            continue
        print("  %-28s %8s %8s   %8s %8s   %8s %8s" % (c, *vals))
    for side, f in (("cutec", cfig), ("CuTe DSL", pfig)):
        if f and f.other_ops:
            print("  (%s 'other' opcodes: %s)" % (side, ", ".join("%s %d" % kv for kv in sorted(f.other_ops.items()))))
        if f:
            for n in f.notes:
                print("  (%s: %s)" % (side, n))
    print()


def tool_version(path, flag="--version"):
    rc, out = run([path, flag])
    lines = [l for l in out.strip().splitlines() if l.strip()]
    return lines[-1] if lines else "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cutec", default=os.environ.get("CUTEC", os.path.join(REPO, "build", "bin", "cutec")))
    ap.add_argument("--cutlass-examples", default=os.environ.get(
        "CUTLASS_DSL_EXAMPLES", "/work/cutlass-src/examples/python/CuTeDSL"),
        help="a CUTLASS checkout's examples/python/CuTeDSL")
    ap.add_argument("--ptxas", default=None)
    ap.add_argument("--cuobjdump", default=None)
    ap.add_argument("--work", default="/tmp/cutec-sass-compare", help="where PTX, cubins and SASS are kept")
    ap.add_argument("--only", action="append", help="pair key to run (repeatable): " + ", ".join(p[0] for p in PAIRS))
    args = ap.parse_args()

    args.ptxas = find_tool("ptxas", args.ptxas, ["/usr/local/cuda/bin/ptxas"])
    venv_cuobjdump = sorted(glob.glob(os.path.join(sys.prefix, "lib", "python*", "site-packages", "nvidia", "*", "bin", "cuobjdump")))
    args.cuobjdump = find_tool("cuobjdump", args.cuobjdump, ["/usr/local/cuda/bin/cuobjdump"] + venv_cuobjdump)
    for tool, path in (("cutec", args.cutec), ("ptxas", args.ptxas), ("cuobjdump", args.cuobjdump)):
        if not path or not os.path.isfile(path):
            sys.exit("sass_compare: %s not found (%s)" % (tool, path))
    if not os.path.isdir(args.cutlass_examples):
        sys.exit("sass_compare: no CUTLASS examples at %s (see the header of %s)" % (args.cutlass_examples, __file__))
    os.makedirs(args.work, exist_ok=True)

    try:
        from importlib.metadata import version
        dsl_version = version("nvidia-cutlass-dsl")
    except Exception:
        dsl_version = "unknown"
    commit_file = os.path.join(args.cutlass_examples, "..", "..", "..", "COMMIT")
    cutlass_commit = open(commit_file).read().strip()[:12] if os.path.isfile(commit_file) else "unknown"
    rc, head = run(["git", "-C", REPO, "rev-parse", "--short=12", "HEAD"])
    print("cutec SASS vs CuTe DSL SASS (sm_100a, static counts)")
    print("  cutec repo commit     : %s (examples/), binary %s" % (head.strip() if rc == 0 else "unknown",
                                                                    os.path.relpath(args.cutec, REPO) if args.cutec.startswith(REPO) else args.cutec))
    print("  nvidia-cutlass-dsl    : %s; CUTLASS examples commit %s" % (dsl_version, cutlass_commit))
    print("  ptxas (both sides)    : %s" % tool_version(args.ptxas))
    print("  cuobjdump             : %s" % tool_version(args.cuobjdump))
    print("  outputs kept in       : %s" % args.work)
    print()

    cutec_cache, peer_cache = {}, {}
    for key, title, example, selector, peer, note in PAIRS:
        if args.only and key not in args.only:
            continue
        if example not in cutec_cache:
            cutec_cache[example] = build_cutec(args, example, args.work)
        if peer not in peer_cache:
            peer_cache[peer] = build_peer(args, peer, args.work)
        cb, pb = cutec_cache[example], peer_cache[peer]

        cname = cfig = None
        cerr = cb.error
        if not cerr:
            cname = pick_cutec_function(cb.funcs, selector)
            if cname is None:
                cerr = "not present (no matching kernel in examples/%s: %s)" % (example, ", ".join(sorted(cb.funcs)))
            else:
                cfig = analyse(cb.funcs[cname], cb.info.get(cname, {}), ELEMS.get(cname), is_gemv=peer == "gemv_seed")
        pname = pfig = None
        perr = pb.error
        if not perr:
            pname = pick_peer_function(pb.funcs)
            pfig = analyse(pb.funcs[pname], pb.info.get(pname, {}), ELEMS.get(peer), is_gemv=peer == "gemv_seed",
                           acc_cols=ACC_COLS_OF.get(peer, ACC_COLS))
        if cname:
            cname = "examples/%s : %s" % (example, cname)
        print_pair("[%s] %s" % (key, title), note, cname, cfig, cerr, pname, pfig, perr, pb if not perr else None)


if __name__ == "__main__":
    main()
