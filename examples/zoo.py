"""The model zoo: real architectures, built by torchvision and transformers from
their configs with seeded random weights (nothing is downloaded).

    resnet18, resnet50    torchvision, 1x3x224x224
    mobilenet_v3_small    torchvision, 1x3x224x224 (hardswish, squeeze-excite, depthwise convs)
    vit_b_16              torchvision ViT-B/16, 1x3x224x224 (class token, 12 layers of attention)
    bert_base             transformers BertModel(BertConfig()), 1x128 token ids
    gpt2                  transformers GPT2LMHeadModel(GPT2Config()), 1x128 token ids, causal mask

`build(name)` returns (model in eval mode, example inputs). BatchNorm running
statistics are randomized, as trained ones would be, so that folding them is
exercised. `TOLERANCE[name]` is the largest error, relative to the largest
output magnitude, that the zoo tests accept against PyTorch eager (float32).
"""

import torch

VOCAB = {"bert_base": 30522, "gpt2": 50257}
TOLERANCE = {
    "resnet18": 1e-4,
    "resnet50": 1e-4,
    "mobilenet_v3_small": 1e-4,
    "vit_b_16": 1e-4,
    "bert_base": 1e-4,
    "gpt2": 1e-4,
}


def _randomize_batch_norm(model: torch.nn.Module) -> None:
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-0.5, 0.5)
            module.running_var.uniform_(0.5, 1.5)
            module.weight.data.uniform_(0.5, 1.5)
            module.bias.data.uniform_(-0.5, 0.5)


def _vision(name: str):
    import torchvision

    model = getattr(torchvision.models, name)()
    _randomize_batch_norm(model)
    if name.startswith("vit"):  # torchvision zero-initializes ViT's head: the output would be all zeros
        torch.nn.init.normal_(model.heads.head.weight, std=0.02)
    return model, (torch.randn(1, 3, 224, 224),)


def _bert_base():
    import transformers

    return transformers.BertModel(transformers.BertConfig()), (torch.randint(0, VOCAB["bert_base"], (1, 128)),)


def _gpt2():
    import transformers

    config = transformers.GPT2Config(use_cache=False)  # the key/value cache is for generation loops
    return transformers.GPT2LMHeadModel(config), (torch.randint(0, VOCAB["gpt2"], (1, 128)),)


FACTORIES = {
    "resnet18": lambda: _vision("resnet18"),
    "resnet50": lambda: _vision("resnet50"),
    "mobilenet_v3_small": lambda: _vision("mobilenet_v3_small"),
    "vit_b_16": lambda: _vision("vit_b_16"),
    "bert_base": _bert_base,
    "gpt2": _gpt2,
}


def build(name: str, seed: int = 0):
    """(model in eval mode, example inputs), the same for the same seed."""
    torch.manual_seed(seed)
    with torch.no_grad():
        model, inputs = FACTORIES[name]()
    return model.eval(), inputs


def outputs(result) -> list[torch.Tensor]:
    """The tensors of a model's output, whatever structure holds them (tuple, ModelOutput)."""
    return [leaf for leaf in torch.utils._pytree.tree_leaves(result) if isinstance(leaf, torch.Tensor)]


def weight_bytes(model: torch.nn.Module) -> int:
    """Parameters and buffers, the weights a compiled model carries."""
    return sum(t.numel() * t.element_size() for t in [*model.parameters(), *model.buffers()])
