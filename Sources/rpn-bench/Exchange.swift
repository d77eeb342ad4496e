// The exchange: one scripted LSP session and the command lines, played to two rpn-lsp binaries and compared.

import Foundation

/// `rpn-bench --exchange --server A --against B [--write DIR] [--root DIR]`: plays the same LSP
/// sessions (three clients: UTF-16, UTF-8 and UTF-32, resolving and not, pushed and pulled
/// diagnostics) and the same command lines to both binaries, records every message each server
/// writes, and compares them case by case. The only normalisation: when one message makes the
/// server publish the diagnostics of several documents (a settings change), they are compared
/// sorted by URI, as the server walks its open documents in hash order, which differs from one
/// process to the next. Exits 1 on any difference, 2 when it cannot run.
func runExchange(server: String, arguments: [String]) -> Int32 {
  func value(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
  }
  guard let against = value("--against") else {
    printError("--exchange takes two binaries: rpn-bench --exchange --server A --against B [--write DIR]")
    return 2
  }
  for binary in [server, against] where !FileManager.default.isExecutableFile(atPath: binary) {
    printError("no executable at \(binary)")
    return 2
  }
  // The repository: the fixtures' tapes are read from it.
  let root =
    value("--root").map { URL(fileURLWithPath: $0) }
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  guard let files = exchangeFiles(root: root) else {
    printError("cannot read the tapes under \(root.path) (give the repository with --root DIR)")
    return 2
  }
  let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rpn-exchange-\(getpid())")
  defer { try? FileManager.default.removeItem(at: scratch) }
  var transcripts: [[ExchangeCase]] = []
  for (index, binary) in [server, against].enumerated() {
    let start = now()
    var cases: [ExchangeCase] = []
    for (seed, client) in ExchangeClient.all.enumerated() {
      do {
        let recorder = try ExchangeRecorder(binary: binary, session: client.name)
        var session = ExchangeSession(
          recorder: recorder, client: client, documents: documents(files), seed: UInt64(seed + 1))
        session.play()
        cases += recorder.cases
      } catch {
        printError("cannot start \(binary): \(error)")
        return 2
      }
    }
    cases += commandLineCases(binary: binary, files: files, folder: scratch.appendingPathComponent("\(index)"))
    print(
      "\(binary): \(cases.count) cases, \(cases.reduce(0) { $0 + $1.received.count }) messages and outputs received, \(duration(Double(now() - start)))"
    )
    transcripts.append(
      renamingResultIDs(cases).map { ExchangeCase(label: $0.label, sent: $0.sent, received: normalised($0.received)) })
  }
  let (a, b) = (transcripts[0], transcripts[1])
  if let folder = value("--write") {
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try write(a, to: "\(folder)/server.transcript")
      try write(b, to: "\(folder)/against.transcript")
      print("transcripts: \(folder)/server.transcript, \(folder)/against.transcript")
    } catch {
      printError("cannot write the transcripts to \(folder): \(error)")
      return 2
    }
  }
  var differences = 0
  for index in 0..<max(a.count, b.count) {
    let left = index < a.count ? a[index] : nil
    let right = index < b.count ? b[index] : nil
    if let left, let right, left.label == right.label, left.sent == right.sent, left.received == right.received {
      continue
    }
    differences += 1
    guard differences <= 40 else { continue }
    print("\ndifference \(differences), case \(index): \(left?.label ?? right?.label ?? "")")
    print("  sent:    \(trimmed(left?.sent ?? "<nothing>", 300))")
    if left?.sent != right?.sent { print("  against: \(trimmed(right?.sent ?? "<nothing>", 300))") }
    let (one, other) = excerpts(
      left?.received.joined(separator: "\n") ?? "", right?.received.joined(separator: "\n") ?? "")
    print("  server:  \(one)\n  against: \(other)")
  }
  if differences > 40 { print("\n… and \(differences - 40) more differences") }
  print(
    "\nexchange: \(max(a.count, b.count)) cases compared (requests, notifications, raw messages, command lines), \(differences) differences"
  )
  return differences == 0 ? 0 : 1
}

/// The tapes: the exchange's own in five variants (settings lines of every kind, none, CRLF),
/// the editors' sample, the grammar test, and the fuzzer's engine seeds (bytes as they are: some
/// start with bytes that are not UTF-8; a session sends them decoded, with U+FFFD).
private func exchangeFiles(root: URL) -> [ExchangeFile]? {
  var files = [
    ExchangeFile(
      name: "rich.rpn",
      bytes: Array(
        exchangeTape(
          header: "# rpn: angleUnit=degrees notation=fixed decimals=3 grouping=true maxItems=5 hints=endOfLine\n"
            + "#rpn: precision=12\n"
        ).utf8)),
    ExchangeFile(name: "rich-plain.rpn", bytes: Array(exchangeTape(header: "").utf8)),
    ExchangeFile(
      name: "rich-scientific.rpn",
      bytes: Array(exchangeTape(header: "# rpn: notation=scientific decimals=4 precision=6 hints=afterTokens\n").utf8)),
    ExchangeFile(
      name: "rich-engineering.rpn",
      bytes: Array(
        exchangeTape(
          header: "#RPN: Notation=Engineering decimals=1 maxItems=1000 angleUnit=radians colour=red plain "
            + "decimals=20 notation=fancy\n"
        ).utf8)),
    ExchangeFile(
      name: "rich-crlf.rpn", bytes: Array(exchangeTape(header: "").replacingOccurrences(of: "\n", with: "\r\n").utf8)),
  ]
  var paths = ["EditorConfigs/sample.rpn", "EditorConfigs/sublime/syntax_test_rpn.rpn"]
  let seeds = root.appendingPathComponent("Tests/Fuzz/seeds/engine")
  guard let names = try? FileManager.default.contentsOfDirectory(atPath: seeds.path) else { return nil }
  paths += names.filter { $0.hasSuffix(".rpn") }.sorted().map { "Tests/Fuzz/seeds/engine/\($0)" }
  for path in paths {
    guard let data = try? Data(contentsOf: root.appendingPathComponent(path)) else { return nil }
    let name =
      path.hasPrefix("Tests/") ? "seed-" + (path as NSString).lastPathComponent : (path as NSString).lastPathComponent
    files.append(ExchangeFile(name: name, bytes: Array(data)))
  }
  return files
}

/// The documents a session opens: every tape, under `file:///exchange/`, and one under a URI
/// that needs escaping.
private func documents(_ files: [ExchangeFile]) -> [(uri: String, text: String)] {
  files.map { ("file:///exchange/\($0.name)", String(decoding: $0.bytes, as: UTF8.self)) } + [
    ("file:///exchange/with%20space/%C3%A9t%C3%A9.rpn", "## Été\n1 2 + =été été\n"),
    ("untitled:Untitled-1", "3 4 ×\n"),
  ]
}

/// The messages of one case, the `publishDiagnostics` among them in the order of their URIs (the
/// server walks its documents in hash order, different in every process); everything else as is.
private func normalised(_ received: [String]) -> [String] {
  let prefix = #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":""#
  let places = received.indices.filter { received[$0].hasPrefix(prefix) }
  guard places.count > 1 else { return received }
  func uri(_ message: String) -> Substring { message.dropFirst(prefix.count).prefix { $0 != "\"" } }
  var result = received
  // A stable sort: one document's publishes keep their order.
  let sorted = places.map { received[$0] }.enumerated().sorted {
    (uri($0.element), $0.offset) < (uri($1.element), $1.offset)
  }
  for (place, message) in zip(places, sorted) { result[place] = message.element }
  return result
}

/// The cases with each pull diagnostics' `resultId` renamed `r1`, `r2`, … in the order each
/// first appears in its session (and the `previousResultId`s the client sends back with them).
/// A result id is opaque, and the server numbers its documents' results in the hash order of its
/// open documents, which differs from one process to the next; renaming one to one keeps what a
/// client can see: which answers share an id.
private func renamingResultIDs(_ cases: [ExchangeCase]) -> [ExchangeCase] {
  var names: [String: String] = [:]
  var session = ""
  func renamed(_ text: String) -> String {
    guard text.contains("esultId\":\"") else { return text }
    var result = ""
    var rest = Substring(text)
    while let found = rest.range(of: "esultId\":\"") {
      result += rest[..<found.upperBound]
      rest = rest[found.upperBound...]
      let id = String(rest.prefix { $0 != "\"" })
      rest = rest.dropFirst(id.count)
      if names[id] == nil { names[id] = "r\(names.count + 1)" }
      result += names[id] ?? id
    }
    return result + rest
  }
  return cases.map { exchange in
    let label = exchange.label.prefix { $0 != "]" }
    if label != session {
      session = String(label)
      names = [:]
    }
    return ExchangeCase(label: exchange.label, sent: renamed(exchange.sent), received: exchange.received.map(renamed))
  }
}

private func write(_ cases: [ExchangeCase], to path: String) throws {
  var text = ""
  for (index, exchange) in cases.enumerated() {
    text += "## \(index) \(exchange.label)\n> \(exchange.sent)\n"
    for message in exchange.received { text += "< \(message)\n" }
  }
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

private func trimmed(_ text: String, _ limit: Int) -> String {
  text.count <= limit ? text : text.prefix(limit) + "… (\(text.count) characters)"
}

/// The two texts around where they first differ.
private func excerpts(_ a: String, _ b: String) -> (String, String) {
  let (x, y) = (Array(a), Array(b))
  var first = 0
  while first < x.count && first < y.count && x[first] == y[first] { first += 1 }
  func excerpt(_ characters: [Character]) -> String {
    let start = max(0, first - 120)
    let end = min(characters.count, first + 240)
    return (start > 0 ? "…" : "") + String(characters[start..<end]) + (end < characters.count ? "…" : "")
  }
  return (excerpt(x), excerpt(y))
}
