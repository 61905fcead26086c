/// A weight whose blob is not in the file (as when a dialect_resources section is dropped).
func.func @main(%arg0: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %cst = arith.constant dense_resource<w> : tensor<32x64xf32>
  %0 = arith.addf %arg0, %cst : tensor<32x64xf32>
  return %0 : tensor<32x64xf32>
}
