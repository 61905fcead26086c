// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// A divisor's check: whether any element is 0, reduced to an i32 on the device, read
/// back and asserted on the host (IREE fails the call with the message); the divisor
/// goes on unchanged.

// CHECK-LABEL: func.func @check_nonzero
// CHECK:       %[[ANY:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} ins(%arg1 : tensor<2x3xi64>) outs(%{{.*}} : tensor<i32>)
// CHECK:         arith.cmpi eq
// CHECK:         arith.extui
// CHECK:         arith.ori
// CHECK:       %[[FLAG:.*]] = tensor.extract %[[ANY]][] : tensor<i32>
// CHECK:       %[[NONE:.*]] = arith.cmpi eq, %[[FLAG]], %{{.*}} : i32
// CHECK:       cf.assert %[[NONE]], "integer division by zero: a divisor of the model's integer division, remainder or fmod is 0 (PyTorch raises ZeroDivisionError)"
// CHECK:       linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x3xi64>, tensor<2x3xi64>)
// CHECK:         arith.floordivsi
func.func @check_nonzero(%a: tensor<2x3xi64>, %d: tensor<2x3xi64>) -> tensor<2x3xi64> {
  %0 = "mlc.check_nonzero"(%d) : (tensor<2x3xi64>) -> tensor<2x3xi64>
  %1 = "mlc.floor_div"(%a, %0) : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return %1 : tensor<2x3xi64>
}
