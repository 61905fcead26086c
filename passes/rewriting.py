"""One base for mlc's rewriting passes: a pattern decides first and builds after, and
a pass only gathers its patterns.

A `Pattern` rewrites ops of one class. `match(op)` decides, and returns what the
rewrite needs (None: no match); it runs with its insertion point in a scratch
block, and an op built there is an error of the pattern (it is erased, and the pass
fails loudly). `rewrite(op, matched)` builds the replacement at the op and returns
the value(s) that replace its results; it must not decline. A pattern that
built IR and then reported no match left ops behind and kept the greedy driver from
converging (`flip`, `clamp_tensor`, and the size arithmetic of 63245f2): the split
makes that impossible. The base counts each applied pattern under its `statistic`.

A `PatternPass` lists its patterns in `patterns()`; the base applies them with
MLIR's greedy driver, again while any applied (one rewrite can enable another that
the driver's worklist has already passed).
"""

from typing import Any, ClassVar

from torch_mlir import ir, rewrite

from .registry import Pass


class Pattern:
    """One rewrite of ops of class `op`, counted under `statistic`."""

    op: ClassVar[type]
    statistic: ClassVar[str]

    def match(self, op) -> Any | None:
        """What `rewrite` needs when `op` matches, else None. Builds nothing."""
        raise NotImplementedError

    def rewrite(self, op, matched) -> ir.Value | list[ir.Value]:
        """The value(s) replacing `op`'s results, built at `op`."""
        raise NotImplementedError

    def counted_as(self, op, matched) -> str | dict[str, int]:
        """The statistic one application adds to (or each statistic and by how much)."""
        return self.statistic


class PatternPass(Pass):
    """A pass whose body is its patterns (see the module docstring)."""

    def patterns(self) -> list[Pattern]:
        raise NotImplementedError

    def run(self, module: ir.Operation) -> None:
        self.apply(module, self.patterns())
        self.finish(module)

    def apply(self, module: ir.Operation, patterns: list[Pattern]) -> None:
        """Applies `patterns` greedily, again while any applied."""
        scratch = ir.Module.create(ir.Location.unknown(module.context))
        applied = -1
        while applied != sum(self.statistics.values()):
            applied = sum(self.statistics.values())
            pattern_set = rewrite.RewritePatternSet()
            for pattern in patterns:
                pattern_set.add(pattern.op, self._apply(pattern, scratch.body))
            rewrite.apply_patterns_and_fold_greedily(module, pattern_set.freeze())

    def finish(self, module: ir.Operation) -> None:
        """After the rewrites: count what stayed, and why."""

    def _apply(self, pattern: Pattern, scratch: ir.Block):
        """`pattern` as MLIR's Python rewrite driver takes it (a truthy result: no match)."""

        def apply(op, rewriter) -> bool:
            with ir.InsertionPoint(scratch), op.location:
                matched = pattern.match(op)
            built = list(scratch.operations)
            if built:
                for stray in reversed(built):
                    stray.erase()
                raise AssertionError(f"{type(pattern).__name__}.match built {built[0].name}: it must only decide")
            if matched is None:
                return True
            with rewriter.ip, op.location:
                replacement = pattern.rewrite(op, matched)
            if replacement is None:
                raise AssertionError(f"{type(pattern).__name__} matched {op.name} and then built no replacement")
            rewriter.replace_op(op, replacement if isinstance(replacement, list) else [replacement])
            counted = pattern.counted_as(op, matched)
            for statistic, amount in (counted.items() if isinstance(counted, dict) else [(counted, 1)]):
                self.count(statistic, amount)
            return False

        return apply
