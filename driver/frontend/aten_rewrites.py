"""ATen calls rewritten in the exported program before torch-mlir imports it, where
torch-mlir's reading of a call differs from torch's own: each was a wrong result (or a
refused compile) on mlc's strict path and on the fallback alike, and each rewrite keeps
torch's meaning in a form torch-mlir reads right. `torch_import.prepare` applies them to
every program, exported by mlc or given to it (`mlc.compile(program)`, a .pt2 file);
a second application changes nothing.
"""

import math

import torch

__all__ = ["rewrite"]


def rewrite(program: torch.export.ExportedProgram) -> None:
    """Every rewrite below, in place; the graph module is regenerated only where one changed
    something (a second application, as export's program gets at import, costs a walk)."""
    changed = [public_embedding_bag(program), rolls_within_size(program), stable_sort(program),
               self_equality_keeps_nan(program)]
    if any(changed):
        program.graph_module.recompile()


# The private forms of embedding_bag, where padding_idx -1 means "no padding row".
PRIVATE_EMBEDDING_BAGS = frozenset({torch.ops.aten._embedding_bag.default,
                                    torch.ops.aten._embedding_bag_forward_only.default})


def public_embedding_bag(program: torch.export.ExportedProgram) -> bool:
    """`_embedding_bag` (a direct call, or what a decomposition of `embedding_bag` leaves)
    marks "no padding row" with padding_idx -1. torch-mlir renames it `embedding_bag.padding_idx`
    and keeps the -1, which that op reads as the last row: its rows were left out of
    every bag, a wrong sum with no error. The public op goes back in, with None for -1."""
    graph, changed = program.graph_module.graph, False
    for node in list(graph.nodes):
        if node.target not in PRIVATE_EMBEDDING_BAGS:
            continue
        changed = True
        arguments = torch.fx.operator_schemas.normalize_function(
            node.target, node.args, node.kwargs, normalize_to_only_use_kwargs=True).kwargs
        padding_idx = arguments.get("padding_idx", -1)
        arguments["padding_idx"] = None if padding_idx == -1 else padding_idx
        with graph.inserting_before(node):
            public = graph.call_function(torch.ops.aten.embedding_bag.padding_idx, (), arguments)
        public.meta = dict(node.meta)
        node.replace_all_uses_with(public)
        graph.erase_node(node)
    return changed


def rolls_within_size(program: torch.export.ExportedProgram) -> bool:
    """torch-mlir decomposes `roll` into two slices and a concat cut at `shift` itself,
    right only for 0 <= shift < size: a shift of -7 or 11 along a size-5 dim came out
    wrong (or refused by IREE). Each shift along a static size is taken modulo it here,
    as torch does (a whole turn is no roll at all); dims without a size known at export
    keep their shift."""
    changed = False
    for node in list(program.graph.nodes):
        if node.target is not torch.ops.aten.roll.default:
            continue
        arguments = torch.fx.operator_schemas.normalize_function(
            node.target, node.args, node.kwargs, normalize_to_only_use_kwargs=True).kwargs
        x = node.args[0]
        shape, shifts, dims = x.meta["val"].shape, list(arguments["shifts"]), list(arguments.get("dims") or [])
        sizes = [shape[d] for d in dims] if dims else [math.prod(shape)]
        normalized = [shift % size if isinstance(size, int) and size else shift for shift, size in zip(shifts, sizes)]
        if normalized == shifts:
            continue
        changed = True
        kept = [(shift, dim) for shift, dim in zip(normalized, dims or [None]) if shift]  # a whole turn moves nothing
        if not kept:
            node.replace_all_uses_with(x)
            program.graph.erase_node(node)
            continue
        new_shifts, new_dims = [shift for shift, _ in kept], [dim for _, dim in kept if dim is not None]
        node.args, node.kwargs = (x, new_shifts, new_dims), {}
    return changed


def stable_sort(program: torch.export.ExportedProgram) -> bool:
    """`torch.sort(x, stable=True)` exports as `sort.stable`, which torch-mlir does not
    know. mlc's argsort is stable whatever is asked, so it becomes the plain `sort`."""
    changed = False
    for node in program.graph.nodes:
        if node.target is not torch.ops.aten.sort.stable:
            continue
        changed = True
        dim, descending = node.kwargs.get("dim", -1), node.kwargs.get("descending", False)  # keyword-only in sort.stable
        node.target = torch.ops.aten.sort.default
        node.args, node.kwargs = (node.args[0], dim, descending), {}
    return changed


def self_equality_keeps_nan(program: torch.export.ExportedProgram) -> bool:
    """torch-mlir's canonicalizer folds `eq.Tensor(x, x)` to true, which is wrong where a
    float x is NaN: `x == x`, the usual test that x is not NaN, came out true everywhere.
    It becomes `logical_not(ne.Tensor(x, x))`, which torch-mlir leaves alone."""
    graph, changed = program.graph_module.graph, False
    for node in list(graph.nodes):
        if node.target is not torch.ops.aten.eq.Tensor or len(node.args) != 2 or node.args[0] is not node.args[1]:
            continue
        value = node.args[0].meta.get("val") if isinstance(node.args[0], torch.fx.Node) else None
        if not isinstance(value, torch.Tensor) or not (value.is_floating_point() or value.is_complex()):
            continue
        changed = True
        with graph.inserting_before(node):
            unequal = graph.call_function(torch.ops.aten.ne.Tensor, node.args)
            equal = graph.call_function(torch.ops.aten.logical_not.default, (unequal,))
        unequal.meta, equal.meta = dict(node.meta), dict(node.meta)
        node.replace_all_uses_with(equal)
        graph.erase_node(node)
    return changed
