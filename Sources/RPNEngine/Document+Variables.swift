/// One place a variable's name appears: a store (`=name`) or a use (`name`).
package struct VariableOccurrence: Equatable, Sendable {
  package var line: Int
  /// The whole token: `=name` for a store.
  package var range: Range<Int>
  /// The name alone (for a store, the token without its `=`).
  package var nameRange: Range<Int>
  package var isStore: Bool
}

/// A store that succeeded, with the value it stored.
package struct StoredVariable: Equatable, Sendable {
  package var name: String
  package var line: Int
  package var range: Range<Int>
  package var nameRange: Range<Int>
  package var value: Double
}

extension Document {
  /// The variable token at a UTF-8 offset (containing it, else ending there), with its name.
  package func variable(atLine line: Int, utf8Offset offset: Int) -> (name: String, occurrence: VariableOccurrence)? {
    guard line >= 0, line < lineCount else { return nil }
    return withUTF8(ofLine: line) { bytes in
      let tokens = Lexer.tokens(of: bytes).tokens
      guard
        let token = tokens.first(where: { $0.range.contains(offset) })
          ?? tokens.first(where: { $0.range.upperBound == offset })
      else { return nil }
      let isStore = token.kind == .store
      guard isStore || token.kind == .name else { return nil }
      let nameRange = isStore ? (token.range.lowerBound + 1)..<token.range.upperBound : token.range
      let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self)
      return (name, VariableOccurrence(line: line, range: token.range, nameRange: nameRange, isStore: isStore))
    }
  }

  /// Every store and use of `name` in the document, top to bottom. Names compare byte by byte.
  package func occurrences(of name: String) -> [VariableOccurrence] {
    let target = Array(name.utf8)
    guard !target.isEmpty else { return [] }
    var result: [VariableOccurrence] = []
    for line in 0..<lineCount {
      withUTF8(ofLine: line) { bytes in
        // Most lines do not mention the name at all: look for its first byte before lexing.
        guard bytes.contains(target[0]) else { return }
        for token in Lexer.tokens(of: bytes).tokens {
          switch token.kind {
          case .name where bytes[token.range].elementsEqual(target):
            result.append(VariableOccurrence(line: line, range: token.range, nameRange: token.range, isStore: false))
          case .store where bytes[(token.range.lowerBound + 1)..<token.range.upperBound].elementsEqual(target):
            let nameRange = (token.range.lowerBound + 1)..<token.range.upperBound
            result.append(VariableOccurrence(line: line, range: token.range, nameRange: nameRange, isStore: true))
          default:
            break
          }
        }
      }
    }
    return result
  }

  /// Every store that succeeded, top to bottom, with the value it stored.
  package func storedVariables() -> [StoredVariable] {
    var result: [StoredVariable] = []
    for line in 0..<lineCount where storesSomething(line) {
      let traces = trace(line: line, keepingTop: 1)
      withUTF8(ofLine: line) { bytes in
        for trace in traces where trace.token.kind == .store && trace.diagnostic == nil {
          guard let value = trace.after.top.last else { continue }
          let nameRange = (trace.token.range.lowerBound + 1)..<trace.token.range.upperBound
          let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self)
          result.append(StoredVariable(name: name, line: line, range: trace.token.range, nameRange: nameRange, value: value))
        }
      }
    }
    return result
  }
}
