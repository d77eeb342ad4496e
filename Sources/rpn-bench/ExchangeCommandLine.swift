// The exchange's command lines: `eval`, `check`, `format` and `update` on every tape, every flag and every mistake.

import Foundation
import ProcessPipes
import Synchronization

/// A tape the command lines read: its name in the folder they run in, and its bytes.
struct ExchangeFile {
  var name: String
  var bytes: [UInt8]
}

/// Runs every command line of the exchange with `binary`, in a folder of its own (`folder`,
/// made afresh) that holds `files`; each run is a case: its arguments and standard input, and
/// its standard output, standard error, exit status and any file it rewrote. Names are relative
/// to the folder, so that two binaries' runs print the same paths.
func commandLineCases(binary: String, files: [ExchangeFile], folder: URL) -> [ExchangeCase] {
  let manager = FileManager.default
  try? manager.removeItem(at: folder)
  do {
    try manager.createDirectory(at: folder.appendingPathComponent("tapes/inner"), withIntermediateDirectories: true)
    for file in files { try Data(file.bytes).write(to: folder.appendingPathComponent(file.name)) }
    let extras: [(String, String)] = [
      ("bom.rpn", "\u{FEFF}1 2 + =3\n4 5 *\n"), ("empty.rpn", ""), ("-weird.rpn", "1 2 +\n"),
      ("tapes/a.rpn", "1 2 + =4\n"), ("tapes/inner/b.rpn", "3   4 *\n1 0 /\n"), ("tapes/notes.txt", "1 +\n"),
      ("formatted.rpn", "1 2 +\n"),
    ]
    for (name, text) in extras { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
    try Data([0x31, 0x20, 0xFF, 0x0A]).write(to: folder.appendingPathComponent("notutf8.rpn"))
    try manager.createSymbolicLink(
      atPath: folder.appendingPathComponent("tapes/link.rpn").path, withDestinationPath: "../bom.rpn")
  } catch {
    return [ExchangeCase(label: "command line setup", sent: "", received: ["cannot make \(folder.path): \(error)"])]
  }
  var cases: [ExchangeCase] = []
  func run(_ arguments: [String], input: String = "", rewrites: String? = nil) {
    var received = runCommand(binary, arguments, input: Array(input.utf8), in: folder)
    if let rewrites {
      let after = (try? Data(contentsOf: folder.appendingPathComponent(rewrites))).map {
        String(decoding: $0, as: UTF8.self)
      }
      received.append("\(rewrites) after: \(after ?? "<unreadable>")")
    }
    let sent = (["rpn-lsp"] + arguments).joined(separator: " ") + (input.isEmpty ? "" : " <<< \(input.prefix(80))")
    cases.append(ExchangeCase(label: "command line", sent: sent, received: received))
  }
  let tapes = files.map(\.name)
  for tape in tapes {
    for command in [
      ["eval"], ["check"], ["format"], ["update"], ["update", "--add"], ["format", "--check"], ["update", "--check"],
      ["update", "--add", "--check"],
    ] {
      run(command + [tape])
    }
  }
  for tape in ["rich-plain.rpn", "sample.rpn"] {
    for flags in [
      ["eval", "--precision", "4", "--max-items", "3", "--angle-unit", "degrees"],
      ["eval", "--notation", "scientific", "--decimals", "3", "--grouping"],
      ["eval", "--notation=engineering", "--decimals=1"],
      ["eval", "--notation", "fixed", "--grouping=true"], ["eval", "--no-grouping"], ["eval", "--grouping=false"],
      ["check", "--notation", "Fixed", "--angle-unit", "DEGREES", "--max-items=1000"],
      ["update", "--add", "--notation", "fixed", "--decimals", "1"], ["update", "--angle-unit", "degrees"],
      ["update", "--add", "--notation", "engineering", "--grouping"],
    ] {
      run(flags + [tape])
    }
  }
  let rich = String(decoding: files.first { $0.name == "rich.rpn" }?.bytes ?? [], as: UTF8.self)
  for command in [["eval", "-"], ["check", "-"], ["format", "-"], ["update", "-"], ["update", "--add", "-"]] {
    run(command, input: rich)
  }
  for arguments in [
    [], ["--stdio"], ["--stdio", "--stdio"], ["--verison"], ["--notation", "fixed"], ["--version"], ["--help"], ["-h"],
    ["help"], ["bogus"], ["sample.rpn"], ["missing.rpn"], ["eval"], ["check"], ["eval", "missing.rpn"],
    ["eval", "--precision", "99", "sample.rpn"], ["eval", "--precision"], ["eval", "--precision=x", "sample.rpn"],
    ["eval", "--max-items", "0", "sample.rpn"], ["eval", "--decimals", "16", "sample.rpn"],
    ["eval", "--angle-unit", "gradians", "sample.rpn"], ["eval", "--notation", "fancy", "sample.rpn"],
    ["eval", "--grouping=maybe", "sample.rpn"], ["eval", "--grouping", "false", "sample.rpn"],
    ["format", "--precision", "3", "sample.rpn"], ["format", "--notation", "fixed", "sample.rpn"],
    ["update", "--max-items", "3", "sample.rpn"], ["update", "--precision", "3", "sample.rpn"],
    ["eval", "--check", "sample.rpn"], ["eval", "--write", "sample.rpn"], ["check", "--add", "sample.rpn"],
    ["eval", "--bogus", "sample.rpn"], ["update", "--add=1", "sample.rpn"], ["format", "--write", "-"],
    ["eval", "notutf8.rpn"], ["check", "notutf8.rpn"], ["format", "notutf8.rpn"], ["update", "notutf8.rpn"],
    ["eval", "bom.rpn"], ["format", "bom.rpn"], ["update", "--add", "bom.rpn"], ["eval", "empty.rpn"],
    ["check", "empty.rpn"], ["eval", "--", "-weird.rpn"], ["eval", "-weird.rpn"], ["eval", "tapes"],
    ["check", "tapes"], ["check", "tapes/link.rpn"], ["format", "--check", "tapes"], ["update", "--check", "tapes"],
    ["update", "--add", "--check", "tapes", "sample.rpn"], ["check", "rich.rpn", "sample.rpn", "missing.rpn"],
    ["eval", "rich.rpn", "sample.rpn"], ["format", "rich.rpn", "sample.rpn"], ["format", "--check", "formatted.rpn"],
    ["format", "--check", "--write", "sample.rpn"],
  ] {
    run(arguments)
  }
  // Rewriting: each on a copy of its own, read back after.
  for (index, command) in [
    ["format", "--write"], ["update", "--write"], ["update", "--add", "--write"], ["update", "--add", "--write"],
  ].enumerated() {
    for tape in ["rich.rpn", "sample.rpn", "formatted.rpn", "bom.rpn"] {
      let copy = "copy-\(index)-\(tape)"
      try? manager.removeItem(at: folder.appendingPathComponent(copy))
      try? manager.copyItem(at: folder.appendingPathComponent(tape), to: folder.appendingPathComponent(copy))
      run(command + [copy], rewrites: copy)
    }
  }
  return cases
}

/// Runs `binary` with `arguments` in `folder`, `input` on its standard input; its standard
/// output, standard error and exit status, as text. One that runs past a minute is killed.
private func runCommand(_ binary: String, _ arguments: [String], input: [UInt8], in folder: URL) -> [String] {
  let child: PipedProcess
  do {
    child = try PipedProcess(executable: URL(fileURLWithPath: binary), arguments: arguments, directory: folder)
  } catch {
    return ["cannot start \(binary): \(error)"]
  }
  let errors = Collected()
  let group = DispatchGroup()
  if let handle = child.errors {
    DispatchQueue.global().async(group: group) { errors.set(handle.readDataToEndOfFile()) }
  }
  let pid = child.process.processIdentifier
  let finished = Collected()
  DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
    if !finished.isSet { kill(pid, SIGKILL) }
  }
  if !input.isEmpty { try? child.input.write(contentsOf: input) }
  try? child.input.close()
  let output = child.output.readDataToEndOfFile()
  group.wait()
  child.exited.wait()
  finished.set(Data())
  return [
    "stdout: " + String(decoding: output, as: UTF8.self), "stderr: " + String(decoding: errors.data, as: UTF8.self),
    "exit status \(child.process.terminationStatus)",
  ]
}

/// Bytes one thread reads and another takes once it is done.
private final class Collected: Sendable {
  private let value = Mutex<Data?>(nil)
  func set(_ data: Data) { value.withLock { $0 = data } }
  var data: Data { value.withLock { $0 } ?? Data() }
  var isSet: Bool { value.withLock { $0 != nil } }
}
