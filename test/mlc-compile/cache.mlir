/// The executable cache: a second compile of the same module takes IREE's executable
/// from MLC_CACHE_DIR (the report's "executable cache" says hit or miss); other flags
/// miss; --no-cache compiles afresh, neither reading nor writing the cache.

// RUN: rm -rf %t && mkdir -p %t
// RUN: env MLC_CACHE_DIR=%t/cache mlc-compile %s -o %t/first.vmfb --report - | FileCheck %s --check-prefix=MISS
// MISS: "executable cache": "miss",
// MISS: "data tiling": "on",
// RUN: env MLC_CACHE_DIR=%t/cache mlc-compile %s -o %t/second.vmfb --report - | FileCheck %s --check-prefix=HIT
// HIT: "executable cache": "hit",
// HIT: "data tiling": "on",
// RUN: cmp %t/first.vmfb %t/second.vmfb
// RUN: iree-run-module --module=%t/second.vmfb --device=local-sync --function=main --input=4x8xf32=-1 \
// RUN:   | FileCheck %s --check-prefix=EXEC
// EXEC: 4x8xf32=[0 0 0 0 0 0 0 0]

/// IREE's flags are in the key: without data tiling is another entry.
// RUN: env MLC_CACHE_DIR=%t/cache mlc-compile %s -o %t/off.vmfb --no-data-tiling --report - \
// RUN:   | FileCheck %s --check-prefix=MISS-OFF
// MISS-OFF: "executable cache": "miss",
// MISS-OFF: "data tiling": "off (target option)",
// RUN: ls %t/cache | FileCheck %s --check-prefix=TWO
// TWO-COUNT-2: {{^[0-9a-f]{64}\.entry$}}
// TWO-NOT: {{.}}

/// --no-cache: "off", even where the cache holds this module; and nothing is written.
// RUN: env MLC_CACHE_DIR=%t/cache mlc-compile %s -o %t/fresh.vmfb --no-cache --report - | FileCheck %s --check-prefix=OFF
// RUN: env MLC_CACHE_DIR=%t/unused mlc-compile %s -o %t/fresh.vmfb --no-cache --report - | FileCheck %s --check-prefix=OFF
// OFF: "executable cache": "off",
// RUN: cmp %t/first.vmfb %t/fresh.vmfb
// RUN: not ls %t/unused
// RUN: ls %t/cache | FileCheck %s --check-prefix=TWO

/// A cap that is not a size is one error, before anything is compiled.
// RUN: env MLC_CACHE_DIR=%t/cache MLC_CACHE_SIZE=lots not mlc-compile %s -o %t/bad.vmfb 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: mlc-compile: error: MLC_CACHE_SIZE must be a size like 500M or 4G, got 'lots'
// BAD-NOT: Traceback

func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "mlc.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
