// Sections: headings (`## title`), the lines each section holds, its summary, and runs of comments.

/// What a section's values add up to at its last line: the values above its base, bottom to top.
package struct SectionSummary: Equatable, Sendable {
  /// In the lowest value's unit; `Value.none` when the values do not share one dimension.
  package var sum: Value
  package var count: Int

  /// The mean of the values; nil when there are none.
  package var mean: Value? { count == 0 ? nil : sum.with(sum.number / Double(count)) }

  /// `Σ 245.5 · 4 values · avg 61.375`, or `no values`, with `format` showing each number; for
  /// values that do not add up in one unit (a length and a time), `3 values, mixed units`.
  package func text(_ format: (Value) -> String) -> String {
    guard let mean else { return "no values" }
    let values = count == 1 ? "1 value" : "\(count) values"
    guard !sum.isNone else { return values + ", mixed units" }
    return "Σ \(format(sum)) · \(values) · avg \(format(mean))"
  }
}

/// A heading and the lines up to the next one.
package struct Section: Equatable, Sendable {
  /// The heading's line; the section runs from it through `lastLine`.
  package var headingLine: Int
  package var lastLine: Int
  /// The heading's text after its `#`s, trimmed.
  package var title: String
  /// Where the title is in the heading's line (UTF-8 offsets); empty at the `#`s' end when untitled.
  package var titleRange: Range<Int>
  /// Where the heading's `#`s are in its line (UTF-8 offsets): its first `#` through the last of
  /// the run. Where its code lens and its symbol start.
  package var headingMarks: Range<Int>
  package var summary: SectionSummary

  package var lines: ClosedRange<Int> { headingLine...lastLine }

  /// The name the section goes by in an outline: its title, or, untitled, its `#`s as written
  /// (an outline's names must not be empty).
  package var name: String { title.isEmpty ? String(repeating: "#", count: headingMarks.count) : title }

  /// Where that name is in the heading's line (UTF-8 offsets): the title, or its `#`s.
  package var nameRange: Range<Int> { title.isEmpty ? headingMarks : titleRange }
}

extension Document {
  /// Whether a line is a heading, as evaluation marked it (one line's answer, for the viewport's
  /// hints and the outline's updates).
  package func isHeading(_ line: Int) -> Bool {
    lines.indices.contains(line) && lines[line].isHeading
  }

  /// The heading lines, top to bottom.
  package func headingLines() -> [Int] {
    lines.indices.filter { lines[$0].isHeading }
  }

  /// Every section, top to bottom.
  package func sections() -> [Section] {
    let headings = headingLines()
    return headings.indices.map { k in
      section(heading: headings[k], lastLine: k + 1 < headings.count ? headings[k + 1] - 1 : lines.count - 1)
    }
  }

  /// The last line of the section headed at `heading` whose lines run through `end` (the line
  /// before the next heading, or the last line): blank lines at its end are left out, as a fold or
  /// a selection of the section should leave them. (They change nothing: the summary is the same.)
  package func lastLine(ofSectionAt heading: Int, through end: Int) -> Int {
    var last = min(end, lines.count - 1)
    while last > heading, lines[last].lastTokenEnd < 0,
      withUTF8(ofLine: last, { bytes in bytes.allSatisfy { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) } })
    {
      last -= 1
    }
    return last
  }

  /// The section a line belongs to, or nil before the first heading.
  package func section(containingLine line: Int) -> Section? {
    guard lines.indices.contains(line) else { return nil }
    var heading = line
    while heading >= 0, !lines[heading].isHeading { heading -= 1 }
    guard heading >= 0 else { return nil }
    var last = line + 1
    while last < lines.count, !lines[last].isHeading { last += 1 }
    return section(heading: heading, lastLine: last - 1)
  }

  private func section(heading: Int, lastLine end: Int) -> Section {
    let lastLine = lastLine(ofSectionAt: heading, through: end)
    let (title, range, marks) = withUTF8(ofLine: heading) { bytes -> (String, Range<Int>, Range<Int>) in
      var first = 0
      while first < bytes.count, bytes[first] != 0x23 { first += 1 }
      var start = first
      while start < bytes.count, bytes[start] == 0x23 { start += 1 }
      let marks = first..<start
      var end = bytes.count
      // ASCII white space at the ends (a byte past 0x7F may be part of a letter); `trimmingWhitespace`
      // takes off the rest of Unicode's.
      let isSpace = { (byte: UInt8) in byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
      while start < end, isSpace(bytes[start]) { start += 1 }
      while end > start, isSpace(bytes[end - 1]) { end -= 1 }
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
      return (text.trimmingWhitespace(), start..<end, marks)
    }
    return Section(
      headingLine: heading, lastLine: lastLine, title: title, titleRange: range, headingMarks: marks,
      summary: summary(heading: heading, lastLine: lastLine))
  }

  /// The values above the section's base (the depth after its heading) at its last line.
  private func summary(heading: Int, lastLine: Int) -> SectionSummary {
    let base = stack(afterLine: heading, keepingTop: 0).depth
    var index = lines[lastLine].stack
    let depth = index < 0 ? 0 : Int(nodes[Int(index)].depth)
    let count = depth - base
    guard count > 0 else { return SectionSummary(sum: .zero, count: 0) }
    var values = [Value](repeating: .zero, count: count)
    for k in stride(from: count - 1, through: 0, by: -1) {
      values[k] = nodes[Int(index)].value
      index = nodes[Int(index)].next
    }
    let sum = (try? Machine.compute(.sum, values).get()) ?? .none
    return SectionSummary(sum: sum, count: count)
  }

  /// Runs of at least `minimum` consecutive lines that hold only a comment (headings excepted),
  /// as ranges of lines.
  package func commentRuns(minimum: Int = 3) -> [ClosedRange<Int>] {
    var runs: [ClosedRange<Int>] = []
    var start: Int?
    for line in lines.indices {
      let isComment =
        !lines[line].isHeading && lines[line].lastTokenEnd < 0
        && withUTF8(ofLine: line) { bytes in
          var i = 0
          while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
          if i < bytes.count, bytes[i] >= 0x80 || (bytes[i] >= 0x09 && bytes[i] <= 0x0D) {
            return LexedLine(bytes).commentStart != nil  // Rarer whitespace: let the lexer say.
          }
          return i < bytes.count && bytes[i] == 0x23
        }
      if isComment {
        if start == nil { start = line }
      } else if let first = start {
        if line - first >= minimum { runs.append(first...(line - 1)) }
        start = nil
      }
    }
    if let first = start, lines.count - first >= minimum { runs.append(first...(lines.count - 1)) }
    return runs
  }
}

extension String {
  fileprivate func trimmingWhitespace() -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !Lexer.isWhitespace($0.value) }),
      let last = scalars.lastIndex(where: { !Lexer.isWhitespace($0.value) })
    else { return "" }
    return String(scalars[first...last])
  }
}
