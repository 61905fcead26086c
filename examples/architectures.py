"""Real architectures mlc's zoo does not hold, at small sizes with random weights: the
model-level conformance test-bed (test/pytest/test_architectures.py). Each factory
returns (model, example inputs); torchvision and transformers build them offline.

    vision: regnet_y_400mf, swin_t, r3d_18 (conv3d), squeezenet1_1, shufflenet_v2_x0_5,
            efficientnet_b0, convnext_tiny, densenet121, mnasnet0_5, a small U-Net
    audio / text: wav2vec2 (conv1d, weight-normed positional conv), BLOOM (softmax with a
            dtype, alibi), T5 (encoder-decoder), DistilBERT, GPT-Neo
"""

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import zoo  # noqa: E402,F401


def _randomize_batch_norm(model: torch.nn.Module) -> None:
    """BatchNorm's initial statistics are the identity; random ones make folding them
    matter, and keep activations from vanishing (EfficientNet's output is 1e-14 without)."""
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, (torch.nn.BatchNorm2d, torch.nn.BatchNorm3d)):
                module.running_mean.uniform_(-0.5, 0.5)
                module.running_var.uniform_(0.5, 1.5)
                module.weight.uniform_(0.5, 1.5)
                module.bias.uniform_(-0.5, 0.5)


def _vision(name, size=64, **kwargs):
    def build():
        import torchvision

        torch.manual_seed(0)
        model = getattr(torchvision.models, name)(**kwargs).eval()
        _randomize_batch_norm(model)
        return model, (torch.randn(1, 3, size, size),)

    return build


def _video():
    import torchvision

    torch.manual_seed(0)
    model = torchvision.models.video.r3d_18().eval()
    _randomize_batch_norm(model)
    return model, (torch.randn(1, 3, 4, 32, 32),)


def _unet():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" / "inputs"))
    from small_unet import SmallUNet

    return SmallUNet().eval(), (torch.randn(1, 3, 32, 32),)


def _transformers(config_name, model_name, inputs, **config):
    def build():
        import transformers

        torch.manual_seed(0)
        model = getattr(transformers, model_name)(getattr(transformers, config_name)(**config)).eval()
        return model, inputs()

    return build


def _tokens(length=16, vocab=100):
    return lambda: (torch.randint(0, vocab, (1, length), generator=torch.Generator().manual_seed(0)),)


SMALL_TEXT = dict(vocab_size=100, use_cache=False, bos_token_id=0, eos_token_id=0)
FACTORIES = {
    "regnet_y_400mf": _vision("regnet_y_400mf", 224),
    "swin_t": _vision("swin_t", 224),
    "r3d_18": _video,
    "squeezenet1_1": _vision("squeezenet1_1"),
    "shufflenet_v2_x0_5": _vision("shufflenet_v2_x0_5"),
    "efficientnet_b0": _vision("efficientnet_b0"),
    "convnext_tiny": _vision("convnext_tiny"),
    "densenet121": _vision("densenet121"),
    "mnasnet0_5": _vision("mnasnet0_5"),
    "small_unet": _unet,
    "wav2vec2": _transformers(
        "Wav2Vec2Config", "Wav2Vec2Model", lambda: (torch.randn(1, 4000, generator=torch.Generator().manual_seed(0)),),
        hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128, conv_dim=(32, 32),
        conv_stride=(5, 2), conv_kernel=(10, 3), num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4),
    "bloom": _transformers("BloomConfig", "BloomModel", _tokens(), hidden_size=64, n_layer=2, n_head=4, **SMALL_TEXT),
    "t5": _transformers("T5Config", "T5EncoderModel", _tokens(), d_model=64, d_kv=16, d_ff=128, num_layers=2,
                        num_heads=4, **SMALL_TEXT),
    "distilbert": _transformers("DistilBertConfig", "DistilBertModel", _tokens(), dim=64, hidden_dim=128, n_layers=2,
                                n_heads=4, **SMALL_TEXT),
    "gpt_neo": _transformers("GPTNeoConfig", "GPTNeoModel", _tokens(), hidden_size=64, num_layers=2, num_heads=4,
                             attention_types=[[["global", "local"], 1]], window_size=8, max_position_embeddings=64,
                             **SMALL_TEXT),
}


def first_tensor(output):
    """The main result of a model's output (a tensor, a tuple, or a transformers ModelOutput)."""
    if isinstance(output, torch.Tensor):
        return output
    if hasattr(output, "last_hidden_state"):
        return output.last_hidden_state
    return output[0]
