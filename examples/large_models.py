"""Full-size models for benchmarks, defined here (no torchvision or transformers).

    resnet18  ResNet-18 as torchvision builds it (BasicBlock, layers [2, 2, 2, 2]),
              input 1x3x224x224 float32
    bert      a BERT-base-shaped encoder (hidden 768, 12 heads, FFN 3072, GELU,
              post-LayerNorm) with 2 layers instead of 12, input 1x128 token ids (int64)

Each factory returns a model in eval mode with seeded random weights, and
BatchNorm running statistics are randomized so that folding them is exercised.
`EXAMPLE_INPUTS` gives input shapes as in examples/models.py, `INPUT_DTYPES`
the dtypes where they are not float32, and `example_inputs(name)` seeded tensors.
"""

import torch
from torch import nn
from torch.nn import functional as F

from models import seeded

# ResNet-18 ---------------------------------------------------------------------------------------

class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, cin, cout, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + identity)


class ResNet18(nn.Module):
    def __init__(self, classes=1000, layers=(2, 2, 2, 2)):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        widths, cin, stages = (64, 128, 256, 512), 64, []
        for index, (width, blocks) in enumerate(zip(widths, layers)):
            stride = 1 if index == 0 else 2
            stage = [BasicBlock(cin, width, stride)] + [BasicBlock(width, width) for _ in range(blocks - 1)]
            stages.append(nn.Sequential(*stage))
            cin = width
        self.layer1, self.layer2, self.layer3, self.layer4 = stages
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512, classes)
        for module in self.modules():  # torchvision's initialization
            if isinstance(module, nn.Conv2d):
                nn.init.kaiming_normal_(module.weight, mode="fan_out", nonlinearity="relu")

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


# BERT --------------------------------------------------------------------------------------------

class BertEmbeddings(nn.Module):
    def __init__(self, vocab, hidden, max_positions, type_vocab, eps):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.position_embeddings = nn.Embedding(max_positions, hidden)
        self.token_type_embeddings = nn.Embedding(type_vocab, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=eps)

    def forward(self, input_ids):
        # Positions 0..seq-1 and token type 0 everywhere (no second segment), as BERT
        # does when given only input_ids; taken as slices of the tables.
        positions = self.position_embeddings.weight[: input_ids.shape[1]]
        token_type = self.token_type_embeddings.weight[0]
        return self.LayerNorm(self.word_embeddings(input_ids) + positions + token_type)


class BertSelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)

    def forward(self, x):
        batch, seq, hidden = x.shape

        def split(t):  # (batch, seq, hidden) -> (batch, heads, seq, head_dim)
            return t.view(batch, seq, self.heads, hidden // self.heads).transpose(1, 2)

        context = F.scaled_dot_product_attention(split(self.query(x)), split(self.key(x)), split(self.value(x)))
        return context.transpose(1, 2).reshape(batch, seq, hidden)


class BertLayer(nn.Module):
    """Post-LayerNorm: x = LN(x + attention(x)); x = LN(x + FFN(x))."""

    def __init__(self, hidden, heads, intermediate, eps):
        super().__init__()
        self.attention = BertSelfAttention(hidden, heads)
        self.attention_output = nn.Linear(hidden, hidden)
        self.attention_norm = nn.LayerNorm(hidden, eps=eps)
        self.intermediate = nn.Linear(hidden, intermediate)
        self.output = nn.Linear(intermediate, hidden)
        self.output_norm = nn.LayerNorm(hidden, eps=eps)

    def forward(self, x):
        x = self.attention_norm(x + self.attention_output(self.attention(x)))
        return self.output_norm(x + self.output(F.gelu(self.intermediate(x))))


class Bert(nn.Module):
    """BERT-base dimensions, `layers` encoder layers; returns the last hidden state (batch, seq, hidden)."""

    def __init__(self, vocab=30522, hidden=768, layers=2, heads=12, intermediate=3072, max_positions=512,
                 type_vocab=2, eps=1e-12):
        super().__init__()
        self.embeddings = BertEmbeddings(vocab, hidden, max_positions, type_vocab, eps)
        self.encoder = nn.ModuleList(BertLayer(hidden, heads, intermediate, eps) for _ in range(layers))
        for module in self.modules():  # BERT's initialization: N(0, 0.02), zero biases
            if isinstance(module, (nn.Linear, nn.Embedding)):
                nn.init.normal_(module.weight, std=0.02)
            if isinstance(module, nn.Linear):
                nn.init.zeros_(module.bias)

    def forward(self, input_ids):
        x = self.embeddings(input_ids)
        for layer in self.encoder:
            x = layer(x)
        return x


# Factories and inputs ----------------------------------------------------------------------------

class BertLayerWide(Bert):
    """One BERT-base-wide layer over a small vocabulary: BERT-base's matmuls, LayerNorms and
    softmaxes at a size a device run can carry (benchmarks/on_device.py, 64 MiB)."""

    def __init__(self):
        super().__init__(vocab=VOCABS["bert_layer"], layers=1)


make_resnet18 = seeded(ResNet18)
make_bert = seeded(Bert)

EXAMPLE_INPUTS = {
    "resnet18": [(1, 3, 224, 224)],
    "bert": [(1, 128)],
    "bert_layer": [(1, 128)],
}
INPUT_DTYPES = {"bert": [torch.int64], "bert_layer": [torch.int64]}
VOCABS = {"bert": 30522, "bert_layer": 1000}
FACTORIES = {"resnet18": make_resnet18, "bert": make_bert, "bert_layer": seeded(BertLayerWide)}


def example_inputs(name: str, seed: int = 0) -> tuple:
    """Seeded example tensors: random token ids for int64 inputs, N(0, 1) otherwise."""
    generator = torch.Generator().manual_seed(seed)
    dtypes = INPUT_DTYPES.get(name, [torch.float32] * len(EXAMPLE_INPUTS[name]))
    return tuple(
        torch.randint(0, VOCABS[name], shape, generator=generator) if dtype == torch.int64
        else torch.randn(shape, generator=generator, dtype=dtype)
        for shape, dtype in zip(EXAMPLE_INPUTS[name], dtypes)
    )
