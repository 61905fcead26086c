"""Runs a parsed pipeline: one MLIR PassManager in which mlc's Python passes
sit between runs of upstream passes, in the order the pipeline gives."""

import contextlib
import dataclasses
import os
import re
import sys
import tempfile
import time
import traceback

from torch_mlir import ir, passmanager

from ..errors import UserError
from ..passes import registry
from .textual import SOURCE_NAME, Anchor, PassElement, parse_pipeline


@dataclasses.dataclass
class PassRecord:
    """What one mlc pass did in a run: its statistics and its time."""

    name: str
    statistics: dict
    seconds: float


def _ops_named(root: ir.Operation, op_name: str) -> list[ir.Operation]:
    found = []

    def visit(op):
        if op.name == op_name:
            found.append(op)
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


@contextlib.contextmanager
def _captured_native_stderr(lines: list):
    """LLVM's option parser writes to file descriptor 2 itself; keep that text for
    the one error mlc reports instead."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as capture:
        os.dup2(capture.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            capture.seek(0)
            lines += [line.strip() for line in capture.read().decode(errors="replace").splitlines() if line.strip()]


def _upstream_error(element: PassElement, error: ValueError, native: list[str]) -> UserError:
    message = str(error)
    location = f"{SOURCE_NAME}:1:{element.column + 1}"
    if "does not refer to a registered pass" in message:
        return UserError(f"unknown pass '{element.name}' (mlc-opt --list-passes lists them)", location)
    option = re.search(r"no such option (\S+)", message)
    if option:
        return UserError(f"pass '{element.name}' has no option '{option.group(1)}'", location)
    first_line = next((line for line in message.splitlines() if line.strip()), message)
    reason = native[0].lstrip(": ").rstrip("!") if native else first_line
    return UserError(f"invalid pass '{element.text()}': {reason}", location)


def _elements(pipeline) -> list:
    if isinstance(pipeline, Anchor):
        return pipeline.elements
    if isinstance(pipeline, str):
        return parse_pipeline(pipeline).elements
    elements = []
    for item in pipeline:
        elements += [item] if isinstance(item, registry.Pass) else parse_pipeline(f"builtin.module({item})").elements
    return elements


def _check_upstream(element) -> None:
    """Lets MLIR parse one upstream element now, so a typo is reported with its column."""
    if isinstance(element, Anchor):
        for child in element.elements:
            _check_upstream(child)
        return
    if isinstance(element, registry.Pass) or element.is_mlc():
        return
    native: list[str] = []
    try:
        with _captured_native_stderr(native):
            passmanager.PassManager().add(element.text())
    except ValueError as error:
        raise _upstream_error(element, error, native) from None


class PipelineRunner:
    """Builds the PassManager for a pipeline and runs it on modules."""

    def __init__(self, pipeline: str | Anchor | list, *, context: ir.Context):
        """`pipeline` is pipeline text, a parsed Anchor, or a list whose items are
        pipeline text elements ("mlc-fuse", "func.func(cse)") or Pass instances."""
        self.records: list[PassRecord] = []
        self.internal_errors: list[str] = []  # the passes that raised (mlc's bugs), by name
        self.declined: dict[str, str] = {}  # the ops a failing pass declined, with the reason
        elements = _elements(pipeline)
        with context:
            for element in elements:
                _check_upstream(element)
            self.pass_manager = passmanager.PassManager("builtin.module")
            self._add(elements, anchors=[])

    def enable_ir_printing(self) -> None:
        self.pass_manager.enable_ir_printing(print_after_all=True)

    def enable_timing(self) -> None:
        self.pass_manager.enable_timing()

    def run(self, module: ir.Operation) -> None:
        """Runs the pipeline; raises ir.MLIRError carrying the diagnostics on failure."""
        self.pass_manager.run(module)

    def _add(self, elements, anchors: list[str]) -> None:
        upstream: list[str] = []

        def flush():
            if upstream:
                text = ",".join(upstream)
                for anchor in reversed(anchors):
                    text = f"{anchor}({text})"
                self.pass_manager.add(text)
                upstream.clear()

        for element in elements:
            if isinstance(element, registry.Pass):
                flush()
                self.pass_manager.add(self._python_pass(element, anchors), name=element.name)
            elif isinstance(element, Anchor) and element.has_mlc_pass():
                flush()
                self._add(element.elements, anchors + [element.op_name])
            elif isinstance(element, PassElement) and element.is_mlc():
                flush()
                pass_ = registry.create(element.name, element.options)
                self.pass_manager.add(self._python_pass(pass_, anchors), name=pass_.name)
            else:
                upstream.append(element.text())
        flush()

    def _python_pass(self, pass_: registry.Pass, anchors: list[str]):
        def run(module, external_pass):
            start = time.perf_counter()
            targets = [module]
            for anchor in anchors:
                targets = [op for target in targets for op in _ops_named(target, anchor)]
            try:
                with module.context, module.location:
                    for target in targets:
                        pass_.run(target)
            except registry.PassFailure as failure:
                self.declined.update(failure.declined)
                external_pass.signal_pass_failure()
            except UserError as error:
                module.location.emit_error(str(error))
                external_pass.signal_pass_failure()
            except Exception:  # a bug in the pass: report it as a located internal error
                self.internal_errors.append(pass_.name)
                module.location.emit_error(
                    f"internal error in pass '{pass_.name}':\n{traceback.format_exc()}"
                )
                external_pass.signal_pass_failure()
            self.records.append(PassRecord(pass_.name, dict(pass_.statistics), time.perf_counter() - start))

        return run
