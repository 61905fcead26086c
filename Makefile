# mlc: `make demo` runs the bundled example, `make test` the whole suite.
# Both create .venv with the pinned packages of requirements.lock when needed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-models test-fast conformance conformance-sample fuzz fuzz-kernels fuzz-decoding lint lit pytest venv lock clean system-packages

# pytest runs on both cores (pytest-xdist). --dist loadgroup keeps the cases that share one
# compiled module (an xdist_group: a family of op cases) on one worker, so it compiles once.
# The tests' executable cache is build/cache (conftest.py, lit.cfg.py): empty in a fresh
# clone, kept between runs here, emptied by `make clean`.
JOBS ?= 2
PYTEST := $(BIN)/pytest -q -n $(JOBS) --dist loadgroup --durations=10

venv: $(STAMP)

# Every interpreter of the venv can import torchvision (and transformers, which imports it):
# driver/frontend/torchvision_ops.py says why. A .pth line must start with "import".
define TORCHVISION_PTH
import sys; exec("try:\n from mlc.driver.frontend import torchvision_ops\n torchvision_ops.install()\nexcept ImportError:\n pass")
endef
export TORCHVISION_PTH

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	printf '%s\n' "$$TORCHVISION_PTH" > $$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/mlc_torchvision.pth
	touch $@

demo: $(STAMP)
	$(BIN)/python examples/demo.py

test: system-packages lint lit pytest

# pyflakes-level checks (unused imports and names, undefined names), import order, bugbear.
lint: $(STAMP)
	$(BIN)/ruff check .

lit: $(STAMP)
	$(BIN)/lit -sv --time-tests test

pytest: $(STAMP)
	$(PYTEST) -m "not models" test/pytest

# The model zoo at full size (ResNet-18/50, MobileNetV3, ViT-B/16, BERT-base, GPT-2):
# each compiled at -O2 and checked against PyTorch eager, and 15 smaller architectures
# outside the zoo (examples/architectures.py).
test-models: $(STAMP)
	$(PYTEST) -m models test/pytest

# PyTorch's OpInfo samples (about 1100 cases) through mlc, each compared with eager and
# checked against test/conformance/expected.txt; prints the summary table. About 8 minutes
# on 2 cores. CI runs conformance-sample: a fixed half of the cases, chosen by name.
conformance: $(STAMP)
	$(BIN)/python test/conformance/run.py --jobs $(JOBS)

conformance-sample: $(STAMP)
	$(BIN)/python test/conformance/run.py --jobs $(JOBS) --sample 2

# Random programs (test/fuzz): each compiled at -O0 and -O2 and compared with eager; a
# failure is shrunk and its reproducer written to build/fuzz. FUZZ_ARGS picks the size,
# e.g. make fuzz FUZZ_ARGS="--minutes 60 --seed 7 --also vulkan-spirv,mlir-cpu".
FUZZ_ARGS ?= --graphs 200
fuzz: $(STAMP)
	$(BIN)/python test/fuzz/run.py $(FUZZ_ARGS)

# The matmul plugin's own kernels at random sizes (test/fuzz/kernels.py): matmul blocks at
# f32, bf16 and int8, attention and LayerNorm, each against eager, in three configurations.
FUZZ_KERNELS_ARGS ?= --cases 100
fuzz-kernels: $(STAMP)
	$(BIN)/python test/fuzz/kernels.py $(FUZZ_KERNELS_ARGS)

# Random causal LMs (GPT-2, Llama, Qwen2, Gemma, Phi-3 at random sizes) generating through
# mlc.generator at f32, bf16 and int8 (test/fuzz/decoding.py): each token's logits against
# eager's over the whole sequence. On two processes; FUZZ_DECODING_ARGS picks the size.
FUZZ_DECODING_ARGS ?= --cases 50
fuzz-decoding: $(STAMP)
	$(BIN)/python test/fuzz/decoding.py $(FUZZ_DECODING_ARGS)

# Debian packages: the Vulkan runtime of the vulkan-spirv target (the Vulkan loader and
# Mesa's lavapipe, a Vulkan device on the CPU); Graphviz, which lays out the picture of
# the fusion plan (--graph); Chromium, the headless browser its test loads the page in.
# Installed only when missing. Without root or apt-get this says so and goes on; the
# tests that need them then skip with the reason.
SYSTEM_PACKAGES := mesa-vulkan-drivers libvulkan1 graphviz chromium

system-packages:
	@if dpkg -s $(SYSTEM_PACKAGES) >/dev/null 2>&1; then \
	  echo "system-packages: $(SYSTEM_PACKAGES) installed"; \
	elif [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then \
	  echo "system-packages: cannot install $(SYSTEM_PACKAGES) (needs root and apt-get); the tests needing them will skip"; \
	else \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(SYSTEM_PACKAGES) \
	    || echo "system-packages: apt-get could not install $(SYSTEM_PACKAGES); the tests needing them will skip"; \
	fi

# Everything that does not compile through IREE: ruff, then pytest's unmarked tests (the
# `iree` marker; conftest.py fails an unmarked test that compiles). lit's tests compile
# through IREE too: `make lit` runs them.
test-fast: lint $(STAMP)
	$(PYTEST) -m "not iree and not models" test/pytest

lock: $(STAMP)
	(echo "# Every package mlc's .venv holds, pinned; regenerate with 'make lock'."; \
	 $(BIN)/pip freeze --exclude-editable | grep -v '^mlc' | sed 's/+cpu$$//') > requirements.lock

clean:
	rm -rf $(VENV) build
