"""FlashAttention's forward pass (examples/flash_attention_hopper.cute) on
PyTorch tensors: checked against torch.nn.functional.scaled_dot_product_attention
and timed next to it with each of its backends (flash, cuDNN, efficient).
Needs an sm_90 GPU (H100/H200).

    PYTHONPATH=build/python python3 examples/python/attention_torch.py [SEQ ...]

Q, K, V and O are f16 (batch, heads, seq, d) contiguous tensors, as SDPA
takes them; the kernels read them through views of that memory (Q, K and O
as (seq, d, heads, batch), V as (d, seq, heads, batch)) and write the
log-sum-exp of each row, f32 (batch, heads, seq). Each shape has 16 heads
and 16k tokens per launch (batch = 16384 / seq), enough CTAs to fill the
GPU.
"""

import math
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import cutec
from timing import cuda_seconds

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "flash_attention_hopper.cute")
BACKENDS = (("flash", SDPBackend.FLASH_ATTENTION), ("cuDNN", SDPBackend.CUDNN_ATTENTION),
            ("efficient", SDPBackend.EFFICIENT_ATTENTION))
HEADS = 16
TOKENS = 16384


class FlashAttention:
    """The four kernels of the example, called as SDPA is."""

    def __init__(self):
        self.kernels = {}
        for d in (64, 128):
            for causal in (False, True):
                name = f"flash_attention_d{d}" + ("_causal" if causal else "")
                self.kernels[d, causal] = cutec.compile(SOURCE, kernel=name, arch="sm_90a")

    def __call__(self, q, k, v, o, lse, causal, scale):
        rows = (2, 3, 1, 0)  # (batch, heads, seq, d) -> (seq, d, heads, batch)
        self.kernels[q.shape[-1], causal](q.permute(rows), k.permute(rows), v.permute(3, 2, 1, 0),
                                          o.permute(rows), lse.permute(2, 1, 0), scale)


def reference_lse(q, k, causal, scale):
    s = (q.float() @ k.float().transpose(-1, -2)) * scale
    if causal:
        seq = q.shape[2]
        s.masked_fill_(torch.ones(seq, seq, dtype=torch.bool, device=q.device).triu(1), -math.inf)
    return torch.logsumexp(s, dim=-1)


def check(attention, batch, heads, seq, d, causal):
    """Errors against SDPA computed in f32 from the same f16 inputs."""
    q, k, v = (torch.randn(batch, heads, seq, d, device="cuda", dtype=torch.float16)
               for _ in range(3))
    o = torch.empty_like(q)
    lse = torch.empty(batch, heads, seq, device="cuda", dtype=torch.float32)
    scale = d ** -0.5
    attention(q, k, v, o, lse, causal, scale)
    want = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), is_causal=causal,
                                          scale=scale)
    o_error = (o.float() - want).abs().max().item()
    lse_error = (lse - reference_lse(q, k, causal, scale)).abs().max().item()
    return o_error, lse_error


def time_shape(attention, seq, d, causal):
    batch = max(1, TOKENS // seq)
    q, k, v = (torch.randn(batch, HEADS, seq, d, device="cuda", dtype=torch.float16)
               for _ in range(3))
    o = torch.empty_like(q)
    lse = torch.empty(batch, HEADS, seq, device="cuda", dtype=torch.float32)
    scale = d ** -0.5
    flops = 4 * batch * HEADS * seq * seq * d / (2 if causal else 1)
    attention(q, k, v, o, lse, causal, scale)
    want = F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
    error = (o.float() - want.float()).abs().max().item()
    ours = flops / cuda_seconds(lambda: attention(q, k, v, o, lse, causal, scale), repeats=20) / 1e12
    peers = []
    for name, backend in BACKENDS:
        try:
            with sdpa_kernel(backend):
                seconds = cuda_seconds(lambda: F.scaled_dot_product_attention(
                    q, k, v, is_causal=causal, scale=scale), repeats=20)
            peers.append(f"{name} {flops / seconds / 1e12:4.0f}")
        except RuntimeError:
            peers.append(f"{name}    -")
    mask = "causal" if causal else "full  "
    print(f"b{batch:<3d} h{HEADS} seq {seq:5d} d {d:3d} {mask}: cutec {ours:4.0f} TFLOP/s | SDPA "
          + ", ".join(peers) + f" | max |O - SDPA| {error:.1e}", flush=True)


def main(seqs):
    attention = FlashAttention()
    torch.manual_seed(0)
    print("errors against SDPA in f32 (O) and logsumexp in f32 (LSE), batch 2, 3 heads:")
    for seq in (100, 192, 1000):
        for d in (64, 128):
            for causal in (False, True):
                o_error, lse_error = check(attention, 2, 3, seq, d, causal)
                ok = o_error < 4e-3 and lse_error < 1e-4
                print(f"  seq {seq:4d} d {d:3d} {'causal' if causal else 'full  '}: "
                      f"O {o_error:.1e}, LSE {lse_error:.1e} {'ok' if ok else 'FAILED'}")
    print(f"TFLOP/s ({torch.cuda.get_device_name()}, PyTorch {torch.__version__}):")
    for seq in seqs:
        for d in (64, 128):
            for causal in (False, True):
                time_shape(attention, seq, d, causal)


if __name__ == "__main__":
    main([int(s) for s in sys.argv[1:]] or [1024, 4096, 16384])
