# SPDX-License-Identifier: Apache-2.0
"""Hugging Face transformers with random weights from a config (no download):
    hf_lm.py gpt2|llama train|generate STEPS
gpt2: GPT2Config() (GPT-2 small, 124M parameters); llama: a Llama-style config with 4 layers,
grouped-query attention and SwiGLU. train: a step of forward, loss, backward and AdamW under
bf16 autocast, batch 8 of 256 tokens, in an NVTX range; generate: greedy generate() of exactly
32 new tokens (bf16 weights) from a batch of 4 prompts of 32 tokens, one call a step."""
import sys

from _steps import need, need_torch_cuda, result, time_steps

model_name, mode, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
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
model = model.cuda()
vocab = config.vocab_size

if mode == "train":
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(0, vocab, (8, 256), device="cuda")

    def step():
        with torch.cuda.nvtx.range("step"):
            optimizer.zero_grad(set_to_none=True)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(input_ids=ids, labels=ids).loss
            loss.backward()
            optimizer.step()

    times = time_steps(step, steps, warmup=3, synchronize=torch.cuda.synchronize)
elif mode == "generate":
    model = model.to(torch.bfloat16).eval()
    ids = torch.randint(0, vocab, (4, 32), device="cuda")
    mask = torch.ones_like(ids)
    pad = config.eos_token_id if config.eos_token_id is not None else 0

    def step():
        with torch.cuda.nvtx.range("generate"), torch.no_grad():
            # min_new_tokens = max_new_tokens: random weights may pick the end token early,
            # and every process must run the same kernels.
            out = model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=32,
                                 min_new_tokens=32, do_sample=False, pad_token_id=pad)
        assert out.shape[1] == 64, out.shape

    times = time_steps(step, steps, warmup=1, synchronize=torch.cuda.synchronize)
else:
    sys.exit(f"hf_lm.py: unknown mode {mode}")
result(f"{model_name}-{mode}", times)
