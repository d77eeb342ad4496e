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
    case .eval, .check: [.precision, .maxItems, .angleUnit]
    case .format: [.check, .write]
    case .update: [.add, .check, .write, .angleUnit]
    }
  }

  /// Why the command does not take `flag`, said so that the user knows what to do instead.
  func refusal(of flag: Flag) -> String {
    switch (self, flag) {
    case (.update, .precision), (.update, .maxItems):
      return "update does not take \(flag.rawValue): it displays no stack; a check it updates keeps the digits "
        + "it was written with, and a check it adds is written in full"
    case (.format, .precision), (.format, .maxItems), (.format, .angleUnit):
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
  case angleUnit = "--angle-unit"
  case check = "--check"
  case write = "--write"
  case add = "--add"
}

/// What a command line asks for: the files, and how to evaluate, display and write them.
struct Options {
  var display = DisplaySettings()
  var evaluation = EvaluationSettings()
  var files: [String] = []
  /// `--check`: report whether the files would change instead of printing them.
  var checkOnly = false
  /// `--write`: rewrite the files in place instead of printing them.
  var write = false
  /// `--add` (update): add a check to every line that has none.
  var add = false
}

/// Parses the arguments after the command's name. `-` is standard input; `--` ends the flags.
func parseOptions(_ arguments: ArraySlice<String>, for command: Command) throws(UsageError) -> Options {
  var options = Options()
  var arguments = arguments
  func value(of flag: String) throws(UsageError) -> String {
    guard let value = arguments.popFirst() else { throw UsageError(message: "\(flag) needs a value") }
    return value
  }
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
    guard let flag = Flag(rawValue: argument) else {
      throw UsageError(message: "unknown option '\(argument)' (see rpn-lsp --help)")
    }
    guard command.flags.contains(flag) else { throw UsageError(message: command.refusal(of: flag)) }
    switch flag {
    case .check:
      options.checkOnly = true
    case .write:
      options.write = true
    case .add:
      options.add = true
    case .precision:
      let text = try value(of: argument)
      guard let n = Int(text), (1...17).contains(n) else {
        throw UsageError(message: "--precision takes a whole number from 1 to 17, not '\(text)'")
      }
      options.display.precision = n
    case .maxItems:
      let text = try value(of: argument)
      guard let n = Int(text), n >= 1 else {
        throw UsageError(message: "--max-items takes a whole number of at least 1, not '\(text)'")
      }
      options.display.maxItems = n
    case .angleUnit:
      let text = try value(of: argument)
      guard let unit = AngleUnit(rawValue: text) else {
        throw UsageError(message: "--angle-unit takes 'radians' or 'degrees', not '\(text)'")
      }
      options.evaluation.angleUnit = unit
    }
  }
  return options
}
