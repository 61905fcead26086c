/// llvm-cpu compiles with IREE's data tiling and microkernels: the report counts the
/// packs it adds beside mlc's dispatch regions and the weight packs run once at load;
/// --no-data-tiling turns it off. Small models run on the calling thread (local-sync).

// RUN: rm -rf %t && mkdir -p %t
// RUN: mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 -o %t/on.vmfb --report - | FileCheck %s --check-prefix=ON
// ON:      "runtime driver": "local-sync",
// ON:      "dispatches": 4,
// ON:      "dispatches by kind": {
// ON-NEXT:   "mlc dispatch regions": 2,
// ON-NEXT:   "library matmuls": 0,
// ON-NEXT:   "library attention": 0,
// ON-NEXT:   "library layer norms": 0,
// ON-NEXT:   "formed by IREE": 0,
// ON-NEXT:   "data-tiling packs": 2,
// ON-NEXT:   "at load": 4
// ON:      "data tiling": "on",
// RUN: mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 -o %t/off.vmfb --no-data-tiling --report - | FileCheck %s --check-prefix=OFF
// OFF:      "dispatches": 2,
// OFF:      "data-tiling packs": 0,
// OFF-NEXT: "at load": 0
// OFF:      "data tiling": "off (target option)",

/// Both run under either driver (the numbers are checked against PyTorch in pytest).
// RUN: iree-run-module --module=%t/on.vmfb --device=local-task --function=main --input=8x64xf32=0.5 | FileCheck %s --check-prefix=EXEC
// RUN: iree-run-module --module=%t/off.vmfb --device=local-sync --function=main --input=8x64xf32=0.5 | FileCheck %s --check-prefix=EXEC
// EXEC-LABEL: result[0]: hal.buffer_view
// EXEC-NEXT: 8x32xf32=

// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 --coverage --no-data-tiling 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COVERAGE
// COVERAGE: mlc-compile: error: --coverage checks each target with its default options and writes no IR or executable: drop --no-data-tiling
