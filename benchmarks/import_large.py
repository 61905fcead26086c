"""How long mlc takes to bring a 100M-parameter model from PyTorch to linalg.

The weights must travel by reference (dense_resource blobs sharing the model's
memory), so this should take seconds, not minutes. Run:
    .venv/bin/python benchmarks/import_large.py
"""

import time

import torch

from mlc import pipelines
from mlc.driver import compilation as driver
from mlc.driver.backends import targets


def main():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(10_000, 5_000), torch.nn.ReLU(), torch.nn.Linear(5_000, 10_000)).eval()
    parameters = sum(p.numel() for p in model.parameters())
    start = time.perf_counter()
    program, module = driver.import_model(model, (torch.randn(4, 10_000),))
    imported = time.perf_counter()
    pipeline = pipelines.get("O2")
    driver.Compilation(module, target=targets.bind("llvm-cpu"), pipeline=pipeline).run("linalg")
    lowered = time.perf_counter()
    print(f"{parameters / 1e6:.1f}M parameters ({parameters * 4 / 2**20:.0f} MiB)")
    print(f"torch.export + import to the torch backend contract: {imported - start:.2f} s")
    print(f"torch -> mlc -> O2 -> linalg: {lowered - imported:.2f} s")


if __name__ == "__main__":
    main()
