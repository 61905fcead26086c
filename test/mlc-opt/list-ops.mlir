/// `mlc-opt --list-ops` lists every op with what it computes and its facts, read
/// from where each lives (driver/op_facts.py); no fact is missing.

// RUN: mlc-opt --list-ops | FileCheck %s
// RUN: mlc-opt --list-ops | FileCheck %s --check-prefix=COMPLETE

// CHECK: mlc.neg: Elementwise -x.
// CHECK-NEXT: fuses: elementwise; layout: elementwise; folds: yes; lowers: yes
// CHECK-NEXT: from torch: {{.*}}neg
// CHECK: mlc.softplus: Elementwise `log(1 + exp(beta * x)) / beta`, and x itself where `beta * x > threshold`
// CHECK-NEXT: fuses: elementwise; layout: elementwise; folds: yes; lowers: yes
// CHECK-NEXT: from torch: softplus
// CHECK: mlc.conv2d:
// CHECK-NEXT: fuses: out_elementwise_fusable; layout: fixed; folds: no (a convolution of constants does not occur in models; numpy has no convolution); lowers: yes
// CHECK-NEXT: from torch: conv2d, convolution
// CHECK: mlc.im2col:
// CHECK: from torch: no (made by mlc-conv-to-matmul from a convolution)

// COMPLETE-NOT: MISSING
