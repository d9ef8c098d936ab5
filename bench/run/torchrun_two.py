# SPDX-License-Identifier: Apache-2.0
# A program `kerntime run` is measured on (bench/scripts/run-measure, docs/run.md); it knows nothing of kerntime.
# Two ranks on one GPU under torchrun: NCCL refuses two ranks on one device, so the collectives
# go through gloo on CPU tensors, and each rank does its matmuls on cuda:0.
#   torchrun --standalone --nproc-per-node 2 torchrun_two.py
import os
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.cuda.set_device(0)
torch.manual_seed(rank)
a = torch.randn(512, 512, device="cuda")
for _ in range(20):
    a = torch.tanh(a @ a / 64)
    total = a.sum().cpu()
    dist.all_reduce(total)  # the ranks agree on a number each step
torch.cuda.synchronize()
print(f"rank {rank} (LOCAL_RANK {os.environ.get('LOCAL_RANK')}) done: {total.item():.3f}")
dist.destroy_process_group()
