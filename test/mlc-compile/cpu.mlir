/// --cpu: the LLVM CPU IREE generates code for. x86-64-v3 stops at AVX2 (no AVX-512),
/// and the executable runs here with the same result; the report names the option.

// RUN: rm -rf %t && mkdir -p %t
// RUN: mlc-compile %s -o %t/avx2.vmfb --cpu x86-64-v3 --matmul-library off --quiet --report %t/report.json
// RUN: FileCheck %s --check-prefix=REPORT --input-file %t/report.json
// REPORT: "cpu": "x86-64-v3"
// RUN: iree-run-module --module=%t/avx2.vmfb --device=local-sync --function=main --input=32x64xf32=1 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// EXEC: 32x48xf32=[16 16 16

/// A name LLVM does not know is refused before IREE runs (IREE would abort), with LLVM's list.
// RUN: not mlc-compile %s -o %t/bad.vmfb --cpu pentium9 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: mlc-compile: error: target 'llvm-cpu': unknown cpu 'pentium9'; LLVM knows: {{.*}}x86-64-v3
// RUN: not mlc-compile %s -o %t/bad.vmfb --cpu 'x86 64' 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: mlc-compile: error: target 'llvm-cpu': cpu must be an LLVM CPU name like x86-64-v3 or host, got 'x86 64'
/// Only llvm-cpu takes it.
// RUN: not mlc-compile %s -o %t/bad.vmfb --target vulkan-spirv --cpu znver4 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: mlc-compile: error: target 'vulkan-spirv' has no option 'cpu' (options: vulkan-target)

func.func @main(%x: tensor<32x64xf32>) -> tensor<32x48xf32> {
  %w = "mlc.constant"() {value = dense<0.25> : tensor<64x48xf32>} : () -> tensor<64x48xf32>
  %0 = "mlc.matmul"(%x, %w) : (tensor<32x64xf32>, tensor<64x48xf32>) -> tensor<32x48xf32>
  return %0 : tensor<32x48xf32>
}
