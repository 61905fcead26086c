"""The way in from PyTorch (driver/frontend/torch_import.py): functionalized export, an
eval-mode BatchNorm kept whole, non-persistent buffers, and ops torch-mlir does not
know broken up by PyTorch's own decompositions. Each model also compiles with IREE,
runs, and matches eager."""

import copy

import numpy as np
import pytest
import torch
from conftest import compile_and_compare
from torch.export import Dim
from torch_mlir import ir

import mlc
from mlc.driver.compilation import export_model, import_model, import_program
from mlc.passes import constant_values


class InPlace(torch.nn.Module):
    """nn.ReLU(inplace=True), `x += y` and hardswish_: functionalized before import."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 16)
        self.relu = torch.nn.ReLU(inplace=True)

    def forward(self, x):
        y = self.relu(self.fc(x))
        y += x
        return torch.nn.functional.hardswish(y, inplace=True) * 2.0


class ConvBatchNorm(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.norm = torch.nn.BatchNorm2d(4)
        with torch.no_grad():  # statistics that are not the identity, so a wrong fold shows
            self.norm.running_mean.uniform_(-1.0, 1.0)
            self.norm.running_var.uniform_(0.5, 2.0)
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return torch.relu(self.norm(self.conv(x)))


class PositionIds(torch.nn.Module):
    """BERT's `position_ids`: an int64 buffer that is not in the state_dict."""

    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(8, 16)
        self.register_buffer("position_ids", torch.arange(8).flip(0), persistent=False)

    def forward(self, x):
        return x + self.embed(self.position_ids[: x.shape[1]])


class PairedMasks(torch.nn.Module):
    """Bool buffers of one shape, each used beside the next (GPT-Neo's global and local
    attention masks): the importer turns each use into a temporary uint8 copy."""

    def __init__(self, count=8):
        super().__init__()
        generator = torch.Generator().manual_seed(0)
        self.masks = [torch.rand(8, 8, generator=generator) < 0.5 for _ in range(count)]
        for i, mask in enumerate(self.masks):
            self.register_buffer(f"mask{i}", mask, persistent=False)

    def forward(self, x):
        for i in range(len(self.masks)):
            x = x.masked_fill(getattr(self, f"mask{i}") ^ getattr(self, f"mask{(i + 1) % len(self.masks)}"), float(i))
        return x


class Diff(torch.nn.Module):
    """torch.diff (GPT-2's attention mask arithmetic): torch-mlir has no aten.diff."""

    def forward(self, x):
        return torch.diff(x, dim=-1) * 3.0


def test_in_place_ops_are_functionalized():
    _, module = import_model(InPlace(), (torch.randn(4, 16),))
    torch_ir = str(module)
    assert "torch.aten.relu_" not in torch_ir and "torch.aten.add_" not in torch_ir
    assert "torch.aten.hardswish_" not in torch_ir
    assert "torch.aten.relu " in torch_ir and "torch.aten.add.Tensor" in torch_ir


@pytest.mark.slow
@pytest.mark.iree
def test_in_place_ops_compile_and_match_eager():
    x = torch.randn(4, 16)
    compile_and_compare(InPlace(), x.clone(), call_with=[(x,)])


def test_eval_batch_norm_stays_whole():
    _, module = import_model(ConvBatchNorm().eval(), (torch.randn(1, 3, 8, 8),))
    torch_ir = str(module)
    assert "torch.aten.batch_norm" in torch_ir
    assert "_native_batch_norm_legit" not in torch_ir


@pytest.mark.slow
@pytest.mark.iree
def test_eval_batch_norm_compiles_and_matches_eager():
    compiled = compile_and_compare(ConvBatchNorm(), torch.randn(2, 3, 8, 8), call_with=[(torch.randn(2, 3, 8, 8),)])
    assert "torch.aten.batch_norm" in compiled.ir("torch")
    assert "_native_batch_norm_legit" not in compiled.ir("torch")


def test_non_persistent_buffer_imports_and_leaves_the_program_as_it_was():
    program, module = import_model(PositionIds(), (torch.randn(2, 5, 16),))
    assert "position_ids" in str(module)
    assert "position_ids" not in program.state_dict  # the importer's loan is returned


@pytest.mark.slow
@pytest.mark.iree
def test_non_persistent_buffer_compiles_and_matches_eager():
    compile_and_compare(PositionIds(), torch.randn(2, 5, 16), call_with=[(torch.randn(2, 5, 16),)])


def test_op_unknown_to_torch_mlir_is_decomposed_by_pytorch():
    _, module = import_model(Diff(), (torch.randn(3, 7),))
    torch_ir = str(module)
    assert "diff" not in torch_ir
    assert "torch.aten.slice.Tensor" in torch_ir and "torch.aten.sub.Tensor" in torch_ir


@pytest.mark.slow
@pytest.mark.iree
def test_op_unknown_to_torch_mlir_matches_eager():
    compile_and_compare(Diff(), torch.randn(3, 7))


class CacheWrite(torch.nn.Module):
    """A static cache's write (transformers' StaticCache): `index_copy_`, whose functional
    form torch-mlir has no op for."""

    def forward(self, cache, rows, position):
        cache.index_copy_(0, position, rows)
        return cache * 2.0


def test_in_place_op_torch_mlir_lacks_decomposes_in_the_functionalizing_trace(monkeypatch):
    """One trace of the model, not a second for the decomposition: the program torch-mlir
    imports has neither `index_copy_` nor `index_copy`, and the trace ran once."""
    traces = []
    run_decompositions = torch.export.ExportedProgram.run_decompositions
    monkeypatch.setattr(torch.export.ExportedProgram, "run_decompositions",
                        lambda self, *args, **kwargs: traces.append(args) or run_decompositions(self, *args, **kwargs))
    program = export_model(CacheWrite(), (torch.zeros(6, 4), torch.ones(1, 4), torch.tensor([2])))
    assert len(traces) == 1 and torch.ops.aten.index_copy.default in traces[0][0]
    targets = {str(node.target) for node in program.graph.nodes}
    assert not any("index_copy" in target for target in targets)
    cache = torch.zeros(6, 4)
    assert torch.equal(program.module()(cache.clone(), torch.ones(1, 4), torch.tensor([2])),
                       CacheWrite()(cache, torch.ones(1, 4), torch.tensor([2])))


def test_a_decomposition_into_an_op_nobody_knows_is_not_taken_in_the_functionalizing_trace(monkeypatch):
    """Where the decomposition would leave an op torch-mlir lacks and the table cannot
    break (prims.zeta), the single trace is dropped: the plain one follows, and the user's
    `index_copy` stays, for the import to name."""
    from mlc.driver.frontend import torch_import

    table = {**torch_import._decomposition_table(),
             torch.ops.aten.index_copy.default: lambda cache, dim, index, rows: torch.ops.prims.zeta(cache, cache)}
    monkeypatch.setattr(torch_import, "_decomposition_table", lambda: table)
    traces = []
    run_decompositions = torch.export.ExportedProgram.run_decompositions
    monkeypatch.setattr(torch.export.ExportedProgram, "run_decompositions",
                        lambda self, *args, **kwargs: traces.append(args) or run_decompositions(self, *args, **kwargs))
    program = export_model(CacheWrite(), (torch.zeros(6, 4), torch.ones(1, 4), torch.tensor([2])))
    assert [set(args[0]) for args in traces][:2] == [{torch.ops.aten.index_copy.default}, set()]
    targets = {node.target for node in program.graph.nodes}
    assert torch.ops.aten.index_copy.default in targets and torch.ops.prims.zeta.default not in targets


class ViewCopies(torch.nn.Module):
    """Out-of-place copies of views, as functionalized programs and users write them."""

    def forward(self, x):
        y = torch.ops.aten.transpose_copy(x, 0, 1)
        z = torch.ops.aten.unsqueeze_copy(torch.ops.aten.alias_copy(y), 0)
        return torch.ops.aten.expand_copy(z, [2, 7, 3]) + torch.ops.aten.diagonal_copy(x[:, :3])[None, None, :]


def test_copies_of_views_become_the_views():
    _, module = import_model(ViewCopies(), (torch.randn(3, 7),))
    torch_ir = str(module)
    assert "_copy" not in torch_ir
    assert "torch.aten.transpose.int" in torch_ir and "torch.aten.diagonal" in torch_ir


@pytest.mark.slow
@pytest.mark.iree
def test_copies_of_views_compile_strictly_and_match_eager():
    compile_and_compare(ViewCopies(), torch.randn(3, 7), allow_fallback=False)


@pytest.mark.slow
@pytest.mark.iree
def test_in_place_ops_and_batch_norm_at_a_dynamic_batch():
    """One executable, run at several batch sizes; the report names the symbolic size."""

    class Both(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.block = ConvBatchNorm()
            self.relu = torch.nn.ReLU(inplace=True)

        def forward(self, x):
            y = self.block(x)
            y += 1.0
            return self.relu(y)

    runs = [(torch.randn(size, 3, 8, 8),) for size in (1, 3, 6)]
    compiled = compile_and_compare(Both(), torch.randn(2, 3, 8, 8), dynamic_shapes=({0: Dim("batch")},), call_with=runs)
    batch, *rest = compiled.report["dynamic shapes"]["inputs"][0]
    assert not batch.isdigit() and rest == ["3", "8", "8"]


class TableLookup(torch.nn.Module):
    """Swin's relative position bias: a weight indexed by a buffer, `table[[index]]`."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.table = torch.nn.Parameter(torch.randn(10, 4))
        self.register_buffer("index", torch.tensor([[1, 2], [3, 9]]))

    def forward(self, x):
        return x + self.table[self.index]


def test_each_bool_buffer_imports_as_its_own_values():
    """The importer caches literals by id() of its temporary uint8 copies; without mlc
    keeping them alive, a later mask got an earlier one's literal in about half of these
    imports (GPT-Neo's local mask read as the global one). Many imports, each checked."""
    model = PairedMasks()
    program = export_model(model, (torch.randn(8, 8),))
    for _ in range(40):
        module = import_program(copy.deepcopy(program))
        masks = _bool_literals_by_use(module)
        expected = [mask.to(torch.uint8).numpy() for i in range(len(model.masks))
                    for mask in (model.masks[i], model.masks[(i + 1) % len(model.masks)])]
        assert len(masks) == len(expected)
        for got, want in zip(masks, expected):
            np.testing.assert_array_equal(got, want)


def _bool_literals_by_use(module) -> list:
    """The values of the uint8 literals behind each bitwise_xor's operands, in order."""
    ops = list(module.regions[0].blocks[0].operations[0].regions[0].blocks[0].operations)
    def literal(value):
        source = value.owner.operands[0].owner  # the torch.vtensor.literal under torch.aten.to.dtype
        with module.context, ir.Location.unknown():
            as_bytes = ir.RankedTensorType.get(source.attributes["value"].type.shape, ir.IntegerType.get_signless(8))
        return constant_values.attribute_value(source, as_bytes)
    return [literal(operand) for op in ops if op.name == "torch.aten.bitwise_xor.Tensor" for operand in op.operands]


@pytest.mark.iree
def test_a_weight_inside_a_list_argument_imports():
    """The frozen importer put the buffer's tensor inside index's list of indices and
    failed ("Heterogeneous lists are not supported"); an alias in between fixes it."""
    compile_and_compare(TableLookup(), torch.randn(2, 2, 4), rtol=1.3e-6, atol=1e-5,  # assert_close's float32 defaults
                        allow_fallback=False)


def test_an_importer_failure_is_a_user_error(monkeypatch):
    from torch_mlir.extras import fx_importer

    def fails(*args, **kwargs):
        raise AssertionError("Heterogeneous lists are not supported: expected vtensor, got <class 'torch.Tensor'>")

    monkeypatch.setattr(fx_importer.FxImporter, "import_frozen_program", fails)
    with pytest.raises(mlc.UserError, match=r"torch-mlir's FX importer failed on the exported model: AssertionError: "
                                            r"Heterogeneous lists"):
        mlc.compile(torch.nn.ReLU(), (torch.randn(3),))


class Rolled(torch.nn.Module):
    """A roll past the size and a stable sort: ATen calls torch-mlir reads wrong or not at all
    (driver/frontend/aten_rewrites.py)."""

    def forward(self, x):
        return torch.roll(x, (-7, 11), (0, 1)) + torch.sort(torch.round(x * 2), dim=1, stable=True).values


@pytest.mark.iree
def test_a_saved_program_gets_the_aten_rewrites(tmp_path):
    """A .pt2 made by torch.export alone, not by mlc, is rewritten at its import too."""
    from mlc.driver.cli import mlc_compile

    x = torch.randn(3, 5)
    path = tmp_path / "rolled.pt2"
    torch.export.save(torch.export.export(Rolled(), (x,)), str(path))
    assert mlc_compile.main([str(path), "--no-fallback", "-o", str(tmp_path / "rolled.vmfb")]) in (0, None)
    compile_and_compare(Rolled(), x, allow_fallback=False)


@pytest.mark.iree
@pytest.mark.parametrize("decomposed", [False, True], ids=["as exported", "run_decompositions"])
def test_an_exported_program_compiles_as_its_module_does(decomposed):
    """`mlc.compile` takes what `torch.export.export` made, with or without its example
    inputs; a program in ATen's inference dialect is not traced again. Its BatchNorm
    is kept whole and folded, so the optimized graph is the module's."""
    model, x = ConvBatchNorm().eval(), torch.randn(1, 3, 8, 8)
    program = torch.export.export(model, (x,), strict=False)
    program = program.run_decompositions({}) if decomposed else program
    compiled = mlc.compile(program, (x,)) if decomposed else mlc.compile(program)
    assert compiled.ir("mlc") == mlc.compile(model, (x,)).ir("mlc")
    assert "batch_norm" not in compiled.ir("mlc")
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
