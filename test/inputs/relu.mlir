func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
