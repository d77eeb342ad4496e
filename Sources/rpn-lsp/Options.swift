// The command line's options and parsing them.

import RPNEngine

/// A command line that cannot be acted on; the message says what to change.
struct UsageError: Error {
  var message: String
}

struct Options {
  var display = DisplaySettings()
  var evaluation = EvaluationSettings()
  var files: [String] = []
  var checkOnly = false
}

func parseOptions(_ arguments: ArraySlice<String>) throws(UsageError) -> Options {
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
    switch argument {
    case "--":
      onlyFiles = true
    case "--check":
      options.checkOnly = true
    case "--precision":
      let text = try value(of: argument)
      guard let n = Int(text), (1...17).contains(n) else {
        throw UsageError(message: "--precision takes a whole number from 1 to 17, not '\(text)'")
      }
      options.display.precision = n
    case "--max-items":
      let text = try value(of: argument)
      guard let n = Int(text), n >= 1 else {
        throw UsageError(message: "--max-items takes a whole number of at least 1, not '\(text)'")
      }
      options.display.maxItems = n
    case "--angle-unit":
      let text = try value(of: argument)
      guard let unit = AngleUnit(rawValue: text) else {
        throw UsageError(message: "--angle-unit takes 'radians' or 'degrees', not '\(text)'")
      }
      options.evaluation.angleUnit = unit
    default:
      throw UsageError(message: "unknown option '\(argument)' (see rpn-lsp --help)")
    }
  }
  return options
}
