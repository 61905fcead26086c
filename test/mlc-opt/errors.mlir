/// Each bad input gets one located `error:` line on stderr and exit code 1.

// RUN: not mlc-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: mlc-opt: error: could not open input file '{{.*}}does-not-exist.mlir': No such file or directory
// MISSING-NOT: Traceback

// RUN: not mlc-opt %inputs/relu.mlir > /dev/full 2> %t.full.txt
// RUN: env PYTHONUNBUFFERED=1 not mlc-opt %inputs/relu.mlir > /dev/full 2>> %t.full.txt
// RUN: FileCheck %s --check-prefix=FULL --input-file=%t.full.txt
// FULL: mlc-opt: error: could not write the output: No space left on device
// FULL-NEXT: mlc-opt: error: could not write the output: No space left on device
// FULL-NOT: Traceback

// RUN: not mlc-opt %s --no-such-flag 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: mlc-opt: error: unrecognized arguments: --no-such-flag

// RUN: not mlc-opt %inputs/relu.mlir --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: <pass-pipeline>:1:16: error: unknown pass 'no-such-pass' (mlc-opt --list-passes lists them)

// RUN: not mlc-opt %inputs/relu.mlir --pass-pipeline='builtin.module(canonicalize{no-such-option=1})' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: <pass-pipeline>:1:16: error: pass 'canonicalize' has no option 'no-such-option'

// RUN: not mlc-opt %inputs/relu.mlir --pass-pipeline='builtin.module(cse' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: <pass-pipeline>:1:19: error: expected ')', found end of pipeline

// RUN: not mlc-opt %inputs/relu.mlir --pass-pipeline='cse' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// ANCHOR: <pass-pipeline>:1:1: error: the pipeline must be anchored on the module: 'builtin.module(...)'

// RUN: printf 'func.func @f( {' | not mlc-opt 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: <stdin>:1:14: error: expected non-function type
// MALFORMED-NOT: Traceback

// RUN: printf '"mlc.no_such_op"() : () -> ()' | not mlc-opt 2>&1 | FileCheck %s --check-prefix=UNKNOWN-OP
// UNKNOWN-OP: <stdin>:1:1: error: unregistered operation 'mlc.no_such_op' found in dialect ('mlc') that does not allow unknown operations

// RUN: printf '\xff\xfe' | not mlc-opt 2>&1 | FileCheck %s --check-prefix=BINARY
// BINARY: <stdin>: error: input is neither MLIR text (UTF-8) nor MLIR bytecode

// RUN: not mlc-opt %inputs/relu.mlir -o %t.no-such-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=OUTPUT
// OUTPUT: mlc-opt: error: could not write output file '{{.*}}out.mlir': No such file or directory

/// An upstream option value MLIR rejects: LLVM's own message, inside mlc's one error line.
// RUN: not mlc-opt %inputs/relu.mlir --pass-pipeline='builtin.module(canonicalize{max-iterations=abc})' 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE-NOT: long argument!
// VALUE: <pass-pipeline>:1:16: error: invalid pass 'canonicalize{max-iterations=abc}': for the --max-iterations option: 'abc' value invalid for long argument
// VALUE-NOT: long argument!

/// Bytecode is read from files only, and is never split.
// RUN: %PYTHON -c "from torch_mlir import ir; import mlc.dialects as d; ctx = d.make_context(); m = ir.Module.parseFile('%inputs/relu.mlir', ctx); m.operation.write_bytecode(open('%t.mlirbc', 'wb'))"
// RUN: mlc-opt %t.mlirbc | FileCheck %s --check-prefix=BYTECODE
// BYTECODE: func.func @relu
// RUN: not mlc-opt %t.mlirbc --split-input-file 2>&1 | FileCheck %s --check-prefix=SPLIT-BYTECODE
// SPLIT-BYTECODE: error: --split-input-file needs textual MLIR, not bytecode
// RUN: not mlc-opt < %t.mlirbc 2>&1 | FileCheck %s --check-prefix=STDIN-BYTECODE
// STDIN-BYTECODE: <stdin>: error: bytecode on stdin is not supported; pass a file
