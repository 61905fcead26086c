"""Which passes run in which order: named pipelines (O0, O1, O2), textual
pipelines, and the runner that executes them."""

from .levels import LEVELS, Pipeline, describe, get
from .runner import PassRecord, PipelineRunner
from .textual import parse_pipeline

__all__ = ["LEVELS", "PassRecord", "Pipeline", "PipelineRunner", "describe", "get", "parse_pipeline"]
