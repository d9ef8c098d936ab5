# SPDX-License-Identifier: Apache-2.0
"""Hugging Face transformers with random weights from a config (no download):
    hf_lm.py gpt2|llama TRAIN_STEPS GENERATE_CALLS
gpt2: GPT2Config() (GPT-2 small, 124M parameters); llama: a Llama-style config with 4 layers,
grouped-query attention and SwiGLU. First TRAIN_STEPS training steps (forward, loss, backward
and AdamW under bf16 autocast, batch 8 of 256 tokens, in an NVTX range); then, with the
weights in bf16, GENERATE_CALLS greedy generate() calls of exactly 32 new tokens from 4 prompts
of 32 tokens. The step times are the training steps'; generate_ms_median is the calls'."""
import statistics
import sys

from _steps import need, need_torch_cuda, result, time_steps

model_name, train_steps, generate_calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
torch = need_torch_cuda()
transformers = need("transformers")
torch.manual_seed(0)
if model_name == "gpt2":
    config = transformers.GPT2Config()
    model = transformers.GPT2LMHeadModel(config)
elif model_name == "llama":
    config = transformers.LlamaConfig(
        vocab_size=32000, hidden_size=1024, intermediate_size=2816, num_hidden_layers=4,
        num_attention_heads=16, num_key_value_heads=4, max_position_embeddings=1024)
    model = transformers.LlamaForCausalLM(config)
else:
    sys.exit(f"hf_lm.py: unknown model {model_name}")
model = model.cuda().train()
vocab = config.vocab_size

optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
ids = torch.randint(0, vocab, (8, 256), device="cuda")


def train_step():
    with torch.cuda.nvtx.range("step"):
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        optimizer.step()


train_ms = time_steps(train_step, train_steps, warmup=3, synchronize=torch.cuda.synchronize)

del optimizer
model = model.to(torch.bfloat16).eval()
prompts = torch.randint(0, vocab, (4, 32), device="cuda")
mask = torch.ones_like(prompts)
pad = config.eos_token_id if config.eos_token_id is not None else 0


def generate():
    with torch.cuda.nvtx.range("generate"), torch.no_grad():
        # min_new_tokens = max_new_tokens: random weights may pick the end token early, and
        # every process must run the same kernels.
        out = model.generate(input_ids=prompts, attention_mask=mask, max_new_tokens=32,
                             min_new_tokens=32, do_sample=False, pad_token_id=pad)
    assert out.shape[1] == 64, out.shape


generate_ms = time_steps(generate, generate_calls, warmup=1, synchronize=torch.cuda.synchronize)
result(f"{model_name}", train_ms, generate_ms=[round(t, 4) for t in generate_ms],
       generate_ms_median=statistics.median(generate_ms))
