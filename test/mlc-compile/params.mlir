/// `mlc-compile --params FILE.irpa`: the large weights go to an IREE parameter
/// archive, the .vmfb holds references to them, and the pair runs under iree-run-module
/// with the same results as the self-contained .vmfb.

// RUN: rm -rf %t && mkdir -p %t
// RUN: mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 -o %t/inline.vmfb
// RUN: mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 -o %t/mlp.vmfb --params %t/mlp.irpa --report - | FileCheck %s --check-prefix=REPORT
// REPORT:      "parameters": {
// REPORT-NEXT:   "archive": "{{.*}}mlp.irpa",
// REPORT-NEXT:   "count": 2,
// REPORT-NEXT:   "bytes": 98304

/// Keys are the weights' torch names (here transposed at compile time by -O2).
// RUN: iree-dump-parameters --parameters=model=%t/mlp.irpa | FileCheck %s --check-prefix=KEYS
// KEYS: Parameter scope `model` (2 entries, 98304 total bytes)
// KEYS-DAG: `fc1.weight.transpose`
// KEYS-DAG: `fc2.weight.transpose`

// RUN: iree-run-module --module=%t/inline.vmfb --device=local-task --function=main --input=8x64xf32=0.5 > %t/inline.txt
// RUN: iree-run-module --module=%t/mlp.vmfb --parameters=model=%t/mlp.irpa --device=local-task --function=main --input=8x64xf32=0.5 > %t/params.txt
// RUN: diff %t/inline.txt %t/params.txt
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t/params.txt
// OUT: 8x32xf32=

/// Without the archive the executable has no weights to run with.
// RUN: not iree-run-module --module=%t/mlp.vmfb --device=local-task --function=main --input=8x64xf32=0.5 2>&1 | FileCheck %s --check-prefix=NO-ARCHIVE
// NO-ARCHIVE: no provider registered that handles scopes like 'model'

/// Errors: one line each, before any compiling.
// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 --emit=linalg --params %t/x.irpa 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: mlc-compile: error: --params applies to --emit=vmfb only (at --emit=linalg the weights stay in the IR)

// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 --target mlir-cpu -o %t/x.bc --params %t/x.irpa 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: mlc-compile: error: target 'mlir-cpu' cannot load weights from a parameter archive (external params work on: llvm-cpu, vulkan-spirv, cuda)

// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 -o %t/x.vmfb --params %t/no-such-dir/x.irpa 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: mlc-compile: error: cannot write the parameter archive '{{.*}}no-such-dir/x.irpa': its directory does not exist or is not writable

// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 -o %t/x.vmfb --params %t 2>&1 | FileCheck %s --check-prefix=DIRECTORY
// DIRECTORY: mlc-compile: error: cannot write the parameter archive '{{.*}}': it is a directory

// RUN: not mlc-compile %inputs/missing_blob.linalg.mlir -o %t/x.vmfb --params %t/x.irpa 2>&1 | FileCheck %s --check-prefix=NO-BLOB
// NO-BLOB: mlc-compile: error: the bytes of weight 'w' are unknown, so it cannot go to a parameter archive

/// An .mlir input at the linalg level has its blobs in the text; they go to the archive too.
// RUN: mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 -O1 --emit=linalg -o %t/mlp.linalg.mlir
// RUN: mlc-compile %t/mlp.linalg.mlir -o %t/from-text.vmfb --params %t/from-text.irpa
// RUN: iree-dump-parameters --parameters=model=%t/from-text.irpa | FileCheck %s --check-prefix=KEYS
// RUN: iree-run-module --module=%t/from-text.vmfb --parameters=model=%t/from-text.irpa --device=local-task --function=main --input=8x64xf32=0.5 | FileCheck %s --check-prefix=OUT
