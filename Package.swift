// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "rpn-lsp",
  products: [
    .executable(name: "rpn-lsp", targets: ["rpn-lsp"]),
    .executable(name: "rpn-bench", targets: ["rpn-bench"]),
  ],
  targets: [
    // The language: lexer, builtins table, evaluator, document model, display. No I/O, no LSP.
    .target(name: "RPNEngine"),
    // The executable: command line parsing and file I/O around the engine.
    .executableTarget(name: "rpn-lsp", dependencies: ["RPNEngine"]),
    // Benchmarks: `swift run -c release rpn-bench`.
    .executableTarget(name: "rpn-bench", dependencies: ["RPNEngine"]),
    .testTarget(name: "RPNEngineTests", dependencies: ["RPNEngine"]),
    // End-to-end tests of the built `rpn-lsp` binary.
    .testTarget(name: "CommandLineTests", dependencies: ["rpn-lsp"]),
  ]
)
