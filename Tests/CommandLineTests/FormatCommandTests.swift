import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `rpn-lsp format FILE|-` prints the document formatted as the README's table of server features's `textDocument/formatting`
/// formats it; `--check` prints nothing on standard output, says on standard error that the file
/// would change and exits 1, or exits 0 silently when it is formatted; 2 on usage or I/O errors.
@Suite struct FormatCommandTests {
  /// Messy lines with every kind of line ending and whitespace, and their formatted text.
  static let messy =
    "  1   2\t+  \n# comment  kept   as is  \r\n   \r\r\n3 =x    # total ×\u{A0} \n\u{A0}x\u{2028}x\u{3000}*\r\n"
    + "   # indented note\n1 2 +\n😀  √   4\r\t\u{C}\r\n  π"
  static let formatted =
    "1 2 +\n# comment  kept   as is\r\n\r\r\n3 =x # total ×\nx x *\r\n# indented note\n1 2 +\n😀 √ 4\r\r\nπ"

  @Test func formatPrintsTheFormattedDocument() throws {
    let dir = try directory(with: ["messy.rpn": Self.messy])
    defer { try? FileManager.default.removeItem(at: dir) }
    let result = try run(["format", "messy.rpn"], in: dir)
    #expect(result.status == 0)
    #expect(Array(result.stdout.utf8) == Array(Self.formatted.utf8))
    #expect(result.stderr == "")
    // The file itself is left alone.
    let file = try Data(contentsOf: dir.appendingPathComponent("messy.rpn"))
    #expect(Array(file) == Array(Self.messy.utf8))
  }

  @Test func formatReadsStandardInput() throws {
    let result = try run(["format", "-"], input: Self.messy)
    #expect(result.status == 0)
    #expect(Array(result.stdout.utf8) == Array(Self.formatted.utf8))
    #expect(result.stderr == "")
    let empty = try run(["format", "-"], input: "")
    #expect(empty.status == 0)
    #expect(empty.stdout == "")
  }

  /// Formatting the output again changes nothing.
  @Test func formatIsIdempotent() throws {
    let once = try run(["format", "-"], input: Self.messy)
    let twice = try run(["format", "-"], input: once.stdout)
    #expect(twice.status == 0)
    #expect(Array(twice.stdout.utf8) == Array(once.stdout.utf8))
  }

  @Test func checkFailsWhenTheFileWouldChange() throws {
    let dir = try directory(with: ["messy.rpn": Self.messy, "clean.rpn": Self.formatted])
    defer { try? FileManager.default.removeItem(at: dir) }
    for arguments in [["format", "--check", "messy.rpn"], ["format", "messy.rpn", "--check"]] {
      let result = try run(arguments, in: dir)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.stdout == "", "\(arguments)")
      #expect(result.stderr.contains("messy.rpn"), "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasSuffix("\n"), "\(arguments): \(result.stderr)")
    }
    let stdin = try run(["format", "--check", "-"], input: "1  2\n")
    #expect(stdin.status == 1)
    #expect(stdin.stdout == "")
    #expect(!stdin.stderr.isEmpty)
    // One space too many, only inside a line: still a change.
    let inner = try run(["format", "--check", "-"], input: "1 2 +\n3  4\n")
    #expect(inner.status == 1)
  }

  @Test func checkIsSilentWhenTheFileIsFormatted() throws {
    let dir = try directory(with: ["clean.rpn": Self.formatted, "empty.rpn": ""])
    defer { try? FileManager.default.removeItem(at: dir) }
    for arguments in [["format", "--check", "clean.rpn"], ["format", "--check", "empty.rpn"]] {
      let result = try run(arguments, in: dir)
      #expect(result.status == 0, "\(arguments)")
      #expect(result.stdout == "", "\(arguments)")
      #expect(result.stderr == "", "\(arguments)")
    }
    let stdin = try run(["format", "--check", "-"], input: "# fine\n1 2 + # sum\r\n\r=x x *")
    #expect(stdin.status == 0)
    #expect(stdin.stdout == "")
    #expect(stdin.stderr == "")
  }

  @Test func formatFailsOnUsageAndIOErrors() throws {
    let dir = try directory(with: ["a.rpn": "1", "b.rpn": "2"])
    defer { try? FileManager.default.removeItem(at: dir) }
    for arguments in [["format", "missing.rpn"], ["format", "--check", "missing.rpn"]] {
      let missing = try run(arguments, in: dir)
      #expect(missing.status == 2, "\(arguments)")
      #expect(missing.stdout == "", "\(arguments)")
      #expect(missing.stderr.contains("missing.rpn"), "\(arguments): \(missing.stderr)")
    }
    #expect(try run(["format"], in: dir).status == 2)
    #expect(try run(["format", "--check"], in: dir).status == 2)
    #expect(try run(["format", "a.rpn", "b.rpn"], in: dir).status == 2)
    #expect(try run(["format", "--bogus", "a.rpn"], in: dir).status == 2)
    let help = try run(["--help"])
    #expect(help.stdout.contains("rpn-lsp format FILE"))
  }
}
