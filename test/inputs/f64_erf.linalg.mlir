#map = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<4xf64>) -> tensor<4xf64> {
  %empty = tensor.empty() : tensor<4xf64>
  %0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<4xf64>) outs(%empty : tensor<4xf64>) {
  ^bb0(%in: f64, %out: f64):
    %e = math.erf %in : f64
    linalg.yield %e : f64
  } -> tensor<4xf64>
  return %0 : tensor<4xf64>
}
