// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all}, mlc-outline-library-dispatches)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all}, mlc-outline-library-dispatches)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// STATS: 'mlc-outline-library-dispatches'
// STATS: (1) library dispatches outlined

/// The library matmul's region becomes an executable: its export's workgroup count is
/// the region's (the workload, 1, 1); its function loads each tensor the region read
/// (x and the weight) from a read-only binding, calls the plugin as the region did, and
/// stores the product into a write-only binding. `main` dispatches it with the
/// workload and those tensors. The epilogue's region is not the plugin's and stays.

// CHECK:       "flow.executable"() ({
// CHECK-NEXT:    "flow.executable.export"() ({
// CHECK-NEXT:    ^bb0(%[[WORKLOAD:.*]]: index):
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      "flow.return"(%[[WORKLOAD]], %[[ONE]], %[[ONE]]) : (index, index, index) -> ()
// CHECK-NEXT:    }) {function_ref = @mlc_library_0, sym_name = "mlc_library_0"} : () -> ()
// CHECK-NEXT:    builtin.module {
// CHECK-NEXT:      func.func @mlc_library_0(%[[XB:.*]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x32xf32>>, %[[WB:.*]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x32xf32>>, %[[OUT:.*]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<64x32xf32>>) {
// CHECK-NEXT:        %[[X:.*]] = "iree_tensor_ext.dispatch.tensor.load"(%[[XB]]) {{.*}}static_sizes = array<i64: 64, 32>{{.*}} -> tensor<64x32xf32>
// CHECK-NEXT:        %[[W:.*]] = "iree_tensor_ext.dispatch.tensor.load"(%[[WB]]) {{.*}} -> tensor<32x32xf32>
// CHECK-NEXT:        %[[DEST:.*]] = tensor.empty() : tensor<64x32xf32>
// CHECK:             %[[CALL:.*]] = "iree_codegen.ukernel.generic"(%[[X]], %[[W]], %[[DEST]], {{.*}}u_kernel_fn_name = "mlc_sgemm"
// CHECK-NEXT:        "iree_tensor_ext.dispatch.tensor.store"(%[[CALL]], %[[OUT]])
// CHECK-NEXT:        return
// CHECK:         "flow.executable_end"() : () -> ()
// CHECK-NEXT:  }) {sym_name = "mlc_library_0", sym_visibility = "private"} : () -> ()
// CHECK-LABEL: func.func @linear_relu
// CHECK-SAME:    (%[[XA:.*]]: tensor<64x32xf32>, %[[WA:.*]]: tensor<32x32xf32>, %[[B:.*]]: tensor<32xf32>)
// CHECK:         %[[WORKGROUPS:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[PRODUCT:.*]] = "flow.dispatch"(%[[WORKGROUPS]], %[[XA]], %[[WA]]) {entry_points = [@mlc_library_0::@mlc_library_0], operandSegmentSizes = array<i32: 1, 2, 0, 0>, tied_operands = [-1 : index]} : (index, tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
// CHECK-NOT:     iree_codegen.ukernel.generic
// CHECK:         "flow.dispatch.region"() ({
// CHECK:           linalg.generic {{.*}} ins(%[[PRODUCT]], %[[B]]
func.func @linear_relu(%x: tensor<64x32xf32>, %w: tensor<32x32xf32>, %b: tensor<32xf32>) -> tensor<64x32xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %1 = "mlc.add"(%0, %b) : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64x32xf32>
  %2 = "mlc.relu"(%1) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %2 : tensor<64x32xf32>
}

// -----

/// One executable per region, numbered in program order; a tensor read twice is one
/// binding.

// CHECK: sym_name = "mlc_library_0"
// CHECK: func.func @mlc_library_0(%{{.*}}: !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32>>, %{{.*}}: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32>>)
// CHECK: sym_name = "mlc_library_1"
// CHECK-LABEL: func.func @square_twice
// CHECK: %[[FIRST:.*]] = "flow.dispatch"(%{{.*}}, %{{.*}}) {entry_points = [@mlc_library_0::@mlc_library_0]
// CHECK: "flow.dispatch"(%{{.*}}, %[[FIRST]]) {entry_points = [@mlc_library_1::@mlc_library_1]
func.func @square_twice(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = "mlc.matmul"(%x, %x) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = "mlc.matmul"(%0, %0) : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return %1 : tensor<16x16xf32>
}
