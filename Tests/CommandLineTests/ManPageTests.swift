import Foundation
import Testing

/// The man page, `.packaging/rpn-lsp.1`, says what `rpn-lsp --help` says: each command, each
/// flag (and no flag that `--help` does not know), the named values of a flag, its range and its
/// default; and its version is the binary's. A flag added to `--help` fails here until the man
/// page has it.
@Suite struct ManPageTests {
  static let path = ReadmeTests.root.appendingPathComponent(".packaging/rpn-lsp.1")

  /// An item of a `.TP` list: its tag lines (more than one with `.TQ`) and its body, as text.
  struct Item {
    var tag: String
    var body: String
  }

  /// The page as text: the `.TH` line's arguments, each section's text (by its `.SH` title) and
  /// each section's `.TP` items. Macros become their arguments (the alternating ones, `.BR` and
  /// kin, joined without spaces, as they print); escapes become the characters they print.
  struct Page {
    var title: [String] = []
    var sections: [String: String] = [:]
    var items: [String: [Item]] = [:]
  }

  /// A roff line's arguments: words, or runs in double quotes.
  static func arguments(_ text: Substring) -> [String] {
    var arguments: [String] = []
    var current = ""
    var quoted = false
    var started = false
    for character in text {
      if character == "\"" {
        quoted.toggle()
        started = true
      } else if character == " " && !quoted {
        if started { arguments.append(current) }
        current = ""
        started = false
      } else {
        current.append(character)
        started = true
      }
    }
    if started { arguments.append(current) }
    return arguments
  }

  /// The characters roff prints for `text`: `\-` a hyphen, `\(aq` a quote; font changes, `\&`
  /// and `\|` nothing.
  static func unescaped(_ text: String) -> String {
    var text = text
    for (escape, printed) in [
      ("\\-", "-"), ("\\(aq", "'"), ("\\(lq", "\""), ("\\(rq", "\""), ("\\(en", "-"), ("\\e", "\\"),
      ("\\fB", ""), ("\\fI", ""), ("\\fR", ""), ("\\fP", ""), ("\\&", ""), ("\\|", ""),
    ] {
      text = text.replacingOccurrences(of: escape, with: printed)
    }
    return text
  }

  static func page() throws -> Page {
    let source = try String(contentsOf: path, encoding: .utf8)
    var page = Page()
    var section = ""
    var item: Item?  // The `.TP` item being read, until a paragraph or a (sub)section ends it.
    var inTag = false  // The next line of text is (part of) the item's tag.
    func endItem() {
      if let item { page.items[section, default: []].append(item) }
      item = nil
    }
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix(".\\\"") { continue }
      var text = unescaped(String(line))
      if line.hasPrefix(".") {
        let name = line.dropFirst().prefix { $0 != " " }
        let arguments = Self.arguments(line.dropFirst(name.count + 1)).map(unescaped)
        switch name {
        case "TH":
          page.title = arguments
          continue
        case "SH":
          endItem()
          section = arguments.joined(separator: " ")
          continue
        case "SS", "PP", "LP", "P":
          endItem()
          text = arguments.joined(separator: " ")
        case "TP":
          endItem()
          item = Item(tag: "", body: "")
          inTag = true
          continue
        case "TQ":
          inTag = true
          continue
        case "B", "I", "SY":
          text = arguments.joined(separator: " ")
        case "BR", "RB", "IR", "RI", "BI", "IB":
          text = arguments.joined()
        default:  // .br, .RS, .EX, .YS and the like print no text of their own
          continue
        }
      }
      page.sections[section, default: ""] += text + "\n"
      if inTag {
        item?.tag += text + " "
        inTag = false
      } else {
        item?.body += text + " "
      }
    }
    endItem()
    return page
  }

  /// The flags in `text`: `--` and a lowercase word (`--max-items`; not `--` alone).
  static func flags(in text: String) -> Set<String> {
    Set(text.matches(of: #/--[a-z][a-z0-9-]*/#).map { String($0.output) })
  }

  /// Whether `text` holds `flag` as a whole flag (`--grouping` is not in `--no-grouping`).
  static func mentions(_ text: String, _ flag: String) -> Bool {
    flags(in: text).contains(flag)
  }

  /// One option of `--help`: the flags it is listed under, and its text.
  struct HelpOption {
    var flags: [String]
    var text: String
  }

  /// The options `--help` lists: each starts on a line indented two spaces with a flag, and
  /// goes on over the lines indented further.
  static func helpOptions(_ help: String) -> [HelpOption] {
    var options: [HelpOption] = []
    var current: HelpOption?
    for line in help.split(separator: "\n") {
      if line.hasPrefix("  --") {
        if let current { options.append(current) }
        let heading = line.dropFirst(2).split(separator: "  ", maxSplits: 1).first ?? ""
        current = HelpOption(
          flags: heading.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) },
          text: String(line))
      } else if line.hasPrefix("    "), current != nil {
        current!.text += " " + line.trimmingCharacters(in: .whitespaces)
      } else {
        if let current { options.append(current) }
        current = nil
      }
    }
    if let current { options.append(current) }
    return options
  }

  @Test func everyCommandOfHelpIsInTheSynopsisAndTheCommands() throws {
    let help = try run(["--help"]).stdout
    let page = try Self.page()
    let commands = Set(
      help.split(separator: "\n").compactMap { line in
        line.firstMatch(of: #/^\s*(?:usage:)?\s*rpn-lsp ([a-z]+)/#).map { String($0.output.1) }
      })
    #expect(commands == ["eval", "check", "format", "update"], "the commands read from --help")
    let synopsis = try #require(page.sections["SYNOPSIS"])
    let items = try #require(page.items["COMMANDS"])
    for command in commands {
      #expect(
        synopsis.replacingOccurrences(of: "\n", with: " ").contains("rpn-lsp \(command) "),
        "the SYNOPSIS has no rpn-lsp \(command)")
      #expect(items.contains { $0.tag.hasPrefix(command + " ") }, "COMMANDS does not describe \(command)")
    }
    #expect(page.sections["NAME"]?.hasPrefix("rpn-lsp - ") == true, "NAME is `rpn-lsp - …`, for whatis")
  }

  @Test func everyFlagOfHelpIsInTheSynopsisAndDescribedAndNoOther() throws {
    let help = try run(["--help"]).stdout
    let page = try Self.page()
    let known = Self.flags(in: help)
    #expect(known.count >= 13 && known.isSuperset(of: ["--stdio", "--version", "--help", "--no-grouping"]), "\(known)")
    let synopsis = try #require(page.sections["SYNOPSIS"])
    let described = (page.items["OPTIONS"] ?? []) + (page.items["COMMANDS"] ?? [])
    for flag in known.sorted() {
      #expect(Self.mentions(synopsis, flag), "the SYNOPSIS does not show \(flag)")
      #expect(described.contains { Self.mentions($0.tag, flag) }, "no item of OPTIONS or COMMANDS describes \(flag)")
    }
    let all = page.sections.values.joined(separator: "\n")
    let unknown = Self.flags(in: all).subtracting(known)
    #expect(unknown.isEmpty, "the man page names flags that --help does not list: \(unknown.sorted())")
  }

  /// `--notation auto|fixed|…` lists its named values, `1 to 17` its range, `(default 15)` its
  /// default: the man page's item for the flag says the same.
  @Test func everyFlagsValuesRangeAndDefaultAreInItsItem() throws {
    let help = try run(["--help"]).stdout
    let items = try #require(try Self.page().items["OPTIONS"])
    let options = Self.helpOptions(help)
    #expect(options.count >= 10, "the options read from --help: \(options.map(\.flags))")
    var checked = 0
    for option in options {
      for flag in option.flags {
        let item = try #require(items.first { Self.mentions($0.tag, flag) }, "no OPTIONS item for \(flag)")
        if let values = option.text.firstMatch(of: #/--[a-z-]+ ([a-z]+(?:\|[a-z]+)+)/#) {
          for value in values.output.1.split(separator: "|") {
            #expect(item.tag.contains(value), "the item of \(flag) does not list the value \(value)")
            checked += 1
          }
        }
        if let range = option.text.firstMatch(of: #/(\d+) to (\d+)/#) {
          #expect(
            item.body.contains("\(range.output.1) to \(range.output.2)"),
            "the item of \(flag) does not say \(range.output.0): \(item.body)")
          checked += 1
        }
        if let value = option.text.firstMatch(of: #/\(default ([^):;, ]+)/#) {
          #expect(
            item.body.contains("default \(value.output.1)"),
            "the item of \(flag) does not give the default \(value.output.1): \(item.body)")
          checked += 1
        }
      }
    }
    #expect(checked >= 16, "values, ranges and defaults checked")
  }

  @Test func theVersionIsTheBinarys() throws {
    let version = try run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let title = try Self.page().title
    #expect(title.count == 5 && title[0] == "RPN-LSP" && title[1] == "1", "\(title)")
    #expect(title.count > 3 && title[3] == version, "the .TH line says \(title), rpn-lsp --version \(version)")
  }
}
