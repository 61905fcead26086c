"""PyTorch in: torch.export -> torch-mlir's FX importer -> the torch dialect at
the backend contract (value tensors with known shapes and dtypes).

No PyTorch decompositions run, and the ops whose conversions say `keep_whole`
(`kept_whole()`) are kept whole by torch-mlir, so mlc sees `linear`, `conv2d`, `batch_norm` or attention
rather than their arithmetic: its graph passes (BatchNorm folding, fusion)
need them.
"""

import collections
import contextlib
import copy
import functools
import logging
import os
import re
import warnings

import torch
import torch._decomp
from torch_mlir import ir, passmanager
from torch_mlir.extras.fx_importer import (
    SYMBOLIC_OP_TO_TORCH_OP,
    TORCH_DTYPE_TO_MLIR_TYPE,
    ContextCache,
    FxImporter,
    FxImporterHooks,
)

from ...dialects import make_context
from ...errors import UserError
from ...passes import constant_values
from ...passes.convert_torch_to_mlc import unsupported_report
from ...passes.convert_torch_to_mlc.patterns import kept_whole
from ...passes.crash_guard import crash_signal
from .. import diagnostics
from . import aten_rewrites
from .decompositions import DECOMPOSITIONS

BACKEND_CONTRACT = (
    "builtin.module(func.func(torch-match-quantized-custom-ops),"
    "torchdynamo-export-to-torch-backend-pipeline{{backend-legal-ops={legal}}})"
)


@contextlib.contextmanager
def _quiet_fake_tensor_log():
    """torch logs a traceback of its own before raising a shape error; mlc reports the error once."""
    logger = logging.getLogger("torch._subclasses.fake_tensor")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def export(model: torch.nn.Module, example_args: tuple, dynamic_shapes=None) -> torch.export.ExportedProgram:
    """torch.export of the model, made ready for the import (`prepare`), with its
    failures turned into a UserError that names the cause."""
    try:
        with _quiet_fake_tensor_log():
            program = torch.export.export(model, unaliased(model, tuple(example_args)), dynamic_shapes=dynamic_shapes,
                                          strict=False)
    except Exception as error:  # torch.export raises many types; each is the user's model's problem
        raise _export_error(error) from error
    return prepare(program)


def unaliased(model: torch.nn.Module, example_args: tuple) -> tuple:
    """The example inputs, each tensor that shares memory with an earlier one or with the
    model's own parameters and buffers replaced by a copy. torch.export makes inputs that
    alias one input: `mlc.compile(model, (x, x))` compiled `forward(a, b)` as
    `forward(b, b)`, and every later call with two different tensors gave wrong numbers.
    The examples give shapes and dtypes only; each input of the compiled model is its own."""
    seen = {tensor.untyped_storage().data_ptr() for tensor in (*model.parameters(), *model.buffers())}

    def own(leaf):
        if not isinstance(leaf, torch.Tensor) or leaf.is_meta or not leaf.untyped_storage().nbytes():
            return leaf
        address = leaf.untyped_storage().data_ptr()
        if address in seen:
            return leaf.detach().clone().requires_grad_(leaf.requires_grad)
        seen.add(address)
        return leaf

    return torch.utils._pytree.tree_map(own, example_args)


def prepare(program: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """An exported program in the form the import takes: functionalized (in-place ops
    such as `relu_` become `relu`; the empty table decomposes nothing else), mlc's
    rewrites of ATen calls made, composite ops torch-mlir does not know decomposed, and
    `batch_norm` whole. A program already in ATen's inference dialect (its
    `run_decompositions` ran) is not traced again, and a second preparation changes nothing."""
    try:
        with _quiet_fake_tensor_log(), warnings.catch_warnings():  # torch's own deprecation notices
            warnings.simplefilter("ignore", FutureWarning)
            if program.dialect != "ATEN":
                program = _functionalized(program)
            aten_rewrites.rewrite(program)
            program = _decompose_unknown_ops(program)
    except Exception as error:  # as in `export`: the model's problem, found while tracing it again
        raise _export_error(error) from error
    _restore_batch_norm(program.graph_module)
    return program


def _functionalized(program: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """The program in ATen's inference dialect: `run_decompositions({})`, a trace of the whole
    model. Where the graph has in-place ops whose functional form torch-mlir lacks (the
    static cache's `index_copy_`), their decompositions go into that same trace; made after
    it by `_decompose_unknown_ops`, they cost a second trace (1-2 s of each compile of a
    language model's step). A trace that leaves an op unknown to torch-mlir that neither the
    table nor the model had is dropped: the plain one follows, and the ops go the usual way."""
    context = make_context()
    table = _decomposition_table()
    present = {node.target for node in program.graph.nodes if isinstance(node.target, torch._ops.OpOverload)}
    ahead = {op: table[op] for op in filter(None, map(_functional_form, present))
             if op in table and not context.is_registered_operation(_mlir_op_name(op))}
    if ahead:
        candidate = program.run_decompositions(ahead)
        if _unknown_ops(candidate, context) <= table.keys() | present:
            return candidate
    return program.run_decompositions({})


def _functional_form(op: torch._ops.OpOverload) -> torch._ops.OpOverload | None:
    """`aten.index_copy.default` for `aten.index_copy_.default`, as functionalization
    rewrites an in-place op (ATen names it with a trailing underscore); None for any other op."""
    namespace, _, name = op._schema.name.partition("::")
    if not (op._schema.is_mutable and name.endswith("_")) or name.startswith("_"):
        return None
    packet = getattr(getattr(torch.ops, namespace), name[:-1], None)
    return getattr(packet, op._overloadname, None) if packet is not None else None


def _export_error(error: Exception) -> UserError:
    first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return UserError(f"torch.export failed: {type(error).__name__}: {first_line}")


def _unknown_ops(program: torch.export.ExportedProgram, context: ir.Context) -> set:
    """The ATen ops of a program that torch-mlir has no op for (size queries such as
    `sym_size` it imports as ops of other names: they are known)."""
    targets = {node.target for node in program.graph.nodes
               if isinstance(node.target, torch._ops.OpOverload) and node.target not in SYMBOLIC_OP_TO_TORCH_OP}
    return {op for op in targets if not context.is_registered_operation(_mlir_op_name(op))}


def _decomposed_at_import(program: torch.export.ExportedProgram) -> set:
    return {node.target for node in program.graph.nodes
            if isinstance(node.target, torch._ops.OpOverload) and node.target.overloadpacket in DECOMPOSED_AT_IMPORT}


def _mlir_op_name(op: torch._ops.OpOverload) -> str:
    """The torch-mlir name of an ATen overload, as the FX importer spells it."""
    namespace, _, name = op._schema.name.partition("::")
    overload = f".{op._schema.overload_name}" if op._schema.overload_name else ""
    return f"torch.{namespace}.{name}{overload}"


# Ops torch-mlir knows but neither it nor mlc converts, which PyTorch decomposes into
# ops mlc converts: the out-of-place copies of views (functionalization's
# `transpose_copy` for `transpose`; with value semantics each is its view), and losses
# that are a few elementwise ops and a reduction.
DECOMPOSED_AT_IMPORT = {
    torch.ops.aten.alias_copy, torch.ops.aten.as_strided_copy, torch.ops.aten.diagonal_copy,
    torch.ops.aten.expand_copy, torch.ops.aten.narrow_copy, torch.ops.aten.permute_copy,
    torch.ops.aten.split_with_sizes_copy, torch.ops.aten.squeeze_copy, torch.ops.aten.t_copy,
    torch.ops.aten.transpose_copy, torch.ops.aten.unbind_copy, torch.ops.aten.unfold_copy,
    torch.ops.aten.unsqueeze_copy, torch.ops.aten.view_copy,
    torch.ops.aten.binary_cross_entropy, torch.ops.aten.cosine_embedding_loss, torch.ops.aten.poisson_nll_loss,
    torch.ops.aten.einsum,
    # torch-mlir's own decomposition types pos_weight * log_sigmoid(x) as pos_weight's shape
    # ([C], not [N, C]), which mlc's verifier refused
    torch.ops.aten.binary_cross_entropy_with_logits,
    # grid_sample: PyTorch's reference decomposition (ATen's composite grid_sampler picks the
    # 2-D kernel, decompositions.grid_sampler) reads the four corners with index ops mlc converts
    torch.ops.aten.grid_sampler, torch.ops.aten.grid_sampler_2d,
    # the Fourier transforms of real tensors, as matrix products (fourier.py)
    torch.ops.aten.fft_fft, torch.ops.aten.fft_rfft, torch.ops.aten.stft,
}


# ops torch-mlir knows but cannot bring to its backend contract, so PyTorch's decomposition
# is taken instead: its own decomposition of meshgrid leaves unranked `!torch.tensor`
# results ("type of return operand 0 ('!torch.tensor') doesn't match function result
# type"), and broadcast_tensors of mixed dtypes (quantile's float and bool) gets a list
# typed as its first tensor ("operand types should have the same type as the list
# contained type")
DECOMPOSED_BEFORE_IMPORT = frozenset({
    torch.ops.aten.meshgrid.default, torch.ops.aten.meshgrid.indexing, torch.ops.aten.broadcast_tensors.default,
})


@functools.cache
def _decomposition_table() -> dict:
    """The decompositions `_decompose_unknown_ops` may take; built once (export's table
    costs 0.1-0.4 s to make, which every compile paid when it was made each time)."""
    table = {**torch._decomp.decomposition_table, **torch.export.default_decompositions(), **DECOMPOSITIONS}
    table.pop(torch.ops.aten._native_batch_norm_legit_no_training.default)  # _restore_batch_norm keeps it whole
    return table


def _decompose_unknown_ops(program: torch.export.ExportedProgram) -> torch.export.ExportedProgram:
    """Composite ops torch-mlir does not know (GPT-2's `aten.diff`) are broken into
    ones it does, with PyTorch's own decompositions (export's table first, then the
    wider one, which has `addmv`, then mlc's own in `decompositions.py`), and so are
    the copies of views and losses of DECOMPOSED_AT_IMPORT, and DECOMPOSED_BEFORE_IMPORT; every other op stays whole. A decomposition into
    ops torch-mlir does not know either (special_zeta into prims.zeta) is not taken:
    the error should name the op the user wrote."""
    context = make_context()
    for _ in range(4):  # a decomposition may itself use an op that needs one
        unknown = _unknown_ops(program, context) | _decomposed_at_import(program)
        unknown |= DECOMPOSED_BEFORE_IMPORT & {node.target for node in program.graph.nodes}
        if not unknown:
            break
        table = _decomposition_table()
        decomposed = False
        for op in sorted(unknown & table.keys(), key=str):
            candidate = program.run_decompositions({op: table[op]})
            if _unknown_ops(candidate, context) - unknown <= table.keys():  # not into prims nobody knows
                program, decomposed = candidate, True
        if not decomposed:
            break
    return program


STAND_IN = "<mlc stand-in>"  # the source file of the ops `stand_in_unknown_ops` puts in


def unknown_ops(program: torch.export.ExportedProgram) -> set:
    """The ATen ops of a program that torch-mlir has no op for."""
    return _unknown_ops(program, make_context())


def stand_in_unknown_ops(program: torch.export.ExportedProgram) -> tuple[torch.export.ExportedProgram,
                                                                         dict[str, list[str]]]:
    """A copy of the program with each op torch-mlir has no op for replaced by zeros of
    its result's shape, so the rest of the model imports (for `mlc.coverage`, which
    reports them), and their torch-mlir names with their source lines. The caller's
    program keeps its ops. An op with several results is an error."""
    weights = [*program.state_dict.values(), *program.constants.values()]
    program = copy.deepcopy(program, memo={id(value): value for value in weights})  # the graph, not the weights
    unknown = _unknown_ops(program, make_context())
    replaced = collections.defaultdict(list)
    graph = program.graph_module.graph
    for node in list(graph.nodes):
        if node.target not in unknown:
            continue
        value = node.meta.get("val")
        if not isinstance(value, torch.Tensor):
            raise UserError(f"{_mlir_op_name(node.target)} is unknown to torch-mlir and has several results: "
                            "the ops after it cannot be checked")
        with graph.inserting_before(node):
            zeros = graph.call_function(torch.ops.aten.zeros.default, (list(value.shape),), {"dtype": value.dtype})
        zeros.meta = {**node.meta, "stack_trace": f'  File "{STAND_IN}", line 1, in forward'}
        replaced[_mlir_op_name(node.target)].append(_source_of(node))
        node.replace_all_uses_with(zeros)
        graph.erase_node(node)
    program.graph_module.recompile()
    return program, dict(replaced)


def _source_of(node: torch.fx.Node) -> str:
    """The model's source line of an FX node, as mlc's messages name lines (file:line)."""
    frames = re.findall(r'File "([^"]+)", line (\d+)', node.meta.get("stack_trace") or "")
    if not frames:
        return "unknown location"
    file, line = frames[-1]
    relative = os.path.relpath(file) if os.path.isabs(file) else file
    return f"{relative if not relative.startswith('..') else file}:{line}"


def _restore_batch_norm(graph_module: torch.fx.GraphModule) -> None:
    """Functionalization turns an eval-mode `batch_norm` into
    `_native_batch_norm_legit_no_training`, which torch-mlir does not know;
    this puts `batch_norm` back, which mlc converts whole (and folds). Its other two
    results (the saved statistics) are empty in inference; used, they become empty zeros."""
    graph = graph_module.graph
    legit = torch.ops.aten._native_batch_norm_legit_no_training.default
    changed = False
    for node in list(graph.nodes):
        if node.target is not legit or any(user.args[1] != 0 and node.meta["val"][user.args[1]].numel()
                                           for user in node.users):
            continue
        x, weight, bias, mean, var, momentum, eps = node.args
        with graph.inserting_before(node):
            whole = graph.call_function(torch.ops.aten.batch_norm.default,
                                        (x, weight, bias, mean, var, False, momentum, eps, False))
        whole.meta = {**node.meta, "val": node.meta["val"][0]}
        for user in list(node.users):
            replacement = whole
            if user.args[1] != 0:
                saved = node.meta["val"][user.args[1]]
                with graph.inserting_before(node):
                    replacement = graph.call_function(torch.ops.aten.zeros.default, (list(saved.shape),),
                                                      {"dtype": saved.dtype})
                replacement.meta = {**user.meta}
            user.replace_all_uses_with(replacement)
            graph.erase_node(user)
        graph.erase_node(node)
        changed = True
    if changed:
        graph_module.recompile()


class WeightsByReference(FxImporterHooks):
    """Imports each weight as a `dense_resource` blob that shares the tensor's
    memory. The default importer copies every element through Python lists,
    which takes minutes on a 100M-parameter model.

    The blobs alias the program's tensors: keep the program alive while the
    module lives.

    Every literal the importer hands over is kept alive until the import ends. The
    importer converts a bool buffer to a temporary uint8 copy and caches its literal
    by `id()` of that copy (its `RefTracker`, whose finalizer is disabled): once the copy
    died, the next bool buffer's copy could get its address and its literal. GPT-Neo's
    local attention mask then read as the global one in about one process in five
    (relative error 0.14).
    """

    def __init__(self, program: torch.export.ExportedProgram, context: ir.Context):
        named = list(program.state_dict.items()) + list(program.constants.items())
        self._names = {id(tensor): name for name, tensor in named}
        self._attributes = {}
        self._types = ContextCache(context)  # the importer's own is the private `node_importer._cc`
        self._literals = []  # see the class's docstring: no two literals share an id()

    def resolve_literal(self, node_importer, literal, info):
        self._literals.append(literal)
        if not isinstance(literal, torch.Tensor) or literal.numel() <= 1:
            return None
        if literal.dtype not in TORCH_DTYPE_TO_MLIR_TYPE or literal.dtype in (torch.bfloat16, torch.bool, torch.uint8):
            # numpy has no bfloat16, a blob of bools reads back as i8, and torch.vtensor.literal
            # types a signless blob as signed (uint8 became si8): the default path handles them
            return None
        attribute = self._attributes.get(id(literal))
        if attribute is None:
            array = literal.detach().contiguous().numpy()
            type_ = ir.RankedTensorType.get(list(literal.shape), _signless(TORCH_DTYPE_TO_MLIR_TYPE[literal.dtype]()))
            name = self._names.get(id(literal), "constant")
            attribute = ir.DenseResourceElementsAttr.get_from_buffer(array, name, type_)
            constant_values.register(attribute, array)  # constant folding reads weights from here
            self._attributes[id(literal)] = attribute
        result_type = self._types.tensor_to_vtensor_type(literal)
        return ir.Operation.create("torch.vtensor.literal", results=[result_type], attributes={"value": attribute}).result


@contextlib.contextmanager
def _non_persistent_buffers_in_state_dict(program: torch.export.ExportedProgram):
    """torch.export keeps non-persistent buffers (BERT's `position_ids`) in
    `constants`, but the frozen importer looks every buffer up in `state_dict`."""
    state_dict = program.state_dict
    added = [name for name in program.graph_signature.non_persistent_buffers if name not in state_dict]
    state_dict.update({name: program.constants[name] for name in added})
    try:
        yield
    finally:
        for name in added:
            del state_dict[name]


def _signless(element_type: ir.Type) -> ir.Type:
    """Builtin tensors (and so mlc constants) hold signless integers; the signedness
    stays in the torch type (`si64`)."""
    if isinstance(element_type, ir.IntegerType) and not element_type.is_signless:
        return ir.IntegerType.get_signless(element_type.width)
    return element_type


def _no_weights_in_lists(program: torch.export.ExportedProgram) -> None:
    """A weight or buffer inside a list argument (Swin's `table[[relative_position_index]]`)
    goes through an `aten.alias` first: the frozen importer puts each weight's tensor in
    place of its node, and a tensor inside a list of values it cannot import
    ("Heterogeneous lists are not supported")."""
    signature = program.graph_signature
    weights = {spec.arg.name for spec in signature.input_specs if spec.kind.name != "USER_INPUT"}
    graph = program.graph_module.graph
    for node in list(graph.nodes):
        for position, argument in enumerate(node.args):
            if not isinstance(argument, (list, tuple)):
                continue
            listed = [e for e in argument if isinstance(e, torch.fx.Node) and e.op == "placeholder" and e.name in weights]
            if not listed:
                continue
            aliases = {}
            with graph.inserting_before(node):
                for weight in listed:
                    aliases[weight] = graph.call_function(torch.ops.aten.alias.default, (weight,))
                    aliases[weight].meta = dict(weight.meta)
            node.update_arg(position, type(argument)(aliases.get(e, e) for e in argument))
    program.graph_module.recompile()


def import_program(program: torch.export.ExportedProgram, context: ir.Context, func_name: str = "main") -> ir.Module:
    """Imports an ExportedProgram and lowers it to torch-mlir's backend contract."""
    importer = FxImporter(context=context, hooks=WeightsByReference(program, context))
    _no_weights_in_lists(program)
    with _non_persistent_buffers_in_state_dict(program):
        try:
            importer.import_frozen_program(program, func_name=func_name)
        except (AssertionError, NotImplementedError, KeyError, TypeError, ValueError) as error:
            raise UserError(f"torch-mlir's FX importer failed on the exported model: {type(error).__name__}: "
                            f"{str(error).strip().splitlines()[0] if str(error).strip() else ''}") from error
    module = importer.module
    _reject_unknown_ops(module.operation)
    with context:
        pipeline = BACKEND_CONTRACT.format(legal=",".join(kept_whole()))
        crashed = crash_signal(lambda: _run_single_threaded(pipeline, module.operation))
        if crashed is not None:
            ops = sorted({op.name for op in module.body.operations[0].regions[0].blocks[0].operations
                          if op.name.startswith(("torch.aten.", "torch.prims."))})
            raise UserError(f"torch-mlir crashed ({crashed}) bringing the model to its backend contract; nothing "
                            f"else was lost (it ran in a copy of the process). The model's ops: {', '.join(ops)}")
        try:
            _run_single_threaded(pipeline, module.operation)  # as the child ran it
        except ir.MLIRError as error:
            collector = diagnostics.DiagnosticCollector()
            collector.add_error(error)
            raise UserError("torch-mlir could not bring the model to its backend contract:\n"
                            + "\n".join(d.format() for d in collector.diagnostics)) from None
    return module


def _run_single_threaded(pipeline: str, module: ir.Operation) -> None:
    """The pipeline without MLIR's worker threads: in a forked child (crash_guard) they do
    not exist, and the parent runs it as the child did (one function: nothing to share)."""
    module.context.enable_multithreading(False)
    try:
        passmanager.PassManager.parse(pipeline).run(module)
    finally:
        module.context.enable_multithreading(True)


def _reject_unknown_ops(module: ir.Operation) -> None:
    """Ops torch-mlir does not know arrive as `torch.operator`; its pipeline would
    stop at the first, so they are all reported here, at once."""
    unknown = []
    module.walk(lambda op: (unknown.append(op) if op.name == "torch.operator" else None) or ir.WalkResult.ADVANCE)
    if unknown:
        raise UserError(unsupported_report(unknown, {}))
