"""Shared pytest fixtures: the bundled example models."""

import sys
from pathlib import Path

import pytest
import torch

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))

import models  # noqa: E402


@pytest.fixture(params=sorted(models.FACTORIES))
def example_model(request):
    """(name, model, example inputs) for each bundled model."""
    torch.manual_seed(1)
    name = request.param
    inputs = tuple(torch.randn(shape) for shape in models.EXAMPLE_INPUTS[name])
    return name, models.FACTORIES[name](), inputs
