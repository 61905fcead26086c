// RUN: mlc-opt %s --split-input-file --verify-diagnostics

/// A group has no operands and exactly one result; the body reads values from
/// above instead. mlc checks the counts (and the region count below) before its
/// own verifier runs; MLIR's verifier checks the terminator's position and adds a
/// note showing the operation.

func.func @operands(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op expects exactly 0 operands, but got 1}}
  %0 = "mlc.fusion_group"(%x) ({
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @two_results(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{'mlc.fusion_group' op expects exactly 1 result, but got 2}}
  %0:2 = "mlc.fusion_group"() ({
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  }) : () -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @result_not_a_tensor(%x: f32) -> f32 {
  // expected-error @+2 {{expected base type 'builtin.tensor' but got 'builtin.f32'}}
  // expected-note @+1 {{see current operation}}
  %0 = "mlc.fusion_group"() ({
    "mlc.yield"(%x) : (f32) -> ()
  }) : () -> f32
  return %0 : f32
}

// -----

func.func @no_block() -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op body must have one block, got 0}}
  %0 = "mlc.fusion_group"() ({
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @two_blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op body must have one block, got 2}}
  %0 = "mlc.fusion_group"() ({
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  ^bb1:
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @two_regions(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op expects 1 region(s), but got 2}}
  %0 = "mlc.fusion_group"() ({
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  }, {
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// Values come from above, not through block arguments.

func.func @block_argument() -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op body block must have no arguments, got 1}}
  %0 = "mlc.fusion_group"() ({
  ^bb0(%a: tensor<4xf32>):
    "mlc.yield"(%a) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @block_arguments_of_different_types() -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op body block must have no arguments, got 2}}
  %0 = "mlc.fusion_group"() ({
  ^bb0(%a: tensor<4xf32>, %i: tensor<4xi32>):
    "mlc.yield"(%a) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @no_terminator(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op body must end in 'mlc.yield'}}
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @empty_block() -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op body must end in 'mlc.yield'}}
  %0 = "mlc.fusion_group"() ({
  ^bb0:
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @ends_in_other_terminator() -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op body must end in 'mlc.yield'}}
  %0 = "mlc.fusion_group"() ({
    "llvm.unreachable"() : () -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_element_type_mismatch(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'mlc.fusion_group' op yielded type tensor<4xf32> must match result type tensor<4xf16>}}
  %0 = "mlc.fusion_group"() ({
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @yield_shape_mismatch(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op yielded type tensor<4xf32> must match result type tensor<2x2xf32>}}
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "mlc.yield"(%1) : (tensor<4xf32>) -> ()
  }) : () -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

/// Types must be equal: a dynamic size does not match a static one.

func.func @yield_dynamic_mismatch(%x: tensor<?xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op yielded type tensor<?xf32> must match result type tensor<4xf32>}}
  %0 = "mlc.fusion_group"() ({
    "mlc.yield"(%x) : (tensor<?xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// A nested group's yield is checked against its own result.

func.func @nested_yield_type_mismatch(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.fusion_group"() ({
    // expected-error @+1 {{'mlc.fusion_group' op yielded type tensor<4xf32> must match result type tensor<4xi32>}}
    %1 = "mlc.fusion_group"() ({
      "mlc.yield"(%x) : (tensor<4xf32>) -> ()
    }) : () -> tensor<4xi32>
    %2 = "mlc.cast"(%1) : (tensor<4xi32>) -> tensor<4xf32>
    "mlc.yield"(%2) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_two_values(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.fusion_group' op body must yield one value, got 2}}
  %0 = "mlc.fusion_group"() ({
    "mlc.yield"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_in_function(%x: tensor<4xf32>) {
  // expected-error @+1 {{'mlc.yield' op must be inside an 'mlc.fusion_group'}}
  "mlc.yield"(%x) : (tensor<4xf32>) -> ()
}

// -----

func.func @yield_in_other_region(%x: tensor<4xf32>) {
  "scf.execute_region"() ({
    // expected-error @+1 {{'mlc.yield' op must be inside an 'mlc.fusion_group'}}
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  }) : () -> ()
  return
}

// -----

/// Inside a group, but in a region of another op in the body.

func.func @yield_nested_in_other_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.fusion_group"() ({
    "scf.execute_region"() ({
      // expected-error @+1 {{'mlc.yield' op must be inside an 'mlc.fusion_group'}}
      "mlc.yield"(%x) : (tensor<4xf32>) -> ()
    }) : () -> ()
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_not_last(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.fusion_group"() ({
    // expected-error @+2 {{'mlc.yield' op must be the last operation in the parent block}}
    // expected-note @+1 {{see current operation}}
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_nothing(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'mlc.fusion_group' op body must yield one value, got 0}}
  %0 = "mlc.fusion_group"() ({
    "mlc.yield"() : () -> ()
  }) : () -> (tensor<2x3xf32>)
  return
}

// -----

func.func @no_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'mlc.fusion_group' op expects exactly 1 result, but got 0}}
  "mlc.fusion_group"() ({
    "mlc.yield"(%x) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
  return
}
