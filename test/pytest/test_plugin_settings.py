"""The matmul plugin's settings in the environment (MLC_*_KERNEL, MLC_PLUGIN_THREADS,
MLC_PACKED_WEIGHTS_LIMIT): the C code reads a word it does not know as unset and "500M"
as 500 bytes, so mlc refuses such a value with one error when a target binds for the CPU
(and before the plugin is handed to IREE), where it would otherwise go unseen."""

import pytest
import torch

import mlc
from mlc.driver.backends import matmul_library


@pytest.mark.parametrize("name, value, message", [
    ("MLC_ATTENTION_KERNEL", "fast", r"MLC_ATTENTION_KERNEL must be 'own' or 'mkl' \(or unset\), got 'fast'"),
    ("MLC_F32_KERNEL", "own", r"MLC_F32_KERNEL must be 'mkl' \(or unset\), got 'own'"),
    ("MLC_INT8_KERNEL", "vnni", r"MLC_INT8_KERNEL must be 'mkl' \(or unset\), got 'vnni'"),
    ("MLC_BF16_KERNEL", "mkl ", r"MLC_BF16_KERNEL must be 'mkl' \(or unset\), got 'mkl '"),
    ("MLC_PLUGIN_THREADS", "-1", r"MLC_PLUGIN_THREADS must be a whole number \(or unset\), got '-1'"),
    ("MLC_PACKED_WEIGHTS_LIMIT", "500M", r"MLC_PACKED_WEIGHTS_LIMIT must be a whole number \(or unset\), got '500M'"),
])
def test_a_setting_the_plugin_would_misread_is_an_error(monkeypatch, name, value, message):
    monkeypatch.setenv(name, value)
    with pytest.raises(mlc.UserError, match=message):
        matmul_library.check_settings()
    with pytest.raises(mlc.UserError, match=message):
        mlc.compile(torch.nn.Linear(4, 3), (torch.randn(2, 4),), target="llvm-cpu")


def test_the_settings_the_plugin_reads_pass(monkeypatch):
    """Any case of a known word, a whole number (0: the default), or empty (unset)."""
    for name, value in [("MLC_ATTENTION_KERNEL", "Own"), ("MLC_F32_KERNEL", "MKL"), ("MLC_INT8_KERNEL", "mkl"),
                        ("MLC_BF16_KERNEL", ""), ("MLC_PLUGIN_THREADS", "0"), ("MLC_PACKED_WEIGHTS_LIMIT", "1048576")]:
        monkeypatch.setenv(name, value)
    matmul_library.check_settings()
    assert matmul_library.f32_on_mkl() and matmul_library.int8_on_mkl() and not matmul_library.bf16_on_mkl()
