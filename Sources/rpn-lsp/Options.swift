// The command line's words: the commands, the flags each takes, and parsing them into `Options`.

import RPNEngine

/// A command line that cannot be acted on; the message says what to change.
struct UsageError: Error {
  var message: String
}

/// A command of the command line (serving LSP is not one: it is what runs without a command).
enum Command: String {
  case eval
  case check
  case format
  case update

  /// The flags the command takes.
  var flags: Set<Flag> {
    switch self {
    case .eval, .check: [.precision, .maxItems, .angleMode, .notation, .decimals, .grouping]
    case .format: [.check, .write]
    case .update: [.add, .check, .write, .angleMode, .notation, .decimals, .grouping]
    }
  }

  /// Why the command does not take `flag`, said so that the user knows what to do instead.
  func refusal(of flag: Flag) -> String {
    switch (self, flag) {
    case (.update, .precision), (.update, .maxItems):
      return "update does not take \(flag.rawValue): it displays no stack; a check it updates keeps the digits "
        + "it was written with, and a check it adds is written in full"
    case (.format, .precision), (.format, .maxItems), (.format, .angleMode), (.format, .notation),
      (.format, .decimals), (.format, .grouping):
      return "format does not take \(flag.rawValue): the layout does not depend on values"
    case (_, .check), (_, .write):
      return "\(rawValue) does not take \(flag.rawValue) (format and update do)"
    default:
      return "\(rawValue) does not take \(flag.rawValue) (update does)"
    }
  }
}

/// A flag of the command line.
enum Flag: String {
  case precision = "--precision"
  case maxItems = "--max-items"
  case angleMode = "--angle-unit"
  case notation = "--notation"
  case decimals = "--decimals"
  case grouping = "--grouping"
  case check = "--check"
  case write = "--write"
  case add = "--add"
}

/// What a command line asks for: the files, and how to evaluate, display and write them.
struct Options {
  /// The settings the flags set: they override each document's `# rpn:` line, which overrides
  /// the defaults.
  var settings = DocumentSettings()
  var files: [String] = []
  /// `--check`: report whether the files would change instead of printing them.
  var checkOnly = false
  /// `--write`: rewrite the files in place instead of printing them.
  var write = false
  /// `--add` (update): add a check to every line that has none.
  var add = false
}

/// Parses the arguments after the command's name. `-` is standard input; `--` ends the flags.
/// A flag's value follows it (`--precision 4`) or is joined to it by `=` (`--precision=4`);
/// named values are read in any case (`--notation Fixed`). `--grouping` alone means true.
func parseOptions(_ arguments: ArraySlice<String>, for command: Command) throws(UsageError) -> Options {
  var options = Options()
  var arguments = arguments
  var onlyFiles = false
  while let argument = arguments.popFirst() {
    if onlyFiles || argument == "-" || !argument.hasPrefix("-") {
      options.files.append(argument)
      continue
    }
    if argument == "--" {
      onlyFiles = true
      continue
    }
    let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    let name = String(parts[0])
    var joined = parts.count == 2 ? String(parts[1]) : nil
    if name == "--no-grouping" && joined == nil {
      guard command.flags.contains(.grouping) else { throw UsageError(message: command.refusal(of: .grouping)) }
      options.settings.grouping = false
      continue
    }
    guard let flag = Flag(rawValue: name) else {
      throw UsageError(message: "unknown option '\(name)' (see rpn-lsp --help)")
    }
    guard command.flags.contains(flag) else { throw UsageError(message: command.refusal(of: flag)) }
    func value() throws(UsageError) -> String {
      if let text = joined.take() { return text }
      guard let value = arguments.popFirst() else { throw UsageError(message: "\(name) needs a value") }
      return value
    }
    func number(_ range: ClosedRange<Int>, _ what: String) throws(UsageError) -> Int {
      let text = try value()
      guard let n = Int(text), range.contains(n) else {
        throw UsageError(message: "\(name) takes \(what), not '\(text)'")
      }
      return n
    }
    switch flag {
    case .check, .write, .add:
      if joined != nil { throw UsageError(message: "\(name) takes no value") }
      switch flag {
      case .check: options.checkOnly = true
      case .write: options.write = true
      default: options.add = true
      }
    case .precision:
      options.settings.precision = try number(1...17, "a whole number from 1 to 17")
    case .maxItems:
      options.settings.maxItems = try number(DocumentSettings.maxItemsRange, "a whole number from 1 to 1000")
    case .decimals:
      options.settings.decimals = try number(0...15, "a whole number from 0 to 15")
    case .angleMode:
      let text = try value()
      guard let unit = AngleMode(rawValue: text.lowercased()) else {
        throw UsageError(message: "--angle-unit takes 'radians' or 'degrees', not '\(text)'")
      }
      options.settings.angleMode = unit
    case .notation:
      let text = try value()
      guard let notation = Notation(rawValue: text.lowercased()) else {
        throw UsageError(
          message: "--notation takes 'auto', 'fixed', 'scientific' or 'engineering', not '\(text)'")
      }
      options.settings.notation = notation
    case .grouping:
      // Only the joined form takes a value: `--grouping false FILE` would read `false` as a file.
      guard let text = joined else {
        options.settings.grouping = true
        continue
      }
      switch text.lowercased() {
      case "true": options.settings.grouping = true
      case "false": options.settings.grouping = false
      default: throw UsageError(message: "--grouping takes no value, or =true or =false, not '\(text)'")
      }
    }
  }
  return options
}
