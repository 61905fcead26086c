"""`torch.compile(model, backend="mlc")`: each graph Dynamo hands over runs as an mlc
executable (registered as a `torch_dynamo_backends` entry point, so no `import mlc`).

- The module's parameters reach a Dynamo graph as inputs. mlc holds them as the
  graph's weights, so that it folds batch norms into them and IREE packs them at
  compile time; every call checks that each is the same tensor at the same version,
  and recompiles when one changed rather than compute with stale weights.
- Sizes Dynamo made symbolic (`dynamic=True`, or its automatic dynamic on a new
  shape) become mlc's dynamic shapes: one executable for every size, its size inputs
  read from the tensors' shapes. Where mlc cannot compile the graph with dynamic
  sizes, it is specialized instead: one executable per concrete shape seen, cached,
  so a repeated shape never recompiles.
- A graph mlc cannot compile runs eagerly, with one warning saying why; so does a
  call that needs autograd (mlc compiles inference). Nothing here raises into the
  user's program but a bad option.
- Threads: compiles happen one at a time (`COMPILING`), each signature once. While
  torch.export traces, torch's FX-tracing flag is set for the whole process, and
  Dynamo would raise in another thread entering a compiled model; for that window
  Dynamo is told to run such a call eagerly instead (`error_on_nested_fx_trace`).
"""

import dataclasses
import re
import threading
import warnings
from collections.abc import Callable

import torch

from ...errors import UserError

OPTIONS = {"target": str, "opt_level": int, "precision": str}
COMPILING = threading.RLock()  # one compile at a time, in any graph of any thread
GRAPH_LOCATION = re.compile(r"^<eval_with_key>\S*: (error: )?")


@dataclasses.dataclass(frozen=True)
class Settings:
    target: str = "llvm-cpu"
    opt_level: int = 2
    precision: str = "f32"


def mlc_backend(graph: torch.fx.GraphModule, example_inputs, *, options: dict | None = None, **_mode) -> Callable:
    """The Dynamo backend: `options` are mlc.compile's `target`, `opt_level` and `precision`."""
    return CompiledGraph(graph, list(example_inputs), settings(options or {}))


def settings(options: dict) -> Settings:
    for name, value in options.items():
        if name not in OPTIONS:
            raise UserError(f"torch.compile backend 'mlc': unknown option '{name}' (known: {', '.join(OPTIONS)})")
        if not isinstance(value, OPTIONS[name]):
            raise UserError(f"torch.compile backend 'mlc': option '{name}' expects {OPTIONS[name].__name__}, "
                            f"got {value!r}")
    return Settings(**options)


class CompiledGraph:
    """One Dynamo graph: its executables by input signature, compiled on first use."""

    def __init__(self, graph: torch.fx.GraphModule, example_inputs: list, settings: Settings):
        self.graph = graph
        self.settings = settings
        self.weights = {i: (x, x._version) for i, x in enumerate(example_inputs) if isinstance(x, torch.nn.Parameter)}
        self.executables: dict[tuple, Callable | None] = {}  # None: runs eagerly
        self.warned: set[str] = set()
        self.sizes = symbolic_sizes(graph, set(self.weights))  # None: no symbolic sizes, or not from shapes
        self.dynamic: Callable | None = None

    def __call__(self, *args):
        if torch.is_grad_enabled() and any(isinstance(a, torch.Tensor) and a.requires_grad for a in args):
            self._warn_once("a call with autograd (wrap it in torch.no_grad()) runs eagerly: mlc compiles inference")
            return self.graph(*args)
        live = self._live(args)
        with COMPILING:  # the state below changes only here; calls run outside the lock
            if any(args[i] is not weight or weight._version != version
                   for i, (weight, version) in self.weights.items()):
                self._refreeze(args)
            if self.sizes is not None and self.dynamic is None:
                self.dynamic = self._compile_dynamic(args)
                self.sizes = self.sizes if self.dynamic is not None else None
            dynamic = self.dynamic
        if dynamic is not None:
            try:
                return dynamic(*live)
            except UserError:  # torch.export kept a size static after all: one executable per shape
                with COMPILING:
                    self.dynamic = self.sizes = None
        signature = self._signature(args)
        with COMPILING:
            if signature not in self.executables:
                self.executables[signature] = self._compile(args)
            executable = self.executables[signature]
        if executable is None:
            return self.graph(*args)
        return executable(*live)

    def _signature(self, args) -> tuple:
        """What an executable is specialized to: live tensors' shapes and dtypes, and ints' values."""
        return tuple((tuple(a.shape), a.dtype) if isinstance(a, torch.Tensor) else a
                     for i, a in enumerate(args) if i not in self.weights)

    def _refreeze(self, args) -> None:
        """A parameter was replaced or changed in place: the executables hold stale weights."""
        self.weights = {i: (args[i], args[i]._version) for i in self.weights}
        self.executables.clear()
        self.dynamic = None

    def _compile_dynamic(self, args) -> Callable | None:
        """One executable for all sizes, or None where mlc cannot compile this graph so."""
        from ..compile import compile_model

        specialized = Specialized(self.graph, args, set(self.weights), self.sizes.sources)
        try:
            with _exporting():
                return compile_model(specialized, self._live(args), target=self.settings.target,
                                     opt_level=self.settings.opt_level, precision=self.settings.precision,
                                     allow_fallback=True,
                                     dynamic_shapes={"tensors": self.sizes.dynamic_shapes})
        except Exception:  # noqa: BLE001 - then each shape gets its own executable
            return None

    def _live(self, args) -> tuple:
        """The arguments an executable takes: the tensors but the weights (sizes are read from them)."""
        return tuple(a for i, a in enumerate(args) if i not in self.weights and isinstance(a, torch.Tensor))

    def _compile(self, args) -> Callable | None:
        from ..compile import compile_model

        specialized = Specialized(self.graph, args, set(self.weights))
        try:
            with _exporting():
                return compile_model(specialized, self._live(args), target=self.settings.target,
                                     opt_level=self.settings.opt_level, precision=self.settings.precision,
                                     allow_fallback=True)
        except Exception as error:  # noqa: BLE001 - any failure of mlc's leaves the user's program running
            reason = " ".join(line.strip() for line in str(error).strip().splitlines()[:3]) or type(error).__name__
            reason = GRAPH_LOCATION.sub("", reason)  # the graph's own location says nothing; the ops' lines do
            self._warn_once(f"this graph runs eagerly: mlc could not compile it: {reason}")
            return None

    def _warn_once(self, message: str) -> None:
        if message not in self.warned:
            self.warned.add(message)
            warnings.warn(f"mlc (torch.compile backend): {message}", stacklevel=2)


def _exporting():
    """While torch.export traces (FX's tracing flag is process-wide), another thread
    entering a Dynamo-compiled model runs it eagerly instead of raising "Detected that
    you are using FX to symbolically trace a dynamo-optimized function"."""
    return torch._dynamo.config.patch(error_on_nested_fx_trace=False)


@dataclasses.dataclass(frozen=True)
class SymbolicSizes:
    """Where a Dynamo graph's symbolic sizes come from: each size input's (live tensor,
    dim), and the dims of the live tensors to export as dynamic."""

    sources: dict[int, tuple[int, int]]
    dynamic_shapes: tuple


def symbolic_sizes(graph: torch.fx.GraphModule, weights: set[int]) -> SymbolicSizes | None:
    placeholders = [node for node in graph.graph.nodes if node.op == "placeholder"]
    found: dict[str, tuple[int, int]] = {}  # symbol -> (live tensor, dim)
    dims, size_inputs, live = [], {}, 0
    for i, node in enumerate(placeholders):
        value = node.meta.get("example_value")
        if i in weights:
            continue
        if isinstance(value, torch.Tensor):
            symbolic = {d: str(size) for d, size in enumerate(value.shape) if isinstance(size, torch.SymInt)}
            for d, symbol in symbolic.items():
                found.setdefault(symbol, (live, d))
            dims.append({d: torch.export.Dim.AUTO for d in symbolic} or None)
            live += 1
        elif isinstance(value, torch.SymInt):
            size_inputs[i] = str(value)
    if not found or any(symbol not in found for symbol in size_inputs.values()):
        return None
    return SymbolicSizes({i: found[symbol] for i, symbol in size_inputs.items()}, tuple(dims))


class Specialized(torch.nn.Module):
    """A Dynamo graph with its parameters held as weights, and its size inputs read from
    the tensors' shapes (`sizes`: input -> (tensor, dim)) or else fixed: what
    torch.export, and so mlc, takes. Its inputs are the graph's other tensors."""

    def __init__(self, graph: torch.fx.GraphModule, args, weights: set[int], sizes: dict | None = None):
        super().__init__()
        self.graph = graph
        self.sizes = sizes or {}
        self.fixed = {i: a for i, a in enumerate(args)
                      if i not in weights and i not in self.sizes and not isinstance(a, torch.Tensor)}
        self.count = len(args)
        for i in weights:
            self.register_parameter(f"weight_{i}", torch.nn.Parameter(args[i].detach(), requires_grad=False))

    def forward(self, *tensors):
        live = iter(tensors)
        args = []
        for i in range(self.count):
            if hasattr(self, f"weight_{i}"):
                args.append(getattr(self, f"weight_{i}"))
            elif i in self.sizes:
                tensor, dim = self.sizes[i]
                args.append(tensors[tensor].shape[dim])
            elif i in self.fixed:
                args.append(self.fixed[i])
            else:
                args.append(next(live))
        return self.graph(*args)
