/// When IREE cannot compile mlc's -O2 plan within the target's limits (a stack frame
/// over 32 KB), mlc-compile compiles the model again at -O1, says so on stderr and in
/// the report, and writes a working executable.

// RUN: mlc-compile %inputs/grouped_conv.py:GroupedConv --input-shape 1x48x112x112xf32 -o %t.vmfb --report %t.json 2>%t.err
// RUN: FileCheck %s < %t.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: iree-run-module --module=%t.vmfb --device=local-task --function=main --input=1x48x112x112xf32=1 | FileCheck %s --check-prefix=RESULT
// CHECK: mlc-compile: warning: IREE could not compile mlc's -O2 plan for llvm-cpu ('func.func' op exceeded stack allocation limit of 32768 bytes for function. Got {{[0-9]+}} bytes); compiled at -O1 instead (no layout change, no fusion)
// CHECK-NOT: Traceback
// REPORT: "pipeline": "O1"
// REPORT: "retried": {
// REPORT-NEXT: "pipeline": "O1",
// RESULT: 1x48x56x56xf32=
