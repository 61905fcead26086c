"""`mlc-guard-reduction-rereads`: a reduction whose result is read through different
indexing maps reaches the later reads through a `util.optimization_barrier`.

IREE 3.13 fuses a reduction and the elementwise consumer that reads its result into
one dispatch, and its CPU and SPIR-V code for that dispatch is wrong when the consumer
reads the result twice through different maps: `s[:, None] + s[None, :]` of a row sum
`s`, a pairwise distance `sq[:, None] + sq[None, :] - 2 x @ x.T`, `x - m` next to
`m.T`, `t = exp(s)` read as `t[:, None]` and `t[None, :]`. Each tile computes the reduction for the positions of one read and serves them
to both (up to 135 absolute error on a 100 x 32 distance matrix). The random programs
found it (seed 7003). torch-mlir -> IREE has the same fault; IREE forms the dispatches
at -O0 and -O1, and for the ops mlc leaves outside its groups at -O2 (mlc's own dispatch
regions never fuse such a read).

The barrier is opaque to IREE's fusion, so the reads past it take the reduction's
result as a dispatch input; the first way of reading it stays fused. Reads are followed
through reshapes, transposes and broadcasts, which IREE folds into indexing maps; reads by different consumers
count too, since IREE's elementwise fusion may merge them, and so do the reads of every
elementwise result computed from the reduction's, which IREE fuses into its dispatch. Ops inside a
`flow.dispatch.region` are mlc's own regions and are left alone.

With `broadcasts` (every IREE target), a read that broadcasts such a value (its consumer
computes more elements than the value has, as `x - log(sum(exp(x), 0))` does) goes
through the barrier too: fused with it, IREE 3.13's SPIR-V code computed only the first
slice of the consumer along its outermost parallel axis (`log_softmax(x, dim=0)` of a
[6, 3, 2, 4] input: 48 of 144 elements right, the rest memory nothing wrote), and its
CPU code got a one-column matmul after a matmul and its bias, read broadcast, wrong
(`linear(linear(x, w, b), v).expand(...)`, seed 90072: 368 of 480 elements off).
"""

import dataclasses

from torch_mlir import ir

from ..dialects import iree_flow
from .registry import Pass, register

# Ops IREE folds into the indexing maps of their consumers: the read goes on through them.
VIEWS = ("tensor.expand_shape", "tensor.collapse_shape", "linalg.transpose", "linalg.broadcast")
# linalg ops with no reduction loop; every other linalg op but a generic reduces.
PARALLEL_NAMED = ("linalg.fill", "linalg.broadcast", "linalg.transpose", "linalg.copy", "linalg.map",
                  "linalg.elementwise", "linalg.index", "linalg.yield")


def _reduces(op: ir.Operation) -> bool:
    if op.name == "linalg.generic":
        return "reduction" in str(op.attributes["iterator_types"])
    return op.name.startswith("linalg.") and op.name not in PARALLEL_NAMED


def _elementwise(op: ir.Operation) -> bool:
    return op.name == "linalg.generic" and not _reduces(op)


def _reads(value: ir.Value, chain=()):
    """(consumer, operand number, chain of views) of each generic that reads `value`,
    directly or through views (`VIEWS`: their operand 0 is what they view), in the
    order the uses were made (MLIR lists a value's newest use first)."""
    for use in reversed(list(value.uses)):
        user = use.owner
        if user.name in VIEWS and use.operand_number == 0:
            yield from _reads(user.results[0], chain + (user,))
        elif user.name == "linalg.generic" and not iree_flow.in_dispatch_region(user):
            yield user, use.operand_number, chain


def _broadcasts(consumer: ir.Operation, operand: int, chain) -> bool:
    """Whether an elementwise consumer reads the value over fewer loop dimensions than it has."""
    if not _elementwise(consumer):
        return False
    map_ = ir.AffineMapAttr(ir.ArrayAttr(consumer.attributes["indexing_maps"])[operand]).value
    used = {expr.position for expr in map_.results if isinstance(expr, ir.AffineDimExpr)}
    return len(used) < map_.n_dims


def _pattern(consumer: ir.Operation, operand: int, chain) -> tuple:
    """How a read indexes the value: the views on the way and the consumer's map."""
    maps = ir.ArrayAttr(consumer.attributes["indexing_maps"])
    return tuple(str(op.results[0].type) for op in chain) + (str(ir.AffineMapAttr(maps[operand]).value),)


def _reroute(consumer: ir.Operation, operand: int, chain, source: ir.Value) -> None:
    """The consumer's operand, rebuilt from `source` through copies of the views."""
    value = source
    with ir.InsertionPoint(consumer):
        for view in chain:
            clone = view.clone()
            clone.operands[0] = value
            value = clone.results[0]
    consumer.operands[operand] = value


@register
class GuardReductionRereads(Pass):
    """Puts a barrier between a reduction and reads of its result through other maps."""

    name = "mlc-guard-reduction-rereads"
    broadcasts: bool = dataclasses.field(
        default=False, metadata={"help": "also a read that broadcasts the value (IREE's SPIR-V code: the GPU targets)"})

    def run(self, module):
        reductions = []
        module.walk(lambda op: (reductions.append(op) if _reduces(op) and not iree_flow.in_dispatch_region(op) else None)
                    or ir.WalkResult.ADVANCE)
        # The reductions' results and every elementwise result computed from them: IREE
        # may fuse any of them into the reduction's dispatch.
        values, seen = [result for op in reductions for result in op.results], set()
        while values:
            value = values.pop()
            if value in seen:
                continue
            seen.add(value)
            reads = list(_reads(value))
            spread = [read for read in reads if self.broadcasts and _broadcasts(*read)]
            if spread:
                self._reroute_through_barrier(value, spread)
            self._guard(value, [read for read in reads if read not in spread])
            values += [result for consumer, _, _ in reads if _elementwise(consumer) for result in consumer.results]

    def _reroute_through_barrier(self, value: ir.Value, reads: list) -> None:
        guarded = iree_flow.optimization_barrier(value)
        for read in reads:
            _reroute(*read, guarded)
        self.count("values read broadcast", len(reads))

    def _guard(self, value: ir.Value, reads: list) -> None:
        patterns = [_pattern(*read) for read in reads]
        if len(set(patterns)) < 2:
            return
        guarded = iree_flow.optimization_barrier(value)
        for read, pattern in zip(reads, patterns):
            if pattern != patterns[0]:
                _reroute(*read, guarded)
        self.count("values read through several maps")
