"""Random PyTorch programs for differential testing against eager (NNSmith-style).

`programs()` is a Hypothesis strategy. Each example is a `Program`: a straight-line
`forward` over a few inputs, drawn op by op from what mlc converts, every op given
operands whose shapes, ranks and broadcasting it accepts. A program is Python source,
so the module that is compiled, the reproducer a failure writes and the file
`mlc-compile` reads are one text. Hypothesis shrinks a failing program by drawing
fewer and simpler ops (the first op of each table is the simplest).

Numerics are kept away from the places where eager and a correct compiler may
disagree: every comparison reads a graph input (a rounding difference upstream
cannot flip it), the ops are continuous, and the steep ones are bounded (`exp`
reads a clamped value, division is by 1 + |x|).
"""

import dataclasses
import math
import re

import torch
from hypothesis import strategies as st

MAX_DIM = 6


@dataclasses.dataclass(frozen=True)
class Value:
    name: str
    shape: tuple[int, ...]
    depth: int = 0  # ops on the longest path from an input
    kind: str = "float"  # "float" or "bool"

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclasses.dataclass
class Program:
    """A module's source, drawn at random, with the seed of its inputs."""

    inputs: list[Value]
    parameters: list[tuple[str, str]]  # attribute name, initializer
    lines: list[tuple[Value, str]]  # value, expression
    outputs: list[Value]
    seed: int

    @property
    def depth(self) -> int:
        return max(value.depth for value in self.outputs)

    @property
    def ops(self) -> list[str]:
        """The op of each line: its function or method (`relu`, `permute`), or its operator."""
        return [_op_name(expression) for _, expression in self.lines]

    def source(self, *, every_value: bool = False) -> str:
        """The module as Python: `Model` and `example_inputs()`. With `every_value`,
        `forward` returns every value it computes (the magnitudes the check scales by)."""
        arguments = ", ".join(value.name for value in self.inputs)
        returned = [value for value, _ in self.lines] + self.inputs if every_value else self.outputs
        lines = [
            "import torch",
            "import torch.nn.functional as F",
            "",
            "",
            "class Model(torch.nn.Module):",
            "    def __init__(self):",
            "        super().__init__()",
            "        torch.manual_seed(0)",
            *(f"        self.{name} = {initializer}" for name, initializer in self.parameters),
            "",
            f"    def forward(self, {arguments}):",
            *(f"        {value.name} = {expression}" for value, expression in self.lines),
            f"        return ({', '.join(value.name for value in returned)},)",
            "",
            "",
            "def example_inputs():",
            f"    generator = torch.Generator().manual_seed({self.seed})",
            "    return (",
            *(f"        torch.randn({value.shape}, generator=generator)," for value in self.inputs),
            "    )",
            "",
        ]
        return "\n".join(lines)

    def instantiate(self, *, every_value: bool = False) -> tuple[torch.nn.Module, tuple]:
        """The module (in eval mode) and its inputs, made by running `source()`."""
        namespace: dict = {}
        exec(compile(self.source(every_value=every_value), "<random program>", "exec"), namespace)
        return namespace["Model"]().eval(), namespace["example_inputs"]()

    def input_shapes(self) -> list[str]:
        """`mlc-compile --input-shape` spellings of the inputs."""
        return ["x".join([*map(str, value.shape), "f32"]) for value in self.inputs]


def _op_name(expression: str) -> str:
    if expression.startswith("(") and expression.endswith(").float()"):
        return "exact"  # integer, bool or narrow-float steps (`exact`)
    if ".unsqueeze(-1)" in expression and ".unsqueeze(-2)" in expression:
        return "outer"  # `outer`: v.unsqueeze(-1) op v.unsqueeze(-2)
    call = re.match(r"(?:torch\.|F\.)?(\w+)\(|\w+\.(\w+)\(|\w+(\[)", expression)
    if call:
        return "slice" if call.group(3) else call.group(1) or call.group(2)
    return expression.split()[1]  # a binary operator: "v0 + x1"


class Builder:
    """The program drawn so far: its values, parameters and lines."""

    def __init__(self, draw):
        self.draw = draw
        self.inputs: list[Value] = []
        self.parameters: list[tuple[str, str]] = []
        self.lines: list[tuple[Value, str]] = []
        self.consumed: set[str] = set()

    def values(self, *, kind: str = "float", min_rank: int = 0, max_rank: int = 8, rank: int | None = None,
               where=None) -> list[Value]:
        everything = self.inputs + [value for value, _ in self.lines]
        return [value for value in everything
                if value.kind == kind and min_rank <= value.rank <= max_rank
                and (rank is None or value.rank == rank) and (where is None or where(value))]

    def pick(self, **filters) -> Value | None:
        """A value that passes `filters`, recent ones likelier (a chain rather than a fan)."""
        candidates = self.values(**filters)
        if not candidates:
            return None
        return candidates[-1 - self.draw(st.integers(0, len(candidates) - 1))]

    def dim(self, low: int = 1, high: int = MAX_DIM) -> int:
        return self.draw(st.integers(low, high))

    def shape(self, min_rank: int = 1, max_rank: int = 4) -> tuple[int, ...]:
        return tuple(self.dim() for _ in range(self.draw(st.integers(min_rank, max_rank))))

    def new_input(self, shape: tuple[int, ...]) -> Value:
        value = Value(f"x{len(self.inputs)}", tuple(shape))
        self.inputs.append(value)
        return value

    def parameter(self, shape: tuple[int, ...], initializer: str = "randn", fan_in: int = 1,
                  buffer: bool = False) -> str:
        """`self.pN`, a parameter (or with `buffer`, a buffer: running statistics) of
        `shape`: "randn" (scaled by 1/sqrt(fan_in)), "ones" (1 + noise, for
        normalization weights) or "positive" (a running variance)."""
        name = f"p{len(self.parameters)}"
        size = tuple(shape)
        tensor = {
            "randn": f"torch.randn({size}) / {math.sqrt(fan_in):.4g}",
            "ones": f"1.0 + 0.1 * torch.randn({size})",
            "positive": f"0.5 + torch.rand({size})",
        }[initializer]
        holder = "torch.nn.Buffer" if buffer else "torch.nn.Parameter"
        self.parameters.append((name, f"{holder}({tensor})"))
        return f"self.{name}"

    def emit(self, expression: str, shape, operands: list[Value], kind: str = "float") -> Value:
        depth = 1 + max((operand.depth for operand in operands), default=0)
        value = Value(f"v{len(self.lines)}", tuple(shape), depth, kind)
        self.consumed.update(operand.name for operand in operands)
        self.lines.append((value, expression))
        return value


# ---- the ops: each takes the builder and emits one value, or returns None where the
# program has no operand it accepts (the builder then draws an elementwise op).

UNARY = [
    "torch.relu({})", "torch.tanh({})", "torch.sigmoid({})", "F.gelu({})", "F.gelu({}, approximate='tanh')",
    "F.silu({})", "torch.neg({})", "torch.abs({})", "torch.sin({})", "torch.cos({})",
    "torch.exp(torch.clamp({}, max=2.0))", "torch.log1p(torch.abs({}))", "F.elu({})", "F.leaky_relu({}, 0.1)",
    "F.hardswish({})", "F.hardtanh({})", "F.softplus({})", "F.mish({})", "torch.erf({})",
    "torch.reciprocal(1.0 + torch.abs({}))", "torch.clamp({}, -1.0, 1.5)",
]
BINARY = ["{} + {}", "{} - {}", "{} * {}", "torch.maximum({}, {})", "torch.minimum({}, {})",
          "{} / (1.0 + torch.abs({}))"]
REDUCTIONS = ["torch.sum", "torch.mean", "torch.amax", "torch.amin", "torch.logsumexp", "torch.var", "torch.std"]


def unary(b: Builder) -> Value:
    operand = b.pick()
    template = b.draw(st.sampled_from(UNARY))
    return b.emit(template.format(operand.name), operand.shape, [operand])


def broadcast_shape(b: Builder, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that broadcasts to `shape`: some sizes 1, maybe fewer leading dims."""
    dropped = b.draw(st.integers(0, len(shape)))
    return tuple(1 if b.draw(st.booleans()) else size for size in shape[dropped:])


def binary(b: Builder) -> Value:
    left = b.pick()
    template = b.draw(st.sampled_from(BINARY))
    source = b.draw(st.sampled_from(["value", "input", "scalar"]))
    if source == "scalar":
        constant = b.draw(st.sampled_from([0.5, -1.5, 2.0, 3.0]))
        template = {"torch.maximum({}, {})": "torch.clamp({}, min={})",
                    "torch.minimum({}, {})": "torch.clamp({}, max={})",
                    "{} / (1.0 + torch.abs({}))": "{} / {}"}.get(template, template)
        return b.emit(template.format(left.name, constant), left.shape, [left])
    fits = [value for value in b.values() if _broadcasts(value.shape, left.shape)]
    right = fits[-1 - b.draw(st.integers(0, len(fits) - 1))] if source == "value" else None
    right = right or b.new_input(broadcast_shape(b, left.shape))
    operands = [right, left] if b.draw(st.booleans()) else [left, right]
    return b.emit(template.format(*(value.name for value in operands)), left.shape, operands)


def _broadcasts(shape: tuple[int, ...], to: tuple[int, ...]) -> bool:
    try:
        return torch.broadcast_shapes(shape, to) == torch.Size(to)
    except RuntimeError:
        return False


def reduction(b: Builder) -> Value | None:
    operand = b.pick(min_rank=1)
    if operand is None:
        return None
    function = b.draw(st.sampled_from(REDUCTIONS))
    dims = sorted(b.draw(st.sets(st.integers(0, operand.rank - 1), min_size=1, max_size=operand.rank)))
    keepdim = b.draw(st.booleans())
    shape = tuple(1 if axis in dims else size for axis, size in enumerate(operand.shape) if keepdim or axis not in dims)
    extra = ""
    if function in ("torch.var", "torch.std"):
        reduced = math.prod(operand.shape[axis] for axis in dims)
        extra = f", correction={1 if reduced > 1 else 0}"
    if function in ("torch.amax", "torch.amin", "torch.logsumexp") or b.draw(st.booleans()):
        dim_text = f"dim={tuple(dims)}"
    else:
        dim_text = f"dim={dims[0]}" if len(dims) == 1 else f"dim={tuple(dims)}"
    return b.emit(f"{function}({operand.name}, {dim_text}, keepdim={keepdim}{extra})", shape, [operand])


def outer(b: Builder) -> Value | None:
    """A binary op of a value's rows and columns, v[..., :, None] op v[..., None, :]: one
    value read through two maps (pairwise distances; IREE computed it wrong after a
    reduction, passes/guard_reduction_rereads.py)."""
    operand = b.pick(min_rank=1, max_rank=3)
    if operand is None:
        return None
    template = b.draw(st.sampled_from(BINARY))
    expression = template.format(f"{operand.name}.unsqueeze(-1)", f"{operand.name}.unsqueeze(-2)")
    return b.emit(expression, (*operand.shape, operand.shape[-1]), [operand])


def softmax(b: Builder) -> Value | None:
    operand = b.pick(min_rank=1)
    if operand is None:
        return None
    function = b.draw(st.sampled_from(["F.softmax", "F.log_softmax"]))
    dim = b.draw(st.integers(-operand.rank, operand.rank - 1))
    return b.emit(f"{function}({operand.name}, dim={dim})", operand.shape, [operand])


def normalization(b: Builder) -> Value | None:
    kind = b.draw(st.sampled_from(["layer_norm", "batch_norm", "group_norm"]))
    if kind == "layer_norm":
        operand = b.pick(min_rank=1)
        if operand is None:
            return None
        size = operand.shape[-1]
        weight, bias = b.parameter((size,), "ones"), b.parameter((size,))
        return b.emit(f"F.layer_norm({operand.name}, ({size},), {weight}, {bias})", operand.shape, [operand])
    operand = b.pick(min_rank=2, max_rank=4)
    if operand is None:
        return None
    channels = operand.shape[1]
    weight, bias = b.parameter((channels,), "ones"), b.parameter((channels,))
    if kind == "batch_norm":
        mean, variance = b.parameter((channels,), buffer=True), b.parameter((channels,), "positive", buffer=True)
        expression = f"F.batch_norm({operand.name}, {mean}, {variance}, {weight}, {bias}, training=False)"
        return b.emit(expression, operand.shape, [operand])
    spatial = math.prod(operand.shape[2:])
    fits = [g for g in range(1, channels + 1) if channels % g == 0 and channels // g * spatial > 1]
    if not fits:  # eager refuses groups of one value
        return None
    groups = b.draw(st.sampled_from(fits))
    return b.emit(f"F.group_norm({operand.name}, {groups}, {weight}, {bias})", operand.shape, [operand])


def linear(b: Builder) -> Value | None:
    operand = b.pick(min_rank=1)
    if operand is None:
        return None
    inner, outer = operand.shape[-1], b.dim(1, 8)
    weight = b.parameter((outer, inner), fan_in=inner)
    bias = b.parameter((outer,)) if b.draw(st.booleans()) else "None"
    return b.emit(f"F.linear({operand.name}, {weight}, {bias})", operand.shape[:-1] + (outer,), [operand])


def matmul(b: Builder) -> Value | None:
    left = b.pick(min_rank=2)
    if left is None:
        return None
    form = b.draw(st.sampled_from(["weight", "transposed", "vector"]))
    inner = left.shape[-1]
    if form == "weight":
        columns = b.dim(1, 8)
        weight = b.parameter((inner, columns), fan_in=inner)
        return b.emit(f"torch.matmul({left.name}, {weight})", left.shape[:-1] + (columns,), [left])
    if form == "vector":
        vector = b.new_input((inner,))
        return b.emit(f"torch.matmul({left.name}, {vector.name})", left.shape[:-1], [left, vector])
    right = b.pick(where=lambda value: value.shape == left.shape)
    expression = f"torch.matmul({left.name}, {right.name}.transpose(-1, -2))"
    return b.emit(expression, left.shape[:-1] + (left.shape[-2],), [left, right])


def convolution(b: Builder) -> Value | None:
    operand = b.pick(min_rank=3, max_rank=4)
    if operand is None:
        return None
    spatial = operand.shape[2:]
    kernel = b.draw(st.integers(1, min(3, *(size + 2 for size in spatial))))
    padding = b.draw(st.integers(0, kernel // 2))
    if any(size + 2 * padding < kernel for size in spatial):
        padding = kernel // 2
        if any(size + 2 * padding < kernel for size in spatial):
            return None
    stride = b.draw(st.integers(1, 2))
    channels = operand.shape[1]
    depthwise = b.draw(st.booleans())
    groups = channels if depthwise else 1
    out_channels = channels * b.draw(st.integers(1, 2)) if depthwise else b.dim(1, 8)
    weight = b.parameter((out_channels, channels // groups) + (kernel,) * len(spatial),
                         fan_in=channels // groups * kernel ** len(spatial))
    bias = b.parameter((out_channels,)) if b.draw(st.booleans()) else "None"
    function = "F.conv2d" if len(spatial) == 2 else "F.conv1d"
    out = tuple((size + 2 * padding - kernel) // stride + 1 for size in spatial)
    expression = f"{function}({operand.name}, {weight}, {bias}, stride={stride}, padding={padding}, groups={groups})"
    return b.emit(expression, (operand.shape[0], out_channels) + out, [operand])


def pooling(b: Builder) -> Value | None:
    operand = b.pick(min_rank=3, max_rank=4)
    if operand is None:
        return None
    spatial = operand.shape[2:]
    dims = len(spatial)
    kind = b.draw(st.sampled_from(["max", "avg", "adaptive"]))
    if kind == "adaptive":
        out = tuple(b.draw(st.integers(1, size)) for size in spatial)
        return b.emit(f"F.adaptive_avg_pool{dims}d({operand.name}, {out})", operand.shape[:2] + out, [operand])
    kernel = b.draw(st.integers(1, min(3, *spatial)))
    stride = b.draw(st.integers(1, kernel))
    padding = b.draw(st.integers(0, kernel // 2))
    out = tuple((size + 2 * padding - kernel) // stride + 1 for size in spatial)
    expression = f"F.{kind}_pool{dims}d({operand.name}, {kernel}, stride={stride}, padding={padding})"
    return b.emit(expression, operand.shape[:2] + out, [operand])


def reshape(b: Builder) -> Value | None:
    operand = b.pick(min_rank=1)
    if operand is None:
        return None
    shape = list(operand.shape)
    form = b.draw(st.sampled_from(["flatten", "merge", "split", "unsqueeze", "squeeze"]))
    axis = b.draw(st.integers(0, len(shape) - 1))
    if form == "flatten":
        return b.emit(f"torch.flatten({operand.name}, {axis})", shape[:axis] + [math.prod(shape[axis:])], [operand])
    if form == "merge" and axis + 1 < len(shape):
        new = shape[:axis] + [shape[axis] * shape[axis + 1]] + shape[axis + 2:]
    elif form == "split" and any(shape[axis] % f == 0 for f in range(2, shape[axis])):
        factor = b.draw(st.sampled_from([f for f in range(2, shape[axis]) if shape[axis] % f == 0]))
        new = shape[:axis] + [factor, shape[axis] // factor] + shape[axis + 1:]
    elif form == "squeeze" and shape[axis] == 1:
        return b.emit(f"torch.squeeze({operand.name}, {axis})", shape[:axis] + shape[axis + 1:], [operand])
    else:
        return b.emit(f"torch.unsqueeze({operand.name}, {axis})", shape[:axis] + [1] + shape[axis:], [operand])
    return b.emit(f"torch.reshape({operand.name}, {tuple(new)})", new, [operand])


def permute(b: Builder) -> Value | None:
    operand = b.pick(min_rank=2)
    if operand is None:
        return None
    order = b.draw(st.permutations(range(operand.rank)))
    return b.emit(f"{operand.name}.permute({tuple(order)})", tuple(operand.shape[i] for i in order), [operand])


def slicing(b: Builder) -> Value | None:
    operand = b.pick(min_rank=1)
    if operand is None:
        return None
    axis = b.draw(st.integers(0, operand.rank - 1))
    size = operand.shape[axis]
    if b.draw(st.booleans()):
        index = b.draw(st.integers(-size, size - 1))
        return b.emit(f"torch.select({operand.name}, {axis}, {index})",
                      operand.shape[:axis] + operand.shape[axis + 1:], [operand])
    start = b.draw(st.integers(0, size - 1))
    stop = b.draw(st.integers(start + 1, size))
    step = b.draw(st.integers(1, 2))
    index = ", ".join([":"] * axis + [f"{start}:{stop}:{step}"])
    length = len(range(start, stop, step))
    return b.emit(f"{operand.name}[{index}]", operand.shape[:axis] + (length,) + operand.shape[axis + 1:], [operand])


def pad(b: Builder) -> Value | None:
    """F.pad of the last dims: constant (any value, any number of dims), or reflect and
    replicate (of 1 to 3 dims, on inputs of one or two more dims, as torch takes them)."""
    operand = b.pick(min_rank=1)
    if operand is None:
        return None
    # reflect and replicate pad d of 1 to 3 dims of an input of rank d + 1 or d + 2: ranks 2 to 5
    # (a value of rank 6, made by unsqueeze, stack or outer, has no such d: seed 520026)
    modes = ["constant"] + (["reflect", "replicate"] if 2 <= operand.rank <= 5 else [])
    mode = b.draw(st.sampled_from(modes))
    if mode == "constant":
        dims = b.draw(st.integers(1, operand.rank))
    else:
        dims = b.draw(st.sampled_from([d for d in (operand.rank - 1, operand.rank - 2) if 1 <= d <= 3]))
    shape = list(operand.shape)
    pads = []
    for axis in range(operand.rank - 1, operand.rank - 1 - dims, -1):  # torch's order: the last dim first
        most = shape[axis] - 1 if mode == "reflect" else 2  # a reflection stays inside the dim
        before, after = b.draw(st.integers(0, most)), b.draw(st.integers(0, most))
        pads += [before, after]
        shape[axis] += before + after
    value = b.draw(st.sampled_from([0.0, -1.0, 0.5])) if mode == "constant" else 0.0
    extra = f", mode='{mode}'" if mode != "constant" else (f", value={value}" if value else "")
    return b.emit(f"F.pad({operand.name}, {tuple(pads)}{extra})", tuple(shape), [operand])


def concatenate(b: Builder) -> Value | None:
    first = b.pick(min_rank=1)
    if first is None:
        return None
    if b.draw(st.booleans()):  # stack: a new dim
        axis = b.draw(st.integers(0, first.rank))
        second = b.pick(where=lambda value: value.shape == first.shape)
        shape = first.shape[:axis] + (2,) + first.shape[axis:]
        return b.emit(f"torch.stack([{first.name}, {second.name}], {axis})", shape, [first, second])
    axis = b.draw(st.integers(0, first.rank - 1))

    def joins(value: Value) -> bool:
        return value.rank == first.rank and all(a == c for i, (a, c) in enumerate(zip(value.shape, first.shape))
                                                if i != axis)

    second = b.pick(where=joins)
    shape = first.shape[:axis] + (first.shape[axis] + second.shape[axis],) + first.shape[axis + 1:]
    return b.emit(f"torch.cat([{first.name}, {second.name}], {axis})", shape, [first, second])


def expand(b: Builder) -> Value | None:
    operand = b.pick(min_rank=1, where=lambda value: 1 in value.shape)
    if operand is None:
        operand = b.pick()
        size = b.dim(2)
        return b.emit(f"{operand.name}.unsqueeze(0).expand({(size,) + operand.shape})", (size,) + operand.shape,
                      [operand])
    shape = tuple(b.dim(2) if size == 1 and b.draw(st.booleans()) else size for size in operand.shape)
    return b.emit(f"{operand.name}.expand({shape})", shape, [operand])


def select_where(b: Builder) -> Value:
    chosen = b.pick()
    condition = b.new_input(broadcast_shape(b, chosen.shape) if b.draw(st.booleans()) else chosen.shape)
    threshold = b.draw(st.sampled_from([0.0, 0.5, -0.5]))
    comparison = b.draw(st.sampled_from([">", "<", ">=", "<="]))
    otherwise = b.pick(where=lambda value: _broadcasts(value.shape, chosen.shape))
    other = otherwise.name if otherwise is not None and b.draw(st.booleans()) else "0.0"
    operands = [chosen, condition] + ([otherwise] if other != "0.0" else [])
    expression = f"torch.where({condition.name} {comparison} {threshold}, {chosen.name}, {other})"
    return b.emit(expression, chosen.shape, operands)


def attention(b: Builder) -> Value | None:
    query = b.pick(min_rank=3, max_rank=4)
    if query is None:
        return None
    *batch, length, width = query.shape
    if b.draw(st.booleans()):  # self-attention
        key = value = query
        causal = b.draw(st.booleans())
    else:
        keys = b.dim()
        key = b.new_input((*batch, keys, width))
        value = b.new_input((*batch, keys, b.dim()))
        causal = keys == length and b.draw(st.booleans())
    expression = f"F.scaled_dot_product_attention({query.name}, {key.name}, {value.name}, is_causal={causal})"
    return b.emit(expression, (*batch, length, value.shape[-1]), list({query, key, value}))


# Integer and bool arithmetic, and rounding to narrower floats, each made from a graph
# input by exact steps (scaling by a power of two, rounding, comparing with a constant),
# so that eager and a correct compiler agree to the bit, and turned back into a float.
# What they found: torch's True + True is True (an i1 addi gave False), and IREE's CPU
# code skipped the rounding of a cast to bf16 whose value stayed in its dispatch.
INTEGER_TYPES = {"torch.int64": "torch.round({} * 8)", "torch.int32": "torch.round({} * 8)",
                 "torch.int16": "torch.round({} * 8)", "torch.int8": "torch.round({} * 8)",
                 "torch.uint8": "torch.round({}.abs() * 16)"}
INTEGER_OPS = [
    "{a} + {b}", "{a} - {b}", "{a} * {b}", "torch.maximum({a}, {b})", "torch.minimum({a}, {b})",
    "torch.div({a}, {b}.abs() + 1, rounding_mode='floor')", "torch.div({a}, {b}.abs() + 1, rounding_mode='trunc')",
    "torch.remainder({a}, {b}.abs() + 1)", "torch.fmod({a}, {b}.abs() + 1)", "{a} / ({b}.abs() + 1)",
    "torch.abs({a})", "torch.sign({a})", "{a} >> 1", "{a} << 2", "{a} & {b}", "{a} | {b}", "{a} ^ {b}", "~{a}",
    "torch.clamp({a}, 1, 9)", "torch.clamp({a}, min=-2.5)", "torch.where({a} > {b}, {a}, {b})", "{a} == {b}",
    "{a} ** 2", "{a} * 3 - {b}",
]
BOOL_OPS = ["{p} + {q}", "{p} * {q}", "{p} & {q}", "{p} | {q}", "{p} ^ {q}", "~{p}", "{p} == {q}", "{p} > {q}",
            "torch.logical_xor({p}, {q})", "torch.maximum({p}, {q})", "torch.minimum({p}, {q})", "{p}.int() + {q}",
            "torch.where({p}, {q}, ~{q})", "{p} + {q} + {p}"]
NARROW_FLOATS = ["{x}.to(torch.bfloat16).float()", "({x} * 1000).to(torch.bfloat16).float()",
                 "({x} * 3e4).half().float()", "{x}.to(torch.bfloat16).double().float()"]


def exact(b: Builder) -> Value:
    """One integer, bool or narrow-float step on a graph input, back in float."""
    x = b.inputs[b.draw(st.integers(0, len(b.inputs) - 1))]
    family = b.draw(st.sampled_from(["integer", "bool", "narrow"]))
    mirrored = f"{x.name}.flip(-1)" if x.rank else f"(-{x.name})"
    if family == "integer":
        dtype = b.draw(st.sampled_from(list(INTEGER_TYPES)))
        a, c = (f"{INTEGER_TYPES[dtype].format(v)}.to({dtype})" for v in (x.name, mirrored))
        expression = b.draw(st.sampled_from(INTEGER_OPS)).format(a=f"({a})", b=f"({c})")
    elif family == "bool":
        p, q = f"({x.name} > 0)", f"({mirrored} > 0.5)"
        expression = b.draw(st.sampled_from(BOOL_OPS)).format(p=p, q=q)
    else:
        expression = b.draw(st.sampled_from(NARROW_FLOATS)).format(x=x.name)
    return b.emit(f"({expression}).float()", x.shape, [x])


OPS = [unary, binary, reduction, softmax, normalization, linear, matmul, convolution, pooling, reshape, permute,
       slicing, pad, concatenate, expand, select_where, attention, outer, exact]


@st.composite
def programs(draw, max_ops: int = 8) -> Program:
    b = Builder(draw)
    b.new_input(b.shape())
    if draw(st.booleans()):
        b.new_input(b.shape())
    for _ in range(draw(st.integers(1, max_ops))):
        op = draw(st.sampled_from(OPS))
        if op(b) is None:
            unary(b)
    last = b.lines[-1][0]
    unused = [value for value, _ in b.lines[:-1] if value.name not in b.consumed]
    outputs = unused[-2:] + [last]
    return Program(b.inputs, b.parameters, b.lines, outputs, seed=draw(st.integers(0, 2 ** 16)))
