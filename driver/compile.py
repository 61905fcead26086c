"""`mlc.compile`: a PyTorch model to a callable `Compiled`, a thin client of `Compilation`.

The target is looked up and bound once, here; the compilation imports the model and
runs every stage; this adds what the result offers beyond the executable: the fusion
plan's picture and what each dispatch runs, for `Compiled.graph` and `Compiled.profile`.
"""

import time
import warnings

from . import executable_cache
from .backends import parameters as external_parameters
from .backends import targets
from .backends.weight_store import WeightStore
from .compilation import Compilation, resolve_pipeline
from .compiled import Compiled, output_roles
from .progress import Progress
from .tools.plan_graph import PlanGraph
from .tools.profile import planned_dispatches


def compile_model(model, example_args, *, target="llvm-cpu", opt_level=2, pipeline=None, precision="f32",
                  dynamic_shapes=None, target_options=None, allow_fallback=True, external_params=False, repro=None,
                  progress=False, cache=True) -> Compiled:
    """See `mlc.compile`."""
    bound = targets.bind(target, target_options)
    cache = executable_cache.resolve(cache)
    params, owned = ((external_params, False) if isinstance(external_params, WeightStore)
                     else external_parameters.resolve(external_params))
    if params is not None:
        targets.check_external_params(bound)
    start = time.perf_counter()
    compilation = Compilation.of_model(model, example_args, target=bound, dynamic_shapes=dynamic_shapes,
                                       allow_fallback=allow_fallback, progress=Progress(progress),
                                       pipeline=resolve_pipeline(opt_level, pipeline), precision=precision,
                                       params=params, repro=repro,
                                       cache=cache, keep_ir=True)
    output_roles(compilation.program)  # refuses a model that changes its buffers before compiling it
    seen = {}
    compilation.observe(lambda level, module: seen.__setitem__(level, _what_to_keep(level, module, compilation)))
    try:
        artifact = compilation.run("vmfb")
    except BaseException:
        if owned:  # the temporary archive is written before IREE compiles; nobody would remove it
            external_parameters.remove(params)
        raise
    report = compilation.report
    if report.retried:
        warnings.warn(f"mlc: {report.retried.note}", stacklevel=3)
    report.seconds = round(time.perf_counter() - start, 3)
    return Compiled(program=compilation.program, ir_levels=compilation.levels, artifact=artifact, target=bound,
                    report=report, parameters=params, owns_parameters=owned, plan=seen.get("mlc"),
                    runtime_driver=compilation.runtime_driver, planned=seen.get("target") or [])


def _what_to_keep(level, module, compilation):
    """The optimized graph's picture at "mlc", what each dispatch runs at "target"."""
    if level == "mlc":
        return PlanGraph.of(module)
    if level == "target":
        return planned_dispatches(module, compilation.target, compilation.report)
    return None
