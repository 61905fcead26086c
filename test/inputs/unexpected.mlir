func.func @f(%x: tensor<4xf32>) -> tensor<5xf32> {
  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{this message never comes}}
  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
