"""`mlc.coverage` and `mlc-compile --coverage`: what mlc can do with a model's ops,
before compiling it.

Per torch op type: how many there are and where; whether each converts to mlc
(and into which mlc ops), whether those lower to linalg, whether torch-mlir's
fallback lowers it when mlc cannot, and whether each target compiles it. Every
answer comes from really running the stage: each op instance is extracted into a
small function of its own (scalar and list operands kept as constants,
tensor operands as arguments), which is converted, lowered and compiled by each
target's compiler. Instances with one signature (the op, its constant operands,
the ranks and element types of its tensors; not their sizes) are checked once,
on the first of them; compiles are cached for the process, and the IREE targets
compile all functions in one module, so a ResNet-18 takes seconds per target.
"""

import collections
import dataclasses
import re

from torch_mlir import ir
from torch_mlir.dialects import func

from ... import pipelines
from ...dialects import make_context
from ...dialects.data_ops import ConstantOp
from ...dialects.locations import source_line
from ...dialects.op_base import op_classes
from ...errors import UserError
from ...passes.convert_torch_to_mlc import OPERAND_PRODUCERS, op_name, torch_ops
from ...passes.convert_torch_to_mlc.patterns import NotConvertible, builtin_tensor_type
from ...pipelines.torch_to_mlc import TORCH_TO_MLC, torch_to_mlc
from ..backends import targets as target_registry
from ..compilation import export_model, run_stage
from ..frontend import torch_import

VIA_FALLBACK = "*"
NOT_COMPILED = "not compiled: "  # a target verdict that follows from an earlier failure
_LOCATION_PREFIX = re.compile(r"^(?:.*?:\d+:\d+: |loc\([^)]*\): )?(?:error: )?")
_VTENSOR_DIMS = re.compile(r"(?<=vtensor<)\[([^\]]+)\]")
_TENSOR_DIMS = re.compile(r"tensor<(?:[0-9?]+x)+")
_CACHE: dict[tuple, "Verdict"] = {}  # (target, linalg module text) -> verdict, for the process


@dataclasses.dataclass(frozen=True)
class Verdict:
    """Whether a check passed; `detail` is the reason when it did not."""

    ok: bool
    detail: str = ""


@dataclasses.dataclass
class OpCoverage:
    """One torch op type of the model. `converts`, `lowers` and each target hold a
    verdict for every instance signature; a failure names its source lines."""

    op: str
    count: int
    sources: list[str]
    mlc_ops: list[str]
    converts: Verdict
    lowers: Verdict | None  # None: it does not convert, so there is nothing to lower
    fallback: Verdict | None  # None: mlc converts it, no fallback needed
    targets: dict[str, Verdict]
    via_fallback: bool  # the targets were checked on torch-mlir's lowering of it

    def failures(self) -> list[str]:
        """One line per failed check: what failed, why, and where."""
        checks = [("", self.converts), (" lowering to linalg", self.lowers),
                  (" fallback to torch-mlir", self.fallback if not self.converts.ok else None)]
        checks += [(f" on {name}{' (via fallback)' if self.via_fallback else ''}", verdict)
                   for name, verdict in self.targets.items()]
        return [f"{self.op}{check}: {verdict.detail}" for check, verdict in checks
                if verdict and not verdict.ok and not verdict.detail.startswith(NOT_COMPILED)]


@dataclasses.dataclass
class CoverageReport:
    """The coverage of one model: a row per torch op type, most frequent first."""

    rows: list[OpCoverage]
    targets: list[str]

    def row(self, op: str) -> OpCoverage:
        return next(row for row in self.rows if row.op == op)

    def to_dict(self) -> dict:
        return {"targets": self.targets, "ops": [dataclasses.asdict(row) for row in self.rows]}

    def __str__(self) -> str:
        return format_table(self)


def _mark(verdict: Verdict | None, via_fallback: bool = False) -> str:
    if verdict is None:
        return "-"
    return ("yes" + (VIA_FALLBACK if via_fallback else "")) if verdict.ok else "no"


def format_table(report: CoverageReport) -> str:
    header = ["torch op", "count", "converts to mlc", "lowers", *report.targets, "fallback"]
    table = [header]
    for row in report.rows:
        converts = (", ".join(row.mlc_ops) or "yes") if row.converts.ok else "no"
        table.append([row.op, str(row.count), converts, _mark(row.lowers),
                      *(_mark(row.targets[name], row.via_fallback) for name in report.targets),
                      _mark(row.fallback if not row.converts.ok else None)])
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) if i != 1 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
             .rstrip() for line in table]
    total = sum(row.count for row in report.rows)
    converting = sum(row.count for row in report.rows if row.converts.ok)
    lines.append(f"{total} torch op(s) of {len(report.rows)} kind(s); {converting} convert to mlc. "
                 f"{VIA_FALLBACK}: compiled through torch-mlir's fallback (on by default; --no-fallback refuses it)")
    failures = [line for row in report.rows for line in row.failures()]
    if failures:
        lines += ["failures:", *(f"  {line}" for line in failures)]
    return "\n".join(lines)


# --- extracting one op into a function of its own --------------------------------------

def _producer(value: ir.Value):
    owner = value.owner
    return None if isinstance(owner, ir.Block) else owner


def _zero_literal(op: ir.Operation) -> ir.Operation:
    """A `torch.vtensor.literal` of the same type holding zeros: weights matter to
    no check, and their size would slow every compile (other dtypes: a copy)."""
    try:
        tensor = builtin_tensor_type(op.results[0].type)
    except NotConvertible:
        return op.clone().operation
    element = tensor.element_type
    if isinstance(element, ir.ComplexType):
        return op.clone().operation
    zero = ir.FloatAttr.get(element, 0.0) if not isinstance(element, ir.IntegerType) else ir.IntegerAttr.get(element, 0)
    return ir.Operation.create("torch.vtensor.literal", results=[op.results[0].type],
                               attributes={"value": ir.DenseElementsAttr.get_splat(tensor, zero)})


def _is_constant(op) -> bool:
    """Scalar and list operands stay constants (conversions read them); tensors,
    weights included, become arguments, as IREE treats weights as opaque globals."""
    return op is not None and op.name.startswith(OPERAND_PRODUCERS)


def _constants_and_arguments(op: ir.Operation) -> tuple[list, list]:
    """The constant producers `op` needs (operands first) and its other operands."""
    constants, arguments = [], []

    def visit(target):
        for value in target.operands:
            producer = _producer(value)
            if _is_constant(producer) and producer != op:
                if not any(producer == seen for seen in constants):
                    visit(producer)
                    constants.append(producer)
            elif not any(value == seen for seen in arguments):
                arguments.append(value)

    visit(op)
    return constants, arguments


def extract(op: ir.Operation) -> str:
    """A module holding `func.func @main` that computes `op` alone, as text without
    locations (so it is also the signature its checks are cached by). A weight
    (`torch.vtensor.literal`) becomes a zero splat of its type."""
    with op.context, ir.Location.unknown():
        constants, arguments = _constants_and_arguments(op)
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            function = func.FuncOp("main", ([a.type for a in arguments], [r.type for r in op.results]),
                                   visibility="public")
            block = function.add_entry_block()
        mapping = list(zip(arguments, block.arguments))
        with ir.InsertionPoint(block):
            for original in [*constants, op]:
                if original.name == "torch.vtensor.literal":
                    copy = _zero_literal(original)
                else:
                    copy = original.clone().operation
                    for old, new in mapping:
                        copy.replace_uses_of_with(old, new)
                mapping += list(zip(original.results, copy.results))
            func.ReturnOp(list(copy.results))
        return str(module)


def signature_key(extracted: str) -> str:
    """What instances share one check: the op, its constant operands, and the
    ranks and element types of its tensors, but not their sizes."""
    text = _VTENSOR_DIMS.sub(lambda m: "[" + ",".join("d" for _ in m.group(1).split(",")) + "]", extracted)
    return _TENSOR_DIMS.sub(lambda m: "tensor<" + "dx" * m.group(0).count("x"), text)


# --- the checks -----------------------------------------------------------------------

def _reason(error: Exception) -> str:
    """The first line of an error, without the location mlc's diagnostics put first."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return _LOCATION_PREFIX.sub("", text, count=1)


def _declined(error: UserError) -> str | None:
    """Why a pass declined the one op of a signature, as the pass said it (StageFailure)."""
    return next(iter(getattr(error, "declined", {}).values()), None)


def _run(text: str, context: ir.Context, stages: list[tuple[str, list]]) -> ir.Module:
    try:
        module = ir.Module.parse(text, context)
    except ir.MLIRError as error:  # an op using values from above cannot stand alone
        raise UserError(f"cannot be checked on its own: {error.error_diagnostics[0].message}") from None
    for stage, elements in stages:
        run_stage(stage, elements, module.operation)
    return module


def _mlc_op_names(module: ir.Module) -> list[str]:
    names = collections.Counter()
    module.operation.walk(lambda op: names.update([op.name]) or ir.WalkResult.ADVANCE)
    registered = {cls.OPERATION_NAME for cls in op_classes()}
    found = [name for name in names if name in registered]
    return [name for name in found if name != ConstantOp.OPERATION_NAME] or found


@dataclasses.dataclass
class _Signature:
    """The checks of one extracted function, shared by the instances it stands for."""

    text: str
    mlc_ops: list[str] = dataclasses.field(default_factory=list)
    converts: Verdict = Verdict(False)
    lowers: Verdict | None = None
    fallback: Verdict | None = None
    linalg: str | None = None  # the module the targets compile, when there is one


def _check_signature(text: str, context: ir.Context) -> _Signature:
    signature = _Signature(text)
    try:
        module = _run(text, context, [("torch to mlc", TORCH_TO_MLC)])
        signature.converts, signature.mlc_ops = Verdict(True), _mlc_op_names(module)
    except UserError as error:
        signature.converts = Verdict(False, _declined(error) or "no conversion to mlc")
    if signature.converts.ok:
        try:
            lowered = _run(str(module), context, [("lowering", pipelines.get("O0").lowering())])
            signature.lowers, signature.linalg = Verdict(True), str(lowered)
        except UserError as error:
            signature.lowers = Verdict(False, _reason(error))
        return signature
    try:
        lowered = _run(text, context, [("torch to mlc with fallback", torch_to_mlc(True))])
        signature.fallback, signature.linalg = Verdict(True), str(lowered)
    except UserError as error:
        signature.fallback = Verdict(False, _declined(error) or _reason(error))
    return signature


def _verdict(target, module: ir.Operation) -> Verdict:
    """Whether the bound `target`'s compiler takes the module (mlir-cpu also JIT-compiles it)."""
    try:
        artifact = target.compile(module)
        if not target.is_iree:
            target.load(artifact)
        return Verdict(True)
    except UserError as error:
        return Verdict(False, _reason(UserError(str(error).replace("\n", " "))))


def _compile_one(target, linalg: str, context: ir.Context) -> Verdict:
    key = (target.name, linalg)
    if key not in _CACHE:
        _CACHE[key] = _verdict(target, ir.Module.parse(linalg, context).operation)
    return _CACHE[key]


def _one_module(texts: list[str], context: ir.Context) -> str:
    """The functions of several modules in one, renamed apart."""
    combined = ir.Module.parse(texts[0], context)
    parts = [ir.Module.parse(text, context) for text in texts[1:]]  # alive until their functions moved out
    last = combined.body.operations[0]
    for index, part in enumerate(parts, start=1):
        function = part.body.operations[0]
        function.attributes["sym_name"] = ir.StringAttr.get(f"op{index}", context)
        function.move_after(last)
        last = function
    return str(combined)


def _compile_iree_together(chosen: list, texts: list[str], context: ir.Context) -> None:
    """Fills the cache for IREE targets with one compile of all functions per
    target; a target that fails is checked function by function later."""
    pending = [text for text in dict.fromkeys(texts) if any((target.name, text) not in _CACHE for target in chosen)]
    if len(pending) < 2:
        return
    combined = ir.Module.parse(_one_module(pending, context), context).operation
    for target in chosen:
        if _verdict(target, combined).ok:
            _CACHE.update({(target.name, text): Verdict(True) for text in pending})


def _combine(verdicts: list[tuple[Verdict, list[str]]]) -> Verdict:
    """One verdict for an op type from its signatures' (verdict, source lines)."""
    failed = [(verdict, places) for verdict, places in verdicts if not verdict.ok]
    if not failed:
        return Verdict(True)
    details = []
    for verdict, places in failed:
        unique = list(dict.fromkeys(places))
        details.append(f"{verdict.detail} (at {', '.join(unique[:5])}{' ...' if len(unique) > 5 else ''})")
    return Verdict(False, "; ".join(dict.fromkeys(details)))


def module_coverage(module: ir.Operation, targets=None, *, level: str = "torch", skip_source=None) -> CoverageReport:
    """The coverage report of a torch-level module (`level` says what it is); ops from
    the file `skip_source` (stand-ins the caller put in) are not reported."""
    if level != "torch":
        raise UserError(f"coverage starts from torch ops, but the input is already at level '{level}': "
                        "give the model, a .pt2, or an .mlir at torch level")
    names = list(targets or target_registry.TARGETS)
    bound = {name: target_registry.bind(name) for name in names}  # each with its default options
    context = module.context
    instances = collections.defaultdict(list)  # op type -> [(signature text, source line)]
    for op in torch_ops(module):
        place = source_line(op.location)
        if skip_source is None or not place.startswith(skip_source):
            instances[op_name(op)].append((extract(op), place))
    signatures = {}  # signature key -> the checks of its first instance
    for entries in instances.values():
        for text, _ in entries:
            if signature_key(text) not in signatures:
                signatures[signature_key(text)] = _check_signature(text, context)
    linalg = list(dict.fromkeys(s.linalg for s in signatures.values() if s.linalg is not None))
    _compile_iree_together([target for target in bound.values() if target.is_iree], linalg, context)
    compiled = {name: {text: _compile_one(bound[name], text, context) for text in linalg} for name in names}
    rows = [_row(op, entries, signatures, compiled, names) for op, entries in instances.items()]
    rows.sort(key=lambda row: (-row.count, row.op))
    return CoverageReport(rows=rows, targets=names)


def _nothing_to_compile(signature: _Signature) -> Verdict:
    if signature.converts.ok:
        return Verdict(False, NOT_COMPILED + "mlc's lowering to linalg fails")
    return Verdict(False, NOT_COMPILED + "neither mlc nor torch-mlir lowers it")


def _row(op: str, entries: list, signatures: dict, compiled: dict, names: list[str]) -> OpCoverage:
    by_signature = collections.defaultdict(list)
    for text, place in entries:
        by_signature[signature_key(text)].append(place)
    checked = [(signatures[key], places) for key, places in by_signature.items()]
    converts = _combine([(s.converts, places) for s, places in checked])
    lowers = _combine([(s.lowers, places) for s, places in checked if s.lowers]) if converts.ok else None
    fallback = None if converts.ok else _combine(
        [(s.fallback or Verdict(True), places) for s, places in checked])
    per_target = {}
    for name in names:
        per_target[name] = _combine([(compiled[name][s.linalg] if s.linalg else _nothing_to_compile(s), places)
                                     for s, places in checked])
    mlc_ops = list(dict.fromkeys(name for s, _ in checked for name in s.mlc_ops))
    return OpCoverage(op=op, count=len(entries), sources=list(dict.fromkeys(p for _, p in entries)),
                      mlc_ops=mlc_ops, converts=converts, lowers=lowers, fallback=fallback,
                      targets=per_target, via_fallback=not converts.ok)


def coverage(model, example_args, *, dynamic_shapes=None, targets=None) -> CoverageReport:
    """See `mlc.coverage`. Ops torch-mlir has no op for get a row of their own (they stop
    every path); the rest of the model is checked with zeros standing in for them."""
    return program_coverage(export_model(model, example_args, dynamic_shapes=dynamic_shapes), targets)


def program_coverage(program, targets=None) -> CoverageReport:
    """The coverage report of an exported program (see `coverage`)."""
    program, unknown = torch_import.stand_in_unknown_ops(program)
    module = torch_import.import_program(program, make_context()).operation
    report = module_coverage(module, targets, skip_source=torch_import.STAND_IN)
    report.rows += [_unknown_row(op, sources, report.targets) for op, sources in unknown.items()]
    report.rows.sort(key=lambda row: (-row.count, row.op))
    return report


def _unknown_row(op: str, sources: list[str], names: list[str]) -> OpCoverage:
    where = f" (at {', '.join(dict.fromkeys(sources))})"
    return OpCoverage(op=op, count=len(sources), sources=list(dict.fromkeys(sources)), mlc_ops=[],
                      converts=Verdict(False, "torch-mlir has no op for it, so no conversion to mlc" + where),
                      lowers=None, fallback=Verdict(False, "torch-mlir has no op for it" + where),
                      targets={name: Verdict(False, NOT_COMPILED + "neither mlc nor torch-mlir lowers it")
                               for name in names},
                      via_fallback=True)
