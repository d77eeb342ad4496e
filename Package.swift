// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "rpn-lsp",
  products: [
    .executable(name: "rpn-lsp", targets: ["rpn-lsp"]),
    .executable(name: "rpn-bench", targets: ["rpn-bench"]),
  ],
  targets: [
    // Framing, JSON values, the JSON-RPC envelope and error codes. Knows no LSP method.
    .target(name: "JSONRPC"),
    // The protocol's types and method names. Knows nothing of RPN.
    .target(name: "LSPTypes", dependencies: ["JSONRPC"]),
    // The language: lexer, builtins table, evaluator, document model, display. No I/O, no LSP.
    .target(name: "RPNEngine"),
    // LSP semantics joined to the engine: lifecycle, documents, encodings, one file per feature.
    .target(name: "RPNLanguageServer", dependencies: ["JSONRPC", "LSPTypes", "RPNEngine"]),
    // The executable: command line parsing, file I/O, and serving LSP on stdio.
    .executableTarget(name: "rpn-lsp", dependencies: ["RPNEngine", "RPNLanguageServer", "JSONRPC"]),
    // Starting a binary with its standard streams on pipes: how the bench and the tests start
    // the built `rpn-lsp`. Foundation only; not part of the server.
    .target(name: "ProcessPipes"),
    // Benchmarks: `swift run -c release rpn-bench`.
    .executableTarget(name: "rpn-bench", dependencies: ["RPNEngine", "JSONRPC", "ProcessPipes"]),
    // What the test targets share: the LSP test client (over the built binary's pipes, or with
    // the server in process), the lookup of the binary, seeded random numbers, cursor markers, and
    // the reference model of a document's text that the differential tests edit beside the engine.
    .target(
      name: "TestSupport", dependencies: ["JSONRPC", "RPNEngine", "RPNLanguageServer", "ProcessPipes"],
      path: "Tests/TestSupport"),
    .testTarget(name: "TestSupportTests", dependencies: ["TestSupport", "JSONRPC"]),
    .testTarget(name: "RPNEngineTests", dependencies: ["RPNEngine", "TestSupport"]),
    .testTarget(name: "JSONRPCTests", dependencies: ["JSONRPC"]),
    .testTarget(name: "LSPTypesTests", dependencies: ["LSPTypes", "JSONRPC"]),
    // End-to-end tests of the built `rpn-lsp` binary.
    .testTarget(name: "CommandLineTests", dependencies: ["rpn-lsp", "TestSupport", "ProcessPipes"]),
    // End-to-end tests of the LSP server: a test client speaking JSON-RPC to the built binary.
    .testTarget(
      name: "ServerTests", dependencies: ["rpn-lsp", "RPNEngine", "RPNLanguageServer", "JSONRPC", "TestSupport"]),
  ]
)
