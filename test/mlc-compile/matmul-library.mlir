/// --matmul-library on: the matmul runs on MKL through mlc's plugin. mlc-compile
/// writes the plugin beside the executable and prints the iree-run-module line that
/// loads it; the executable runs with that flag, and fails to load without it.

// RUN: rm -rf %t && mkdir -p %t
// RUN: mlc-compile %s -o %t/linear.vmfb --matmul-library on --quiet --report %t/report.json 2>%t/note.txt
// RUN: FileCheck %s --check-prefix=NOTE --input-file %t/note.txt
// NOTE: mlc-compile: note: 1 matmul shape(s) run on mlc's matmul library; the executable needs its plugin, written to {{.*}}/libmlc_matmul.so:
// NOTE-NEXT: iree-run-module --module={{.*}}/linear.vmfb --device=local-sync --executable_plugin={{.*}}/libmlc_matmul.so --function=main --input=...
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t/report.json
// REPORT: "matmul library": {
// REPORT-NEXT: "library": [
// REPORT-NEXT: "32x64x48"
// REPORT: "why": "on (target option)"
// REPORT: "library matmuls": 1,

// RUN: iree-run-module --module=%t/linear.vmfb --device=local-sync --executable_plugin=%t/libmlc_matmul.so \
// RUN:   --function=main --input=32x64xf32=1 | FileCheck %s --check-prefix=EXEC
// EXEC: 32x48xf32=[16 16 16
// RUN: not iree-run-module --module=%t/linear.vmfb --device=local-sync --function=main --input=32x64xf32=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// MISSING: no executable loader registered for the given executable format

/// --matmul-library mlc: on the plugin, unmeasured, on mlc's own kernels where they run it.
// RUN: mlc-compile %s -o %t/own.vmfb --matmul-library mlc --quiet --report %t/own.json 2>/dev/null
// RUN: FileCheck %s --check-prefix=OWN --input-file %t/own.json
// OWN: "matmul library": {
// OWN-NEXT: "library": [
// OWN-NEXT: "32x64x48"
// OWN: "why": "mlc's own kernels (target option)"
// OWN: "library matmuls": 1,

/// A bad value is refused by the flag parser.
// RUN: not mlc-compile %s -o %t/bad.vmfb --matmul-library sometimes 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: mlc-compile: error: argument --matmul-library: invalid choice: 'sometimes'

/// So is a plugin setting in the environment that the plugin would read as unset (a word
/// it does not know) or as another number ("500M" as 500 bytes), before anything compiles.
// RUN: env MLC_ATTENTION_KERNEL=fast not mlc-compile %s -o %t/setting.vmfb 2>&1 | FileCheck %s --check-prefix=WORD
// WORD: mlc-compile: error: MLC_ATTENTION_KERNEL must be 'own' or 'mkl' (or unset), got 'fast'
// WORD-NOT: Traceback
// RUN: env MLC_PACKED_WEIGHTS_LIMIT=500M not mlc-compile %s -o %t/setting.vmfb 2>&1 | FileCheck %s --check-prefix=NUMBER
// NUMBER: mlc-compile: error: MLC_PACKED_WEIGHTS_LIMIT must be a whole number (or unset), got '500M'
// RUN: test ! -e %t/setting.vmfb

func.func @main(%x: tensor<32x64xf32>) -> tensor<32x48xf32> {
  %w = "mlc.constant"() {value = dense<0.25> : tensor<64x48xf32>} : () -> tensor<64x48xf32>
  %0 = "mlc.matmul"(%x, %w) : (tensor<32x64xf32>, tensor<64x48xf32>) -> tensor<32x48xf32>
  %1 = "mlc.relu"(%0) : (tensor<32x48xf32>) -> tensor<32x48xf32>
  return %1 : tensor<32x48xf32>
}
