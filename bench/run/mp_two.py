# SPDX-License-Identifier: Apache-2.0
# A program `kerntime run` is measured on (bench/scripts/run-measure, docs/run.md); it knows nothing of kerntime.
# Two worker processes on one GPU (torch.multiprocessing, spawn), each a few matmuls.
import torch, torch.multiprocessing as mp
def work(rank):
    a = torch.randn(256, 256, device="cuda")
    for _ in range(50):
        a = a @ a / 16
    torch.cuda.synchronize()
if __name__ == "__main__":
    mp.start_processes(work, nprocs=2, start_method="spawn")
