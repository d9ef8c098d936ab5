# SPDX-License-Identifier: Apache-2.0
"""torchvision ResNet-50 training, random weights and data: AMP (fp16 autocast and a gradient
scaler), channels_last, SGD with momentum, batch 32 of 224 x 224, an NVTX range per step.
    resnet50.py STEPS"""
import sys

from _steps import need, need_torch_cuda, result, time_steps

steps = int(sys.argv[1])
torch = need_torch_cuda()
torchvision = need("torchvision")
torch.manual_seed(0)
model = torchvision.models.resnet50(weights=None).cuda().to(memory_format=torch.channels_last)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scaler = torch.amp.GradScaler("cuda")
images = torch.randn(32, 3, 224, 224, device="cuda").to(memory_format=torch.channels_last)
labels = torch.randint(0, 1000, (32,), device="cuda")
loss_fn = torch.nn.CrossEntropyLoss()


def step():
    with torch.cuda.nvtx.range("step"):
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.float16):
            loss = loss_fn(model(images), labels)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()


result("resnet50-amp", time_steps(step, steps, warmup=3, synchronize=torch.cuda.synchronize))
