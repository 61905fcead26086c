"""`Compiled`: what `mlc.compile` returns. Call it like the model."""

import functools
import os
import weakref
from pathlib import Path

import numpy as np
import torch
import torch.utils._pytree as pytree

from ..errors import UserError
from . import atomic_file
from .backends import iree as iree_backend
from .backends import matmul_library
from .backends.fed_back_loop import FedBackLoop
from .backends.target import BoundTarget
from .backends.weight_store import WeightStore
from .failures import OutOfMemory
from .resident import Resident


class Compiled:
    """A model compiled by mlc: callable, with its IR at each level and its executable."""

    def __init__(self, *, program, ir_levels: dict[str, str], artifact: bytes, target: BoundTarget, report: dict,
                 parameters=None, owns_parameters: bool = False, plan=None, runtime_driver=None,
                 planned=()):
        self._program = program
        self._ir = ir_levels
        self.bound_target = target
        self.target = target.name
        self.report = report
        # the IREE parameter archive holding the large weights, or the WeightStore, if any
        self.parameters = parameters
        self._plan = plan  # the optimized graph's PlanGraph (driver/tools/plan_graph.py)
        self._planned = list(planned)  # what each dispatch runs (tools/profile.py), for profile()
        self.runtime_driver = runtime_driver  # IREE's: local-sync for small models on the CPU
        if owns_parameters:
            weakref.finalize(self, os.remove, parameters)
        self._main = target.load(artifact, parameters=parameters, driver=runtime_driver)
        # where the runtime holds the executable, it is read there: `artifact` is let go
        self._artifact = getattr(self._main, "executable", artifact)
        self._statistics = getattr(artifact, "statistics", {}), getattr(artifact, "cache", "off")
        self._out_spec = program.call_spec.out_spec  # call_spec builds a namedtuple type per access
        self._example = user_input_values(program)
        self._outputs = output_roles(program)
        self._unsigned = unsigned_results(program)

    def ir(self, level: str) -> str:
        """The module as text after a stage: "torch", "mlc" or "linalg"."""
        if level not in self._ir:
            raise UserError(f"unknown IR level '{level}' (known: {', '.join(self._ir)})")
        return self._ir[level]

    def graph(self, path: str | None = None) -> str:
        """The fusion plan as a self-contained HTML page (Graphviz lays it out): each fusion
        group a numbered box around its ops, each op's kind, shape and source line on hover.
        Written to `path` too, if given."""
        page = self._plan.html()
        if path is not None:
            with open(path, "w") as file:
                file.write(page)
        return page

    @property
    def artifact(self) -> bytes:
        """The executable (a `.vmfb` for IREE's targets, with IREE's dispatch statistics), a
        copy of what the runtime holds."""
        if isinstance(self._artifact, memoryview):
            return iree_backend.Executable.of(self._artifact, *self._statistics)
        return self._artifact

    @property
    def vmfb(self) -> bytes:
        """The IREE executable (for the IREE targets)."""
        if not self.bound_target.is_iree:
            raise UserError(f"target '{self.target}' builds no .vmfb")
        return self.artifact

    def save(self, path, params=None) -> None:
        """Writes the executable (a .vmfb for IREE's targets, which `iree-run-module` runs).
        With external parameters, also the archive: to `params`, by default `path` with the
        suffix .irpa (run both with `iree-run-module --module=m.vmfb --parameters=model=m.irpa`).
        An executable that runs matmuls on mlc's matmul library gets the plugin beside it
        (`libmlc_matmul.so`; run with `--executable_plugin=` that path)."""
        artifact = self.artifact
        atomic_file.write(path, artifact)  # each file whole or not at all
        if self.bound_target.is_iree and matmul_library.calls_plugin(artifact):
            matmul_library.copy_plugin(Path(path).parent)
        if isinstance(self.parameters, WeightStore):
            self.parameters.write_archive(Path(params) if params is not None else Path(path).with_suffix(".irpa"))
        elif self.parameters is not None:
            params = Path(params) if params is not None else Path(path).with_suffix(".irpa")
            if not (params.exists() and params.samefile(self.parameters)):
                atomic_file.copy(self.parameters, params)

    def profile(self, *args, calls: int = 20):
        """Times each dispatch of a call with `args` by IREE's profiler, in a process of its
        own: a `Profile`, slowest dispatch first, each with its fusion group and source
        lines; `str()` of it is a table. IREE's CPU target only."""
        from .tools.profile import profile  # a tool, loaded when asked for

        if not self.bound_target.profiles:
            raise UserError(f"profile() runs on the llvm-cpu target, not '{self.target}'")
        arrays = [self._check(i, arg) for i, arg in enumerate(self._flat_args(args))]
        if any(isinstance(array, Resident) for array in arrays):
            raise UserError("profile() takes tensors, not resident values (Resident.tensor() copies one out)")
        return profile(self.artifact, arrays, planned=self._planned, calls=calls, parameters=self.parameters,
                       driver=self.runtime_driver or "local-task")

    def __call__(self, *args):
        flat = self._flat_args(args)
        returned = self._run(flat)
        return self._outputs_of(flat, [_tensor(r) if isinstance(r, np.ndarray) else r for r in returned])

    def run_resident(self, *args, keep) -> list:
        """Calls it with the results at the indices `keep` left in IREE's memory, each a
        `Resident` that a later call (of this or another executable) takes in place of a
        tensor, with no copy either way: state that goes from one call into the next, as a
        generator's caches do. Returns the flat list of results; the model's in-place
        changes to its inputs are not written back. IREE's CPU target only."""
        if not self.bound_target.keeps_results:
            raise UserError(f"run_resident runs on the llvm-cpu target, not '{self.target}'")
        keep = set(keep)
        returned = self._run(self._flat_args(args), keep)
        results = [Resident(r, self._main.read) if i in keep else _tensor(r) if isinstance(r, np.ndarray) else r
                   for i, r in enumerate(returned)]
        for index, dtype in self._unsigned.items():
            if index not in keep:
                results[index] = results[index].view(dtype)
        return results

    def fed_back_loop(self, arrays: list, fed_back: dict[int, int], read) -> FedBackLoop:
        """Calls of it, each one's state results fed into the next, unchecked: for a loop
        whose first call went through `run_resident` (checked), as a generator's decode
        steps do. `arrays` are the first call's arguments: numpy arrays, and the kept
        results of that checked call as `Resident.take()` gives them. The result at index r
        becomes the argument at `fed_back[r]` of the next call; each call of the loop takes
        the other arguments, in order, and returns the results at the indices `read` as
        numpy arrays as IREE gives them (its integers are signless), leaving the others
        unread. Through `run_resident`, the checks and the wrapping of 26 values took 0.55
        ms of Llama's 5.4 ms int8 decode step, cold in the cache after the step's 100 MB of
        weights (backends/fed_back_loop.py). IREE's CPU target only."""
        if not self.bound_target.keeps_results:
            raise UserError(f"fed_back_loop runs on the llvm-cpu target, not '{self.target}'")
        return self._main.fed_back_loop([array[0] if isinstance(array, tuple) else array for array in arrays],
                                        dict(fed_back), list(read))

    def _run(self, flat: list, keep=frozenset()) -> list:
        arrays = [self._check(i, arg) for i, arg in enumerate(flat)]
        arrays = [array.take() if isinstance(array, Resident) else array for array in arrays]
        try:
            return self._main(*arrays, keep=keep) if keep else self._main(*arrays)
        except OutOfMemory as error:
            shapes = ", ".join(str(list(array.shape)) for array in arrays)
            raise OutOfMemory(f"the call with inputs of shape {shapes} {error}") from None

    def _outputs_of(self, flat: list, results: list):
        """The model's outputs, with its in-place changes to inputs written back."""
        for index, dtype in self._unsigned.items():  # IREE's integers are signless: uint8 comes back int8
            results[index] = results[index].view(dtype)
        outputs = []
        for changes, value in zip(self._outputs, results):
            if changes is None:
                outputs.append(value)
            else:  # `x.add_(1)` in the model changes the caller's x, as it does eagerly
                flat[changes].copy_(value)
        return pytree.tree_unflatten(outputs, self._out_spec)

    def _flat_args(self, args):
        for index, arg in enumerate(args):  # a nested list of numbers would flatten into many "inputs"
            if isinstance(arg, (list, tuple)) and not any(isinstance(leaf, (torch.Tensor, np.ndarray))
                                                          for leaf in pytree.tree_leaves(arg)):
                raise UserError(f"input {index}: expected a tensor, got a {type(arg).__name__} "
                                f"(torch.tensor(...) makes one)")
        flat = pytree.tree_leaves(args)
        if len(flat) != len(self._example):
            raise UserError(f"expected {len(self._example)} input(s), got {len(flat)}")
        return flat

    def _check(self, index, arg) -> np.ndarray | Resident:
        expected = self._example[index]
        if isinstance(arg, Resident):
            return self._checked_resident(index, arg, expected)
        if isinstance(arg, np.ndarray):
            arg = torch.from_numpy(arg)
        if not isinstance(arg, torch.Tensor):
            raise UserError(f"input {index}: expected a tensor, got {type(arg).__name__}")
        if arg.device.type != "cpu":  # mlc hands IREE host memory; IREE copies it to the target's device
            raise UserError(f"input {index}: expected a tensor in CPU memory, got one on '{arg.device}' "
                            f"(.cpu() moves it)")
        if arg.dtype != expected.dtype:
            raise UserError(f"input {index}: expected dtype {expected.dtype}, got {arg.dtype}")
        if not shape_matches(arg.shape, expected.shape):
            raise UserError(f"input {index}: expected shape {list(expected.shape)}, got {list(arg.shape)}")
        return iree_backend.host_array(arg)

    @functools.cached_property
    def _resident_types(self) -> list[tuple]:
        """(shape, numpy dtype) of each input, as a Resident for it has them: a decode step
        checks its 24 caches at every call."""
        return [(tuple(expected.shape), _host_dtype(expected.dtype)) for expected in self._example]

    def _checked_resident(self, index, arg: Resident, expected) -> Resident:
        if not self.bound_target.keeps_results:
            raise UserError(f"input {index}: a Resident goes to an executable for llvm-cpu, not '{self.target}'")
        if (arg.shape, arg.dtype) != self._resident_types[index]:
            raise UserError(f"input {index}: expected a {list(expected.shape)} {expected.dtype} tensor, got a "
                            f"resident {list(arg.shape)} {arg.dtype}")
        return arg


@functools.cache
def _host_dtype(dtype: torch.dtype) -> np.dtype:
    """The numpy dtype IREE holds a tensor of `dtype` in (host_array's). Once per dtype: a
    decode step checks each of its caches (GPT-2: 24), and making an empty tensor for each
    took 0.3 ms of a 6 ms step."""
    return iree_backend.host_array(torch.empty(0, dtype=dtype)).dtype


def _tensor(array: np.ndarray) -> torch.Tensor:
    """A result as a tensor; torch.from_numpy has no bfloat16 (IREE gives ml_dtypes'), so its bits go as uint16."""
    if array.dtype.name == "bfloat16":
        return torch.from_numpy(array.view(np.uint16)).view(torch.bfloat16)
    return torch.from_numpy(array)


def user_input_values(program) -> list:
    """The example value (a fake tensor: dtype and shape, symbolic sizes where dynamic) of
    each input the caller passes, in order; weights and buffers are not among them."""
    user_inputs = {spec.arg.name for spec in program.graph_signature.input_specs if spec.kind.name == "USER_INPUT"}
    return [node.meta["val"] for node in program.graph.nodes if node.op == "placeholder" and node.name in user_inputs]


def output_roles(program) -> list[int | None]:
    """For each result of the executable: None for one of the model's own results, or the
    position of the user input it is the new value of (the model changed it in place).
    A buffer the model changes is refused: mlc compiles buffers as constants."""
    signature = program.graph_signature
    user_inputs = [spec.arg.name for spec in signature.input_specs if spec.kind.name == "USER_INPUT"]
    roles = []
    for spec in signature.output_specs:
        if spec.kind.name == "BUFFER_MUTATION":
            raise UserError(f"the model changes its buffer '{spec.target}' when called (a BatchNorm in training mode? "
                            "call model.eval()); mlc compiles buffers as constants")
        roles.append(user_inputs.index(spec.target) if spec.kind.name == "USER_INPUT_MUTATION" else None)
    return roles


def unsigned_results(program) -> dict[int, torch.dtype]:
    """The results of unsigned integer types (uint8), by position: IREE returns them as
    the signed type of their width, the same bits."""
    output = next(node for node in program.graph.nodes if node.op == "output")
    unsigned = {}
    for index, node in enumerate(output.args[0]):
        value = node.meta.get("val") if isinstance(node, torch.fx.Node) else None
        if isinstance(value, torch.Tensor) and value.dtype in (torch.uint8, torch.uint16, torch.uint32, torch.uint64):
            unsigned[index] = value.dtype
    return unsigned


def shape_matches(actual, expected) -> bool:
    """Static dims must match; dims torch.export made symbolic accept any size."""
    return len(actual) == len(expected) and all(
        not isinstance(e, int) or a == e for a, e in zip(actual, expected)
    )
