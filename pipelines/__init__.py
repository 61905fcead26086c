"""Which passes run in which order: textual pipelines and the runner that executes them."""

from .runner import PassRecord, PipelineRunner
from .textual import parse_pipeline

__all__ = ["PassRecord", "PipelineRunner", "parse_pipeline"]
