"""Two cutec kernels inside one torch.compile(fullgraph=True) function, then
the same function captured in a CUDA graph and replayed. Needs an sm_90 GPU.

    PYTHONPATH=build/python python3 examples/python/custom_op.py

as_torch_op registers a kernel as a torch.library custom op whose tensors
named in mutates_args are written in place; torch.compile traces it without
running it, and a CUDA graph captures its launch on the current stream.
"""

import os

import torch

import cutec

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

vector_add = cutec.compile(os.path.join(EXAMPLES, "vector_add.cute")).as_torch_op(
    "cutec_examples::vector_add", mutates_args=("mC",))
row_softmax = cutec.compile(os.path.join(EXAMPLES, "softmax.cute")).as_torch_op(
    "cutec_examples::softmax", mutates_args=("mY",))


def residual_softmax(x, residual):
    """softmax(x + residual) over rows, scaled by 2."""
    summed = torch.empty_like(x)
    vector_add(x.view(-1), residual.view(-1), summed.view(-1))
    out = torch.empty_like(summed)
    row_softmax(summed, out)
    return out * 2


def main():
    x = torch.randn(256, 1024, device="cuda")
    r = torch.randn(256, 1024, device="cuda")
    want = torch.softmax(x + r, dim=-1) * 2

    compiled = torch.compile(residual_softmax, fullgraph=True)
    print("torch.compile(fullgraph=True):",
          "right" if torch.allclose(compiled(x, r), want, rtol=1e-5, atol=1e-7) else "WRONG")

    static_x, static_r = x.clone(), r.clone()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        residual_softmax(static_x, static_r)  # load the kernels before capturing
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_out = residual_softmax(static_x, static_r)
    static_x.copy_(torch.randn_like(x))
    graph.replay()
    torch.cuda.synchronize()
    want = torch.softmax(static_x + static_r, dim=-1) * 2
    print("CUDA graph replay on new inputs:",
          "right" if torch.allclose(static_out, want, rtol=1e-5, atol=1e-7) else "WRONG")


if __name__ == "__main__":
    main()
