"""What went wrong in a compilation, as data: the kind, the stage, and the reasons.

Each failure is a `UserError` (tools print it as one error, the API raises it) whose
fields say what its text says, so that the retry, the reproducer and coverage read the
fields and never parse the message. Modelled on xDSL's DiagnosticException and
PassFailedException.
"""

from ..errors import UserError


class StageFailure(UserError):
    """A stage's passes failed. `internal`: a pass raised (mlc's bug, which gets a
    reproducer), not declined the model; `declined`: the ops a pass declined, by
    name, with the reason (the conversion from torch's unconverted ops)."""

    def __init__(self, message: str, *, stage: str, internal: bool = False, declined: dict | None = None):
        super().__init__(message)
        self.stage, self.internal, self.declined = stage, internal, dict(declined or {})


class IreeCompileFailure(UserError):
    """IREE failed on a module mlc made: the module and flags rerun it. `errors` are
    IREE's error lines; `over_target_limit` says the failure is a dispatch over the
    target's limits (a stack frame over 32 KB on the CPU), which a plan of smaller
    dispatches avoids; `reduction_not_distributed`, that IREE's GPU code could not
    spread a reduction over its threads."""

    def __init__(self, message: str, bytecode: bytes, flags: list[str], errors: list[str]):
        super().__init__(message)
        self.bytecode, self.flags, self.errors = bytecode, flags, errors
        self.over_target_limit = any(TARGET_LIMIT in line for line in errors)
        self.reduction_not_distributed = any(NOT_DISTRIBUTED in line for line in errors)

    @property
    def first_error(self) -> str:
        return self.errors[0] if self.errors else self.message


# IREE's CPU code generation refuses a dispatch whose stack frame exceeds 32 KB; some
# groups mlc plans reach it (RegNet's grouped convolutions in NHWC) where IREE's own
# dispatches of the unoptimized graph do not. Read here, from IREE's text, and nowhere else.
TARGET_LIMIT = "exceeded stack allocation limit"
# IREE's GPU code generation could not spread a reduction over its threads (its
# vector-distribution code; cuda retries with its warp-reduction code: backends/iree.py).
NOT_DISTRIBUTED = "failed to distribute"


class PlanOverTargetLimit(UserError):
    """IREE could not compile a dispatch of mlc's plan within the target's limits."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


class OutOfMemory(UserError):
    """The runtime could not allocate what a call needs (IREE's RESOURCE_EXHAUSTED)."""
