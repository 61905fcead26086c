/// The targets: what each needs, whether it runs here and its options; CUDA compiles without a GPU.

// RUN: mlc-compile --list-targets | FileCheck %s --check-prefix=LIST
// LIST:      llvm-cpu {{.*}}
// LIST-NEXT:   needs: an x86-64 or AArch64 CPU; runs here
// LIST-NEXT:   options: cpu, data-tiling, driver, matmul-library
// LIST:      vulkan-spirv {{.*}}SPIR-V
// LIST-NEXT:   needs: a Vulkan {{.*}}; {{runs here|compile-only here: no vulkan device .*}}
// LIST-NEXT:   options: vulkan-target
// LIST:      cuda {{.*}}cuda-sm
// LIST-NEXT:   needs: an NVIDIA GPU {{.*}}; {{runs here|compile-only here: no cuda device .*}}
// LIST-NEXT:   options: cuda-sm
// LIST:      mlir-cpu {{.*}}
// LIST-NEXT:   needs: a CPU; no IREE; runs here
// LIST-NEXT:   options: tile-size, vector-size
// LIST-NEXT: every target also takes the promise zero-masked-tail (true or false; target_options in Python)

/// sm_90 (Hopper), which IREE 3.13 does not describe itself, builds PTX for sm_90.
// RUN: mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 --target cuda --cuda-sm 90 -o %t.vmfb
// RUN: iree-dump-module %t.vmfb | FileCheck %s --check-prefix=SM90
// SM90: cuda-nvptx-fb
// SM90: arch = "sm_90", features = "+ptx80"

/// An unknown compute capability is one error line.
// RUN: not mlc-compile %S/../inputs/relu.mlir --target cuda --cuda-sm 12 -o %t.bad.vmfb 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: mlc-compile: error: target 'cuda': unknown compute capability sm_12 (cuda-sm takes one of {{.*}} 80, {{.*}} 90, {{.*}})
// BAD-NOT: Traceback

/// A target's options belong to it.
// RUN: not mlc-compile %S/../inputs/relu.mlir --target vulkan-spirv --cuda-sm 80 -o %t.bad.vmfb 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: mlc-compile: error: target 'vulkan-spirv' has no option 'cuda-sm' (options: vulkan-target)
