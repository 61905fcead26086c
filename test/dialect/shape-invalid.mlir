// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @reshape_element_count(%x: tensor<2x3xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'mlc.reshape' op cannot reshape [2, 3] (6 elements) to [4, 2] (8 elements)}}
  %0 = "mlc.reshape"(%x) : (tensor<2x3xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) -> tensor<6xi32> {
  // expected-error @+1 {{'mlc.reshape' op result has element type i32, expected f32}}
  %0 = "mlc.reshape"(%x) : (tensor<2x3xf32>) -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

func.func @reshape_unranked(%x: tensor<*xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'mlc.reshape' op input must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.reshape"(%x) : (tensor<*xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @reshape_unranked_result(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'mlc.reshape' op result must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.reshape"(%x) : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @transpose_missing_permutation(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'mlc.transpose' op requires attribute 'permutation'}}
  %0 = "mlc.transpose"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_permutation_not_i64_array(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'mlc.transpose' op attribute 'permutation' must be an array<i64>, got dense<[1, 0]> : tensor<2xi64>}}
  %0 = "mlc.transpose"(%x) {permutation = dense<[1, 0]> : tensor<2xi64>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_repeated_dimension(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'mlc.transpose' op permutation [1, 1] is not a permutation of 2 dimensions}}
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @transpose_wrong_length(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  // expected-error @+1 {{'mlc.transpose' op permutation [1, 0] is not a permutation of 3 dimensions}}
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return %0 : tensor<3x2x4xf32>
}

// -----

func.func @transpose_negative_index(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'mlc.transpose' op permutation [-1, 0] is not a permutation of 2 dimensions}}
  %0 = "mlc.transpose"(%x) {permutation = array<i64: -1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

/// result.shape[i] is input.shape[permutation[i]]: [4, 2, 3], not the inverse.

func.func @transpose_wrong_result_shape(%x: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  // expected-error @+1 {{'mlc.transpose' op result has shape [3, 4, 2], expected [4, 2, 3]}}
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  return %0 : tensor<3x4x2xf32>
}

// -----

func.func @transpose_element_type(%x: tensor<2x3xf32>) -> tensor<3x2xf16> {
  // expected-error @+1 {{'mlc.transpose' op result has element type f16, expected f32}}
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf16>
  return %0 : tensor<3x2xf16>
}

// -----

func.func @broadcast_to_lower_rank(%x: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlc.broadcast' op cannot broadcast rank 2 to lower rank 1}}
  %0 = "mlc.broadcast"(%x) : (tensor<2x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

/// Dimensions align from the right: 2 meets 3.

func.func @broadcast_incompatible(%x: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlc.broadcast' op cannot broadcast [2] to [2, 3]}}
  %0 = "mlc.broadcast"(%x) : (tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// Broadcasting only stretches size-1 dimensions; it never shrinks one.

func.func @broadcast_shrinks(%x: tensor<4x3xf32>) -> tensor<1x3xf32> {
  // expected-error @+1 {{'mlc.broadcast' op cannot broadcast [4, 3] to [1, 3]}}
  %0 = "mlc.broadcast"(%x) : (tensor<4x3xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @broadcast_element_type(%x: tensor<3xf32>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'mlc.broadcast' op result has element type f64, expected f32}}
  %0 = "mlc.broadcast"(%x) : (tensor<3xf32>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

func.func @broadcast_unranked(%x: tensor<*xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlc.broadcast' op input must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.broadcast"(%x) : (tensor<*xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// The operand count is checked first: concat is binary, a longer torch.cat is a
/// chain.

func.func @concat_three_operands(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlc.concat' op expects exactly 2 operands, but got 3}}
  %0 = "mlc.concat"(%x, %x, %x) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_missing_axis(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlc.concat' op requires attribute 'axis'}}
  %0 = "mlc.concat"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_mixed_element_types(%x: tensor<2x3xf32>, %y: tensor<2x3xf16>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlc.concat' op operands must share one element type, got f32, f16}}
  %0 = "mlc.concat"(%x, %y) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_unranked_lhs(%x: tensor<*xf32>, %y: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlc.concat' op operands must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.concat"(%x, %y) {axis = 0 : i64} : (tensor<*xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_unranked_rhs(%x: tensor<2x3xf32>, %y: tensor<*xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlc.concat' op operands must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.concat"(%x, %y) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<*xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_unranked_result(%x: tensor<2x3xf32>, %y: tensor<4x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'mlc.concat' op result must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.concat"(%x, %y) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

/// Rank-0 tensors have no axis to join along (torch rejects them too).

func.func @concat_rank_0(%x: tensor<f32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlc.concat' op operands must have rank >= 1, got rank 0}}
  %0 = "mlc.concat"(%x, %x) {axis = 0 : i64} : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

/// A rank-0 rhs does not have the lhs's rank.

func.func @concat_rank_0_rhs(%x: tensor<2xf32>, %y: tensor<f32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlc.concat' op operand shapes [2] and [] differ off axis 0}}
  %0 = "mlc.concat"(%x, %y) {axis = 0 : i64} : (tensor<2xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @concat_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'mlc.concat' op axis 2 is out of range for rank 2}}
  %0 = "mlc.concat"(%x, %x) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_negative_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlc.concat' op axis -3 is out of range for rank 2}}
  %0 = "mlc.concat"(%x, %x) {axis = -3 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_string_axis(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlc.concat' op attribute 'axis' must be an integer, got "0"}}
  %0 = "mlc.concat"(%x, %x) {axis = "0"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

/// Sizes along the axis may differ; off it they may not.

func.func @concat_differ_off_axis(%x: tensor<2x3xf32>, %y: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlc.concat' op operand shapes [2, 3] and [2, 4] differ off axis 0}}
  %0 = "mlc.concat"(%x, %y) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

/// The axis is normalized in the message: -1 of rank 2 is 1.

func.func @concat_differ_off_negative_axis(%x: tensor<2x3xf32>, %y: tensor<4x5xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlc.concat' op operand shapes [2, 3] and [4, 5] differ off axis 1}}
  %0 = "mlc.concat"(%x, %y) {axis = -1 : i64} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @concat_rank_mismatch(%x: tensor<2x3xf32>, %y: tensor<2x3x1xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlc.concat' op operand shapes [2, 3] and [2, 3, 1] differ off axis 0}}
  %0 = "mlc.concat"(%x, %y) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3x1xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_wrong_result_shape(%x: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'mlc.concat' op result has shape [2, 6], expected [4, 3]}}
  %0 = "mlc.concat"(%x, %x) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

/// The result's size along the axis is the sum of the operands' (2 + 4), not twice the lhs's.

func.func @concat_wrong_result_length(%x: tensor<2x3xf32>, %y: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlc.concat' op result has shape [4, 3], expected [6, 3]}}
  %0 = "mlc.concat"(%x, %y) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_result_element_type(%x: tensor<2x3xf32>) -> tensor<4x3xi32> {
  // expected-error @+1 {{'mlc.concat' op result has element type i32, expected f32}}
  %0 = "mlc.concat"(%x, %x) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xi32>
  return %0 : tensor<4x3xi32>
}

// -----

func.func @slice_missing_stride(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  // expected-error @+1 {{'mlc.slice' op requires attribute 'stride'}}
  %0 = "mlc.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 8, 6>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

func.func @slice_unranked(%x: tensor<*xf32>) -> tensor<8x6xf32> {
  // expected-error @+1 {{'mlc.slice' op input must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 8, 6>, stride = array<i64: 1, 1>} : (tensor<*xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

func.func @slice_start_wrong_length(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  // expected-error @+1 {{'mlc.slice' op attribute 'start' must have 2 elements, got 1}}
  %0 = "mlc.slice"(%x) {start = array<i64: 0>, limit = array<i64: 8, 6>, stride = array<i64: 1, 1>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

func.func @slice_limit_not_i64_array(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  // expected-error @+1 {{'mlc.slice' op attribute 'limit' must be an array<i64>, got [8, 6]}}
  %0 = "mlc.slice"(%x) {start = array<i64: 0, 0>, limit = [8, 6], stride = array<i64: 1, 1>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

func.func @slice_stride_wrong_length(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  // expected-error @+1 {{'mlc.slice' op attribute 'stride' must have 2 elements, got 3}}
  %0 = "mlc.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 8, 6>, stride = array<i64: 1, 1, 1>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

func.func @slice_zero_stride(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  // expected-error @+1 {{'mlc.slice' op dimension 1: slice 0:6:0 is out of bounds for size 6}}
  %0 = "mlc.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 8, 6>, stride = array<i64: 1, 0>} : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %0 : tensor<8x6xf32>
}

// -----

func.func @slice_negative_start(%x: tensor<8x6xf32>) -> tensor<9x6xf32> {
  // expected-error @+1 {{'mlc.slice' op dimension 0: slice -1:8:1 is out of bounds for size 8}}
  %0 = "mlc.slice"(%x) {start = array<i64: -1, 0>, limit = array<i64: 8, 6>, stride = array<i64: 1, 1>} : (tensor<8x6xf32>) -> tensor<9x6xf32>
  return %0 : tensor<9x6xf32>
}

// -----

func.func @slice_limit_before_start(%x: tensor<8x6xf32>) -> tensor<0x6xf32> {
  // expected-error @+1 {{'mlc.slice' op dimension 0: slice 5:3:1 is out of bounds for size 8}}
  %0 = "mlc.slice"(%x) {start = array<i64: 5, 0>, limit = array<i64: 3, 6>, stride = array<i64: 1, 1>} : (tensor<8x6xf32>) -> tensor<0x6xf32>
  return %0 : tensor<0x6xf32>
}

// -----

func.func @slice_limit_past_end(%x: tensor<8x6xf32>) -> tensor<8x7xf32> {
  // expected-error @+1 {{'mlc.slice' op dimension 1: slice 0:7:1 is out of bounds for size 6}}
  %0 = "mlc.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 8, 7>, stride = array<i64: 1, 1>} : (tensor<8x6xf32>) -> tensor<8x7xf32>
  return %0 : tensor<8x7xf32>
}

// -----

/// 0:8:3 takes rows 0, 3 and 6: ceil(8 / 3) = 3, not floor.

func.func @slice_wrong_result_shape(%x: tensor<8x6xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'mlc.slice' op result has shape [2, 6], expected [3, 6]}}
  %0 = "mlc.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 8, 6>, stride = array<i64: 3, 1>} : (tensor<8x6xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @slice_element_type(%x: tensor<8x6xf32>) -> tensor<8x6xf16> {
  // expected-error @+1 {{'mlc.slice' op result has element type f16, expected f32}}
  %0 = "mlc.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 8, 6>, stride = array<i64: 1, 1>} : (tensor<8x6xf32>) -> tensor<8x6xf16>
  return %0 : tensor<8x6xf16>
}

// -----

func.func @gather_missing_axis(%x: tensor<10x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'mlc.gather' op requires attribute 'axis'}}
  %0 = "mlc.gather"(%x, %i) : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_float_indices(%x: tensor<10x4xf32>, %i: tensor<3xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'mlc.gather' op indices must be integers, got tensor<3xf32>}}
  %0 = "mlc.gather"(%x, %i) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_unranked_indices(%x: tensor<10x4xf32>, %i: tensor<*xi64>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'mlc.gather' op indices must be a ranked tensor, got tensor<*xi64>}}
  %0 = "mlc.gather"(%x, %i) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<*xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_unranked_input(%x: tensor<*xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'mlc.gather' op input must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.gather"(%x, %i) {axis = 0 : i64} : (tensor<*xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_axis_out_of_range(%x: tensor<10x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'mlc.gather' op axis -3 is out of range for rank 2}}
  %0 = "mlc.gather"(%x, %i) {axis = -3 : i64} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_float_axis(%x: tensor<10x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'mlc.gather' op attribute 'axis' must be an integer, got 0.000000e+00 : f64}}
  %0 = "mlc.gather"(%x, %i) {axis = 0.0 : f64} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

/// The indices' shape replaces the gathered axis: [10, 4] at [2, 3] along 1 is [10, 2, 3].

func.func @gather_wrong_result_shape(%x: tensor<10x4xf32>, %i: tensor<2x3xi32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'mlc.gather' op result has shape [2, 3, 4], expected [10, 2, 3]}}
  %0 = "mlc.gather"(%x, %i) {axis = 1 : i64} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @gather_element_type(%x: tensor<10x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xi64> {
  // expected-error @+1 {{'mlc.gather' op result has element type i64, expected f32}}
  %0 = "mlc.gather"(%x, %i) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xi64>
  return %0 : tensor<3x4xi64>
}

// -----

func.func @pad_missing_value(%x: tensor<2x3xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.pad' op requires attribute 'value'}}
  %0 = "mlc.pad"(%x) {low = array<i64: 1, 1>, high = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @pad_unranked(%x: tensor<*xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.pad' op input must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.pad"(%x) {low = array<i64: 1, 1>, high = array<i64: 1, 1>, value = 0.0 : f64} : (tensor<*xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @pad_low_wrong_length(%x: tensor<2x3xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.pad' op attribute 'low' must have 2 elements, got 4}}
  %0 = "mlc.pad"(%x) {low = array<i64: 1, 1, 1, 1>, high = array<i64: 1, 1>, value = 0.0 : f64} : (tensor<2x3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @pad_high_not_i64_array(%x: tensor<2x3xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.pad' op attribute 'high' must be an array<i64>, got array<i32: 1, 1>}}
  %0 = "mlc.pad"(%x) {low = array<i64: 1, 1>, high = array<i32: 1, 1>, value = 0.0 : f64} : (tensor<2x3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @pad_negative(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'mlc.pad' op padding must not be negative, got low [0, 0] and high [0, -1]}}
  %0 = "mlc.pad"(%x) {low = array<i64: 0, 0>, high = array<i64: 0, -1>, value = 0.0 : f64} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @pad_integer_value(%x: tensor<2x3xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.pad' op attribute 'value' must be a float, got 0 : i64}}
  %0 = "mlc.pad"(%x) {low = array<i64: 1, 1>, high = array<i64: 1, 1>, value = 0 : i64} : (tensor<2x3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @pad_wrong_result_shape(%x: tensor<2x3xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'mlc.pad' op result has shape [3, 4], expected [5, 6]}}
  %0 = "mlc.pad"(%x) {low = array<i64: 1, 0>, high = array<i64: 2, 3>, value = 0.0 : f64} : (tensor<2x3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @pad_element_type(%x: tensor<2x3xf32>) -> tensor<4x5xf16> {
  // expected-error @+1 {{'mlc.pad' op result has element type f16, expected f32}}
  %0 = "mlc.pad"(%x) {low = array<i64: 1, 1>, high = array<i64: 1, 1>, value = 0.0 : f64} : (tensor<2x3xf32>) -> tensor<4x5xf16>
  return %0 : tensor<4x5xf16>
}

// -----

/// Counts are checked before the op's own verifier reads its operands.

func.func @concat_one_operand(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'mlc.concat' op expects exactly 2 operands, but got 1}}
  %0 = "mlc.concat"(%x) {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
