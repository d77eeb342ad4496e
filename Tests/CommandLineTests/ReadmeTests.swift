import Foundation
import TestSupport
import Testing

/// The README as a new user reads it: every file it names is here, nothing points to a document
/// the repository does not hold, the install steps work on a fresh account, the first screen
/// warns of the two surprises, and the tour's tapes show what the tool prints.
@Suite struct ReadmeTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The READMEs a user reads (the top-level one and each editor's) and the architecture document.
  static func readmes() throws -> [(name: String, text: String)] {
    var names = ["README.md", "Sources/ARCHITECTURE.md"]
    let editors = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("EditorConfigs").path)
    for editor in editors.sorted() where !editor.hasSuffix(".rpn") {
      names.append("EditorConfigs/\(editor)/README.md")
    }
    return try names.map { ($0, try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8)) }
  }

  /// No reference to a contract users never see, and every repository path written in code
  /// quotes (`EditorConfigs/vim/`, `Tests/Editors/neovim/run.sh`) or as a link exists.
  @Test func noDanglingReferences() throws {
    let pathPattern = try NSRegularExpression(
      pattern: #"(?:`|\]\()((?:\.\./)?(?:EditorConfigs|Tests|Sources|\.ci)/[^`)\s]*)"#)
    var checked = 0
    for (name, text) in try Self.readmes() {
      #expect(!text.contains("SPEC"), "\(name) cites a document that is not in the repository")
      let folder = URL(fileURLWithPath: name).deletingLastPathComponent().relativePath
      for match in pathPattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        guard let range = Range(match.range(at: 1), in: text) else { continue }
        var path = String(text[range])
        while path.hasSuffix(".") || path.hasSuffix(",") || path.hasSuffix(":") { path.removeLast() }
        // Placeholders (`Sources/…`), globs and command lines are not paths.
        guard !path.contains("…"), !path.contains("*"), !path.contains("<") else { continue }
        let relative = path.hasPrefix("../") && folder != "." ? folder + "/" + path : path
        #expect(
          FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(relative).path),
          "\(name) names \(path), which does not exist")
        checked += 1
      }
    }
    #expect(checked > 20, "the pattern finds the paths the READMEs name")
  }

  /// The README's install lines, run with the built binary in place of the release one, on an
  /// account with no `~/.local/bin`: the binary lands there and runs.
  @Test func theInstallStepsWorkOnAFreshAccount() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let install = try #require(readme.components(separatedBy: "## Install").dropFirst().first)
    let block = try #require(install.components(separatedBy: "```").dropFirst().first)
    let lines = block.split(separator: "\n").map { $0.split(separator: "#", maxSplits: 1)[0] }
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("install") }
    try #require(lines.count == 1, "one install line in \(block)")
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("rpn-lsp-home-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(at: home) }
    let command = lines[0].replacingOccurrences(of: ".build/release/rpn-lsp", with: try serverBinary().path)
    let installed = try run(
      ["sh", "-c", "HOME='\(home.path)' && " + command.replacingOccurrences(of: "~", with: "$HOME")],
      executable: URL(fileURLWithPath: "/usr/bin/env"))
    #expect(installed.status == 0, "\(command): \(installed.stderr)")
    let version = try run(
      ["--version"], executable: home.appendingPathComponent(".local/bin/rpn-lsp"))
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("rpn-lsp "))
  }

  /// The first screen (before Install) says that `=name` keeps the value and that `%` keeps its
  /// base; the examples it gives are what the tool computes.
  @Test func theFirstScreenWarnsOfTheSurprises() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let first = try #require(readme.components(separatedBy: "## Install").first)
    #expect(first.contains("**`=name` keeps the value on the stack.**"))
    #expect(first.contains("**`%` keeps its base, like an HP calculator.**"))
    #expect(first.contains("`200 15 %` leaves `[200 30]`"))
    let result = try run(["eval", "-"], input: "12.50 =lunch\n200 15 %\n+\n")
    #expect(result.stdout == "12.50 =lunch  [12.5]\n200 15 %      [12.5 200 30]\n+             [12.5 230]\n")
  }

  /// Every tape of the tour is what `rpn-lsp eval` prints for it, to the byte: its stacks, its
  /// sections' summaries, its `!` marks and its columns. The tape is each line with its label
  /// (a stack, or a heading's summary) taken off.
  @Test func theTourShowsWhatEvalPrints() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let afterTitle = try #require(readme.components(separatedBy: "\n## A tour of the language\n").dropFirst().first)
    let tour = try #require(afterTitle.components(separatedBy: "\n## The language\n").first)
    // The pieces between fences alternate: prose, block, prose, block, …
    let blocks = tour.components(separatedBy: "```\n").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    #expect(blocks.count >= 10, "the tour has a tape for each step")
    let label = try NSRegularExpression(
      pattern: #"^(.*?\S) +(?:! )?(?:\[[^\]]*\]|Σ .*|no values|\d+ values?, mixed units)$"#)
    for shown in blocks {
      let tape = shown.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        let line = String(line)
        guard let match = label.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
          let range = Range(match.range(at: 1), in: line)
        else { return line }
        return String(line[range])
      }.joined(separator: "\n")
      let result = try run(["eval", "-"], input: tape)
      #expect(result.stdout == shown, "the README shows\n\(shown)\nwhere eval prints\n\(result.stdout)")
    }
  }
}
