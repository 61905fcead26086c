"""The benchmark scripts keep working (their numbers are for the README, not asserted)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.iree]  # the scripts compile with IREE
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def run(*args) -> str:
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, check=True).stdout


def test_compare_runs_every_variant():
    variants = "mlc O2,eager,torch.compile,IREE direct,mlc O0,mlc O2 no data tiling"
    table = run(BENCHMARKS / "compare.py", "--models", "mlp", "--variants", variants, "--rounds", "1", "--block", "1",
                "--markdown")
    header = next(line for line in table.splitlines() if line.startswith("| model "))
    row = next(line for line in table.splitlines() if line.startswith("| mlp "))
    assert "fails" not in row and row.count("|") == header.count("|")
    assert "Geomean of mlc O2 / best peer over 1 models" in table
    assert "peak: 2 cores" in table or "peak: " in table


def test_conv_matmul_pixels_times_each_threshold():
    output = run(BENCHMARKS / "conv_matmul_pixels.py", "--model", "cnn", "--pixels", "256,1024", "--rounds", "1",
                 "--block", "1")
    assert "max-pixels 256: " in output and "max-pixels 1024: " in output
    assert all(float(line.split("max error ")[1]) < 1e-4 for line in output.splitlines() if "max error" in line)
    assert output.count(" ms") >= 3  # eager and both thresholds timed


def test_import_large():
    output = run(BENCHMARKS / "import_large.py")
    assert "100.0M parameters" in output and "torch -> mlc -> O2 -> linalg" in output


def test_cpu_variants_agree_with_eager():
    table = run(BENCHMARKS / "cpu_variants.py", "--models", "cnn", "--rounds", "1")
    rows = [line.split("|") for line in table.splitlines() if line.startswith("| cnn ")]
    assert len(rows) == 3
    assert all(float(row[5]) < 1e-4 for row in rows)  # max abs error against eager


def test_large_weights_smoke():
    table = run(BENCHMARKS / "large_weights.py", "--smoke")
    rows = {line.split("|")[1].strip(): line.split("|") for line in table.splitlines() if line.startswith("| ")}
    for variant in ("mlc O2 external params", "mlc O2 inline", "torch-mlir -> IREE"):
        assert "fails" not in rows[variant][2]
        assert float(rows[variant][11]) < 1e-4  # max relative error against eager
    assert float(rows["mlc O2 external params"][10]) > 1  # archive MiB: the weights left the .vmfb


def test_generate_on_the_tiny_models():
    """Two prompts at once (--batch 2): every variant's tokens for both, and tokens per second for both."""
    table = run(BENCHMARKS / "generate.py", "--models", "gpt2-tiny", "--precisions", "f32,int8", "--prompt", "4",
                "--new-tokens", "6", "--batch", "2", "--rounds", "1", "--iree-kernels", "--markdown")
    rows = {tuple(cell.strip() for cell in line.split("|")[1:4]): line.split("|") for line in table.splitlines()
            if line.startswith("| gpt2-tiny ")}
    assert rows[("gpt2-tiny", "f32", "mlc")][12].strip() == "6/6"  # the same tokens as eager's
    assert rows[("gpt2-tiny", "f32", "mlc, IREE's kernels")][12].strip() == "6/6"
    assert "(" not in rows[("gpt2-tiny", "int8", "mlc, IREE's kernels")][13]  # no library shapes
    assert re.search(r"AVX|AMX|VNNI|scalar", rows[("gpt2-tiny", "int8", "mlc")][13])  # names what its decode runs
    for row in rows.values():
        best, median = float(row[7]), float(row[10])  # each row's bandwidth, read beside its timing
        assert 0 < median <= best
        assert re.fullmatch(r"-?\d+\.\d\d", row[11].strip())  # times the limit at the median read
        ms, per_second = float(row[5]), float(row[6])  # tokens / s of both sequences, ms / token to 0.01
        if ms >= 0.01:  # a tiny model's 6 tokens can take less than the timing's noise
            assert 2e3 / (ms + 0.005) - 0.5 <= per_second <= 2e3 / (ms - 0.005) + 0.5
    assert "memory read bandwidth (GB/s):" in table


def test_step_against_probe_has_a_row_per_window():
    table = run(BENCHMARKS / "step_against_probe.py", "--model", "gpt2-tiny", "--windows", "2", "--tokens", "4",
                "--prompt", "4", "--markdown")
    rows = [[cell.strip() for cell in line.split("|")[1:-1]] for line in table.splitlines()
            if re.match(r"\| \d+ \|", line)]
    assert [row[0] for row in rows] == ["1", "2"]
    for row in rows:
        assert all(re.fullmatch(r"\d+\.\d-\d+\.\d", row[i]) for i in (1, 4))  # the probe's slowest-fastest read
        assert all(re.fullmatch(r"-?\d+\.\d+", row[i]) for i in (2, 3, 5))  # ms, GB/s, ratio (a tiny step: noise)
    assert "gpt2-tiny f32: " in table and " MB a step" in table


def test_generator_executables_has_a_row_per_setting():
    table = run(BENCHMARKS / "generator_executables.py", "--model", "gpt2-tiny", "--precision", "f32", "--lengths", "9",
                "--capacity", "48", "--buckets", "powers-of-two", "--rounds", "1")
    rows = [line.split("|") for line in table.splitlines() if line.startswith("| powers-of-two ")]
    assert [row[2].strip() for row in rows] == ["store", "inside"]
    for row in rows:
        assert row[3].strip() == "16" and float(row[5]) > 0 and float(row[8]) > 0  # the bucket, PSS, ms per token


def test_precision_names_each_precision():
    table = run(BENCHMARKS / "precision.py", "--models", "mlp", "--rounds", "1", "--block", "1", "--markdown")
    rows = [line.split("|") for line in table.splitlines() if line.startswith("| mlp ")]
    assert [row[2].strip() for row in rows] == ["f32", "bf16", "int8"]
    assert all("fails" not in row[3] and float(row[7]) > 0 for row in rows)
    assert all("fails" not in cell for row in rows for cell in row[4:7])  # every peer at every precision ran
    assert rows[1][6].strip() and rows[2][5].strip()  # eager's bf16 matmuls; PT2E's int8 under torch.compile
    assert all(float(row[8]) > 0 and float(row[9]) > 0 for row in rows)  # mlc's GFLOP/s, what 0.8x the best needs
    assert re.search(r"f32 GEMM rate: \d+ GFLOP/s", table)
    library = [part for row in rows for part in row[10].strip().split(", ") if part.endswith("shapes)")]
    assert library and all(re.fullmatch(r"(MKL|mlc) [\w-]+( \(bf16 widened\))? \(\d+ shapes\)", part) for part in library), library


def test_conv_tiles_on_the_cnn_held_to_avx2():
    table = run(BENCHMARKS / "conv_tiles.py", "--models", "cnn", "--cpu", "x86-64-v3", "--rounds", "1")
    row = next(line.split("|") for line in table.splitlines() if line.startswith("| cnn "))
    assert "eager: AVX2" in table and float(row[5]) > 0 and row[6].strip() == "2"  # both 3x3 convolutions of 16 channels
