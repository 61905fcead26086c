// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-conv-tiles)' | FileCheck %s

/// A ResNet convolution of 64 channels on one image: vector tiles of 4 pixels by 16
/// channels (two AVX2 registers), over 4 rows of output per workgroup.

// CHECK-LABEL: func.func @wide
// CHECK:       linalg.conv_2d_nhwc_hwcf {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [0, 4, 56, 64, 0, 0, 0], vector_common_parallel = [1, 1, 4, 16, 0, 0, 0], vector_reduction = [0, 0, 0, 0, 1, 1, 8]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<ConvTileAndDecomposeExpert>>>, dilations
func.func @wide(%x: tensor<1x58x58x64xf32>, %w: tensor<3x3x64x64xf32>, %o: tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%o : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %r : tensor<1x56x56x64xf32>
}

// -----

/// 16 channels on a batch of 8, strided: 8 pixels by 8 channels, 4 rows of one image per workgroup.

// CHECK-LABEL: func.func @narrow_batch
// CHECK:       compilation_info = {{.*}}distribution = [1, 4, 32, 16, 0, 0, 0], vector_common_parallel = [1, 1, 8, 8, 0, 0, 0]
func.func @narrow_batch(%x: tensor<8x65x65x16xf32>, %w: tensor<3x3x16x16xf32>, %o: tensor<8x32x32x16xf32>) -> tensor<8x32x32x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<8x65x65x16xf32>, tensor<3x3x16x16xf32>) outs(%o : tensor<8x32x32x16xf32>) -> tensor<8x32x32x16xf32>
  return %r : tensor<8x32x32x16xf32>
}

// -----

/// Rows of 14 pixels and 128 channels: the 4-pixel tile halves to 2, which divides 14.

// CHECK-LABEL: func.func @halved
// CHECK:       vector_common_parallel = [1, 1, 2, 16, 0, 0, 0]
func.func @halved(%x: tensor<1x16x16x128xf32>, %w: tensor<3x3x128x128xf32>, %o: tensor<1x14x14x128xf32>) -> tensor<1x14x14x128xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x16x128xf32>, tensor<3x3x128x128xf32>) outs(%o : tensor<1x14x14x128xf32>) -> tensor<1x14x14x128xf32>
  return %r : tensor<1x14x14x128xf32>
}

// -----

/// Left to IREE: a stem of 3 input channels (IREE tiles it at 8 by 8 already), 12 output
/// channels (no tile of 8 divides them), rows of 7 pixels (no tile of 2 or more divides
/// them), a dilated convolution, and a dynamic batch.

// CHECK-LABEL: func.func @left_to_iree
// CHECK-NOT:   compilation_info
func.func @left_to_iree(%x: tensor<1x66x66x3xf32>, %w: tensor<3x3x3x16xf32>, %o: tensor<1x64x64x16xf32>,
                        %x2: tensor<1x10x10x16xf32>, %w2: tensor<3x3x16x12xf32>, %o2: tensor<1x8x8x12xf32>,
                        %x3: tensor<1x9x9x16xf32>, %w3: tensor<3x3x16x16xf32>, %o3: tensor<1x7x7x16xf32>,
                        %x4: tensor<1x12x12x16xf32>, %o4: tensor<1x8x8x16xf32>,
                        %x5: tensor<?x10x10x16xf32>, %o5: tensor<?x8x8x16xf32>)
    -> (tensor<1x64x64x16xf32>, tensor<1x8x8x12xf32>, tensor<1x7x7x16xf32>, tensor<1x8x8x16xf32>, tensor<?x8x8x16xf32>) {
  %stem = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x66x66x3xf32>, tensor<3x3x3x16xf32>) outs(%o : tensor<1x64x64x16xf32>) -> tensor<1x64x64x16xf32>
  %twelve = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x2, %w2 : tensor<1x10x10x16xf32>, tensor<3x3x16x12xf32>) outs(%o2 : tensor<1x8x8x12xf32>) -> tensor<1x8x8x12xf32>
  %seven = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x3, %w3 : tensor<1x9x9x16xf32>, tensor<3x3x16x16xf32>) outs(%o3 : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %dilated = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x4, %w3 : tensor<1x12x12x16xf32>, tensor<3x3x16x16xf32>) outs(%o4 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %dynamic = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x5, %w3 : tensor<?x10x10x16xf32>, tensor<3x3x16x16xf32>) outs(%o5 : tensor<?x8x8x16xf32>) -> tensor<?x8x8x16xf32>
  return %stem, %twelve, %seven, %dilated, %dynamic
      : tensor<1x64x64x16xf32>, tensor<1x8x8x12xf32>, tensor<1x7x7x16xf32>, tensor<1x8x8x16xf32>, tensor<?x8x8x16xf32>
}
