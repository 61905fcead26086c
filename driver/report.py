"""`Report`: what one compilation did, as typed data.

The stages fill its fields; `to_json()` gives the JSON document `--report FILE` and
`mlc.compile(report=...)` write, whose keys are the field names with spaces ("matmul
flops" is `matmul_flops`); a field not set (None) has no key. `report["matmul flops"]`
reads that document's value, so code written against the JSON keys keeps working.
"""

import dataclasses
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PassRecord:
    """One pass of a stage: its name, its statistics (name -> count) and its time."""

    name: str
    statistics: dict[str, int]
    seconds: float


@dataclass(frozen=True)
class StageRecord:
    """One stage: its name, its time, and its passes when it ran a pipeline."""

    stage: str
    seconds: float
    passes: tuple[PassRecord, ...] | None = None


@dataclass(frozen=True)
class Retried:
    """Why an -O2 compile ran again at another level, and the note that tells the user."""

    pipeline: str
    because: str
    note: str


@dataclass
class Report:
    target: str
    pipeline: str
    passes: list[str]
    precision: str = "f32"
    target_options: dict | None = None  # as the user gave them (e.g. {"cpu": "x86-64-v3"}); none: no key
    input_level: str | None = None  # mlc-compile: the level the input file was at
    ops: dict[str, dict[str, int]] = field(default_factory=dict)  # "after import", "after optimization"
    stages: list[StageRecord] = field(default_factory=list)
    dynamic_shapes: dict | None = None  # frontend/dynamic_shapes.report
    fallback: dict[str, int] | None = None  # torch op -> count, those torch-mlir lowered
    matmul_flops: int | None = None
    fusion_groups: list[list[str]] | None = None
    matmul_library: dict | None = None  # backends/matmul_choice: which shapes run on the library
    parameters: dict | None = None  # the external parameter archive: path, count, bytes
    executable_cache: str | None = None  # "hit", "miss" or "off"
    runtime_driver: str | None = None
    dispatches: int | None = None
    dispatches_by_kind: dict[str, int] | None = None
    data_tiling: str | None = None
    distinct_kernels: int | None = None
    retried: Retried | None = None
    seconds: float | None = None  # mlc.compile's wall time, end to end

    def record(self, **entries) -> None:
        """Sets fields by name, for a stage whose entries are not known here (a target's
        own passes); an unknown name is a bug of the caller's, so it raises."""
        unknown = set(entries) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise AttributeError(f"Report has no field {', '.join(sorted(unknown))}")
        for name, value in entries.items():
            setattr(self, name, value)

    def pass_statistics(self, pass_name: str) -> dict[str, int]:
        """A pass's statistics, merged over the stages that ran it."""
        merged: dict[str, int] = {}
        for record in self._records(pass_name):
            for statistic, count in record.statistics.items():
                merged[statistic] = merged.get(statistic, 0) + count
        return merged

    def pass_statistic(self, pass_name: str, statistic: str) -> int:
        """One statistic of a pass, summed over the stages that ran it."""
        return sum(record.statistics.get(statistic, 0) for record in self._records(pass_name))

    def _records(self, pass_name: str):
        return (record for stage in self.stages for record in stage.passes or () if record.name == pass_name)

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON-ready dict: keys with spaces, unset fields left out."""
        return {f.name.replace("_", " "): _plain(getattr(self, f.name))
                for f in dataclasses.fields(self) if getattr(self, f.name) is not None}

    # --- read-only access by JSON key ---------------------------------------------------

    def __getitem__(self, key: str):
        value = getattr(self, _field_name(key), None)
        if value is None:
            raise KeyError(key)
        return _plain(value)

    def __contains__(self, key: str) -> bool:
        return getattr(self, _field_name(key), None) is not None

    def get(self, key: str, default=None):
        return self[key] if key in self else default


def _field_name(key: str) -> str:
    name = key.replace(" ", "_")
    return name if name in Report.__dataclass_fields__ else "\0"


def _plain(value):
    """A field's value as JSON data: records become dicts (a stage without passes has no
    "passes" key), tuples lists."""
    if dataclasses.is_dataclass(value):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                if getattr(value, f.name) is not None}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value
