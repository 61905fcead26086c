"""torchvision (and transformers, which imports it) import in mlc's venv as anywhere
else, although the only torchvision wheel there is built for the CUDA torch
(driver/frontend/torchvision_ops.py): in a fresh interpreter through the venv's .pth,
and after `import mlc` for an mlc installed without it."""

import subprocess
import sys


def run_python(code: str, tmp_path) -> subprocess.CompletedProcess:
    # In a foreign directory, so that nothing of the checkout is on the path by accident.
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)


def test_a_users_script_imports_torchvision_and_transformers(tmp_path):
    done = run_python(
        "import torch, torchvision, transformers\n"
        "print(torchvision.models.resnet18().eval()(torch.randn(1, 3, 32, 32)).shape)\n"
        "print(type(transformers.GPT2LMHeadModel(transformers.GPT2Config(n_layer=1))).__name__)\n",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["torch.Size([1, 1000])", "GPT2LMHeadModel"]


def test_import_mlc_installs_the_hook_without_the_pth(tmp_path):
    done = run_python(
        "import sys\n"
        "sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != '_DeclareBeforeMetaRegistrations']\n"
        "for name in [name for name in sys.modules if name.split('.')[0] == 'mlc']:\n"
        "    del sys.modules[name]  # as if the .pth had not imported it\n"
        "import mlc, torchvision\n"
        "mlc.driver.frontend.torchvision_ops.install()  # a second install adds no second hook\n"
        "print(sum(type(f).__name__ == '_DeclareBeforeMetaRegistrations' for f in sys.meta_path))\n",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


def test_torchvision_cpp_ops_say_they_are_missing(tmp_path):
    """nms, roi_align and the other C++ ops cannot run beside the CPU torch: torchvision's own error, not a crash."""
    done = run_python(
        "import torch, torchvision\n"
        "torchvision.ops.nms(torch.rand(3, 4), torch.rand(3), 0.5)\n",
        tmp_path,
    )
    assert done.returncode != 0
    assert "Couldn't load custom C++ ops" in done.stderr
