// RUN: not mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: grouped-query attention whose query heads are no multiple of the key/value heads.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.scaled_dot_product_attention  x1  at {{.*}}[grouped-query attention of 3 query heads over 2 key/value heads]
func.func @negative_gqa_uneven_heads(%q: !torch.vtensor<[1,3,5,8],f32>, %k: !torch.vtensor<[1,2,5,8],f32>) -> !torch.vtensor<[1,3,5,8],f32> {
  %float0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %float0, %false, %none, %true : !torch.vtensor<[1,3,5,8],f32>, !torch.vtensor<[1,2,5,8],f32>, !torch.vtensor<[1,2,5,8],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,3,5,8],f32>
  return %0 : !torch.vtensor<[1,3,5,8],f32>
}

// -----

/// negative: grouped-query attention with a dynamic number of query heads.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.scaled_dot_product_attention  x1  at {{.*}}[grouped-query attention (enable_gqa) without static head counts]
func.func @negative_gqa_dynamic_heads(%q: !torch.vtensor<[1,?,5,8],f32>, %k: !torch.vtensor<[1,2,5,8],f32>) -> !torch.vtensor<[1,?,5,8],f32> {
  %float0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %float0, %false, %none, %true : !torch.vtensor<[1,?,5,8],f32>, !torch.vtensor<[1,2,5,8],f32>, !torch.vtensor<[1,2,5,8],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,?,5,8],f32>
  return %0 : !torch.vtensor<[1,?,5,8],f32>
}

// -----

/// negative: causal attention of a dynamic length (its mask is a constant); this
/// crashed the conversion before.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.scaled_dot_product_attention  x1  at {{.*}}[causal attention of a dynamic sequence length]
func.func @negative_causal_dynamic_length(%q: !torch.vtensor<[4,?,8],f32>, %k: !torch.vtensor<[2,?,8],f32>) -> !torch.vtensor<[4,?,8],f32> {
  %float0 = torch.constant.float 0.000000e+00
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %k, %none, %float0, %true, %none, %true : !torch.vtensor<[4,?,8],f32>, !torch.vtensor<[2,?,8],f32>, !torch.vtensor<[2,?,8],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[4,?,8],f32>
  return %0 : !torch.vtensor<[4,?,8],f32>
}
