import Foundation
import ProcessPipes
import TestSupport
import Testing

/// What a run of the binary printed and how it ended.
struct Run {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Collects what a pipe delivers until its end, on its own thread, so that neither pipe fills
/// while the other is read.
private final class Collector: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var data = Data()

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  func text(until deadline: DispatchTime) -> String? {
    guard done.wait(timeout: deadline) == .success else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}

struct TimedOut: Error, CustomStringConvertible {
  var description: String
}

/// Runs each command line and expects a usage error: exit status 2, nothing on standard
/// output, and a message on standard error that starts `rpn-lsp: ` and says `message`.
func expectUsageErrors(
  _ cases: [(arguments: [String], message: String)], in directory: URL,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  for (arguments, message) in cases {
    let result = try run(arguments, in: directory)
    #expect(result.status == 2, "\(arguments)", sourceLocation: sourceLocation)
    #expect(result.stdout == "", "\(arguments)", sourceLocation: sourceLocation)
    #expect(result.stderr.hasPrefix("rpn-lsp: "), "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
  }
}

/// Runs `rpn-lsp` with `arguments` in `directory`, feeding it `input` on standard input; kills
/// it and throws when it has not finished within `timeout`.
func run(
  _ arguments: [String], in directory: URL? = nil, input: String = "", timeout: TimeInterval = 20,
  executable: URL? = nil
) throws -> Run {
  let child = try PipedProcess(
    executable: executable ?? serverBinary(), arguments: arguments, directory: directory)
  let out = Collector(child.output)
  let err = Collector(child.errors ?? .nullDevice)  // A pipe: errors are not discarded here.
  let writer = child.input
  let bytes = Data(input.utf8)
  Thread.detachNewThread {
    try? writer.write(contentsOf: bytes)
    try? writer.close()
  }
  let deadline = DispatchTime.now() + timeout
  guard child.exited.wait(timeout: deadline) == .success else {
    kill(child.process.processIdentifier, SIGKILL)
    throw TimedOut(description: "rpn-lsp \(arguments) did not finish within \(timeout) s; it was killed")
  }
  guard let output = out.text(until: deadline), let errors = err.text(until: deadline) else {
    throw TimedOut(description: "rpn-lsp \(arguments) exited but its output did not end within \(timeout) s")
  }
  return Run(status: child.process.terminationStatus, stdout: output, stderr: errors)
}

/// A fresh directory holding `files` (name → contents), removed by the caller.
func directory(with files: [String: String]) throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("rpn-lsp-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  for (name, contents) in files {
    try Data(contents.utf8).write(to: url.appendingPathComponent(name))
  }
  return url
}

private let lunch = """
  # lunch split
  12.50 =lunch
  8 =coffee

  +   # total\u{20}\u{20}
  3 /
    # an indented note
  =café
  =日本
  zzz

  """

/// `zzz` has a diagnostic: its label is marked `! `, and the others move two columns to stay in line.
private let lunchTape = """
  # lunch split
  12.50 =lunch    [12.5]
  8 =coffee       [12.5 8]

  +   # total     [20.5]
  3 /             [6.83333333333333]
    # an indented note
  =café           [6.83333333333333]
  =日本           [6.83333333333333]
  zzz           ! [6.83333333333333]

  """

private let mistakes = "1 2 +\n2 =é 😀 zzz\n1 0 /\n  -1 sqrt # ☕\ne\u{301} 0 /\n"

@Suite struct CommandLineTests {
  // MARK: check

  @Test func checkPrintsOneLinePerDiagnostic() throws {
    let dir = try directory(with: ["mistakes.rpn": mistakes])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["check", "mistakes.rpn"], in: dir)
    #expect(result.status == 1)
    #expect(result.stderr == "")
    #expect(
      result.stdout.split(separator: "\n", omittingEmptySubsequences: false) == [
        "mistakes.rpn:2:6: error: unknown word `😀` [unknown-word]",
        "mistakes.rpn:2:8: error: unknown word `zzz` [unknown-word]",
        "mistakes.rpn:3:5: warning: `/` divides by zero [division-by-zero]",
        "mistakes.rpn:4:6: warning: `sqrt` of -1 is undefined: a square root needs a value ≥ 0 [domain-error]",
        "mistakes.rpn:5:1: error: unknown word `e\u{301}`; did you mean `e`? [unknown-word]",
        "mistakes.rpn:5:6: warning: `/` divides by zero [division-by-zero]",
        "",
      ])
  }

  @Test func checkNamesTheFileAsGivenAndCountsEveryLineBreak() throws {
    let dir = try directory(with: ["crlf.rpn": "1\r\n+\r\n\r= # x\r\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["check", "./crlf.rpn"], in: dir)
    #expect(result.status == 1)
    #expect(
      result.stdout == """
        ./crlf.rpn:2:1: warning: `+` needs 2 values but the stack holds only 1 [stack-underflow]
        ./crlf.rpn:4:1: error: `=` needs a name after it, like `=total` [invalid-name]

        """)
  }

  @Test func checkReadsStandardInput() throws {
    let result = try run(["check", "-"], input: "1\n\t2 + +\n")
    #expect(result.status == 1)
    #expect(result.stdout == "-:2:6: warning: `+` needs 2 values but the stack holds only 1 [stack-underflow]\n")
  }

  /// A line of uses that fail the same way is one line of `check`, counting the rest; written
  /// as it is found, a megabyte of such lines stays within 100 MB (it was 480 MB).
  @Test func checkPrintsRepeatedFailuresOnce() throws {
    let uses = Array(repeating: "z", count: 500).joined(separator: " ")
    let result = try run(["check", "-"], input: "1 : z 0 / ;\n\(uses)\n")
    #expect(result.status == 1)
    #expect(
      result.stdout
        == "-:2:1: warning: `z` failed: in its definition (line 1), `/` divides by zero; the stack is as it was "
        + "before `z`; 499 more uses after it on this line fail the same way [division-by-zero]\n")
  }

  @Test func checkOfACleanFileSaysNothing() throws {
    let dir = try directory(with: ["clean.rpn": "# fine\n1 2 +\n=x x *\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["check", "clean.rpn"], in: dir)
    #expect(result.status == 0)
    #expect(result.stdout == "")
    #expect(result.stderr == "")
  }

  @Test func checkTakesSeveralFiles() throws {
    let dir = try directory(with: ["a.rpn": "1", "b.rpn": "+"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["check", "a.rpn", "b.rpn"], in: dir)
    #expect(result.status == 1)
    #expect(result.stdout == "b.rpn:1:1: warning: `+` needs 2 values but the stack is empty [stack-underflow]\n")
  }

  @Test func checkUsesTheAngleUnit() throws {
    let dir = try directory(with: ["deg.rpn": "90 tan\n180 sin\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let radians = try run(["check", "deg.rpn"], in: dir)
    #expect(radians.status == 0)
    let degrees = try run(["check", "--angle-unit", "degrees", "deg.rpn"], in: dir)
    #expect(degrees.status == 1)
    #expect(degrees.stdout.hasPrefix("deg.rpn:1:4: warning: "))
    #expect(degrees.stdout.hasSuffix(" [domain-error]\n"))
  }

  @Test func checkReportsFailingChecksAsWarnings() throws {
    let dir = try directory(with: ["sums.rpn": "12.5 8 + =20.5\n3 / =6.9 # each\n1400 =1.5e3\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["check", "sums.rpn"], in: dir)
    #expect(result.status == 1)
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        sums.rpn:2:5: warning: expected 6.9, the top is 6.83333333333333 (6.8 to 1 decimal) [check-failed]
        sums.rpn:3:6: warning: expected 1.5e3, the top is 1400 (1400 to the nearest 100) [check-failed]

        """)
    let passing = try run(["check", "-"], input: "12.5 8 + =20.5\n3 / =6.8 # each\n")
    #expect(passing.status == 0)
    #expect(passing.stdout == "")
  }

  @Test func checkFailsOnUsageAndIOErrors() throws {
    let dir = try directory(with: ["clean.rpn": "1\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let missing = try run(["check", "missing.rpn"], in: dir)
    #expect(missing.status == 2)
    #expect(missing.stdout == "")
    #expect(missing.stderr.contains("missing.rpn"))
    let oneMissing = try run(["check", "clean.rpn", "missing.rpn"], in: dir)
    #expect(oneMissing.status == 2)
    #expect(try run(["check"], in: dir).status == 2)
    #expect(try run(["check", "--bogus", "clean.rpn"], in: dir).status == 2)
    #expect(try run(["check", "--precision", "0", "clean.rpn"], in: dir).status == 2)
    #expect(try run(["check", "--angle-unit", "gradians", "clean.rpn"], in: dir).status == 2)
    #expect(try run(["frobnicate"], in: dir).status == 2)
  }

  // MARK: eval

  @Test func evalPrintsTheTapeWithLabelsInOneColumn() throws {
    let dir = try directory(with: ["lunch.rpn": lunch])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["eval", "lunch.rpn"], in: dir)
    #expect(result.status == 0)
    #expect(result.stdout == lunchTape)
    #expect(result.stderr == "lunch.rpn:10:1: error: unknown word `zzz` [unknown-word]\n")
  }

  @Test func evalReadsStandardInput() throws {
    let result = try run(["eval", "-"], input: "1 2 +\n\n10 *  # ten\n")
    #expect(result.status == 0)
    #expect(result.stdout == "1 2 +        [3]\n\n10 *  # ten  [30]\n")
    #expect(result.stderr == "")
  }

  /// A heading's line shows its section's summary in the label column.
  @Test func evalPrintsEachHeadingsSummary() throws {
    let result = try run(
      ["eval", "--precision", "4", "-"], input: "# budget\n## Groceries  \n12.5\n8 =x\n## Rent\n900 1 3 /\n##\n")
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        # budget
        ## Groceries  Σ 20.5 · 2 values · avg 10.25
        12.5          [12.5]
        8 =x          [12.5 8]
        ## Rent       Σ 900.3 · 2 values · avg 450.2
        900 1 3 /     [12.5 8 900 0.3333]
        ##            no values

        """)
  }

  @Test func evalShowsMistakesOnStandardError() throws {
    let result = try run(["eval", "-"], input: "1 +\n")
    #expect(result.status == 0)
    #expect(result.stdout == "1 +  ! [1]\n")
    #expect(result.stderr == "-:1:3: warning: `+` needs 2 values but the stack holds only 1 [stack-underflow]\n")
  }

  @Test func evalTakesDisplayOptions() throws {
    let result = try run(["eval", "--precision", "3", "--max-items", "2", "-"], input: "1 2 3 7 /\n")
    #expect(result.status == 0)
    #expect(result.stdout == "1 2 3 7 /  [… 2 0.429]\n")
  }

  @Test func evalFailsOnUsageAndIOErrors() throws {
    let dir = try directory(with: ["a.rpn": "1", "b.rpn": "2"])
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(try run(["eval"], in: dir).status == 2)
    #expect(try run(["eval", "missing.rpn"], in: dir).status == 2)
    #expect(try run(["eval", "a.rpn", "missing.rpn"], in: dir).status == 2)
    #expect(try run(["eval", "--max-items", "0", "a.rpn"], in: dir).status == 2)
    let missing = try run(["eval", "missing.rpn"], in: dir)
    #expect(missing.stdout == "")
    #expect(missing.stderr.contains("missing.rpn"))
  }

  /// `--max-items` takes 1 to 1000, as the editor's setting and the tape's `maxItems=` do.
  @Test func maxItemsTakesUpToAThousand() throws {
    let ones = { (count: Int) in Array(repeating: "1", count: count).joined(separator: " ") }
    let tape = ones(1001) + "\n"
    let widest = try run(["eval", "--max-items", "1000", "-"], input: tape)
    #expect(widest.status == 0)
    #expect(widest.stdout == ones(1001) + "  [… " + ones(1000) + "]\n")
    for value in ["1001", "0", "99999999999999999999"] {
      let refused = try run(["eval", "--max-items", value, "-"], input: tape)
      #expect(refused.status == 2, "\(value)")
      #expect(refused.stdout == "", "\(value)")
      #expect(
        refused.stderr == "rpn-lsp: --max-items takes a whole number from 1 to 1000, not '\(value)'\n", "\(value)")
    }
  }

  // MARK: A tape without a command

  /// A first argument that names a tape (it ends in `.rpn`, in any case, or it exists) is a
  /// command forgotten: the message shows the command line that evaluates it, the name quoted
  /// for the shell when it needs it and its control characters escaped. Exit status 2.
  @Test func aTapeWithoutACommandSuggestsEval() throws {
    let dir = try directory(with: ["budget.txt": "1\n", "my tape.rpn": "1\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let cases: [(argument: String, message: String)] = [
      ("foo.rpn", "unknown command 'foo.rpn'; to evaluate a tape: rpn-lsp eval foo.rpn"),
      ("Lunch.RPN", "unknown command 'Lunch.RPN'; to evaluate a tape: rpn-lsp eval Lunch.RPN"),
      ("budget.txt", "unknown command 'budget.txt'; to evaluate a tape: rpn-lsp eval budget.txt"),
      ("my tape.rpn", "unknown command 'my tape.rpn'; to evaluate a tape: rpn-lsp eval 'my tape.rpn'"),
      ("it's.rpn", "unknown command 'it's.rpn'; to evaluate a tape: rpn-lsp eval 'it'\\''s.rpn'"),
      ("a\u{1B}[2J.rpn", "unknown command 'a\\x1b[2J.rpn'; to evaluate a tape: rpn-lsp eval 'a\\x1b[2J.rpn'"),
      ("frobnicate", "unknown command 'frobnicate' (see rpn-lsp --help)"),
      ("budget", "unknown command 'budget' (see rpn-lsp --help)"),
    ]
    for (argument, message) in cases {
      let result = try run([argument], in: dir)
      #expect(result.status == 2, "\(argument)")
      #expect(result.stdout == "", "\(argument)")
      #expect(result.stderr == "rpn-lsp: \(message)\n", "\(argument)")
    }
  }

  // MARK: --version, --help

  @Test func versionAndHelp() throws {
    let version = try run(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("rpn-lsp "))
    #expect(version.stdout.hasSuffix("\n"))
    let help = try run(["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("rpn-lsp eval FILE"))
    #expect(help.stdout.contains("rpn-lsp check FILE"))
    #expect(help.stdout.contains("rpn-lsp update FILE"))
    for flag in ["--add", "--check", "--write", "--angle-unit"] { #expect(help.stdout.contains(flag), "\(flag)") }
  }
}
