// Reading tapes: leniently for the commands that only print, strictly for those that rewrite the file.

import RPNEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file's name as the system has it: bytes, which need not be UTF-8 (a name is any bytes but
/// `/` and NUL). A `String` would turn the bytes that are not UTF-8 into U+FFFD, which names
/// no file.
struct TapePath {
  var bytes: [UInt8]
  /// Found under a folder argument rather than named: only a regular file is read, and a
  /// symbolic link put in its place meanwhile is not followed.
  var foundInFolder: Bool { identity != nil }
  /// For a file found under a folder: its device and inode when the folder was listed. The file
  /// opened by its name later must be that one: a folder on the way swapped for a link since
  /// (`notes/sub -> ../secret`) would lead elsewhere, which O_NOFOLLOW, for the last part of
  /// the name only, does not stop.
  var identity: (device: UInt64, inode: UInt64)?

  init(bytes: [UInt8], identity: (device: UInt64, inode: UInt64)? = nil) {
    self.bytes = bytes
    self.identity = identity
  }

  /// Whether `status` is of another file than the one found when the folder was listed.
  func isReplaced(by status: stat) -> Bool {
    guard let identity else { return false }
    return identity.device != UInt64(truncatingIfNeeded: status.st_dev) || identity.inode != UInt64(status.st_ino)
  }

  init(_ text: String) { bytes = Array(text.utf8) }

  /// `-`: standard input.
  var isStandardInput: Bool { bytes == [UInt8(ascii: "-")] }

  /// The name for messages: each byte that is not UTF-8 as `\xNN`, and control characters
  /// escaped as in tape text, so that a crafted name cannot drive the terminal.
  var shown: String {
    var text = ""
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var position = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .emptyInput:
        return ControlCharacters.escaped(text)
      case .valid(let encoded):
        text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
        position += encoded.count
      case .error(let length):
        for byte in bytes[position..<position + length] {
          text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
        }
        position += length
      }
    }
  }

  /// Calls `body` with the name as a C string.
  func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
    (bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
  }
}

/// The command line's file arguments as bytes. `CommandLine.arguments` decoded each argument as
/// UTF-8, with U+FFFD for bytes that are not: such a file is found again among the raw arguments.
func tapePaths(_ files: [String]) -> [TapePath] {
  var raw: [[UInt8]] = (1..<Int(CommandLine.argc)).compactMap { index in
    CommandLine.unsafeArgv[index].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
  }
  return files.map { file in
    guard file.unicodeScalars.contains("\u{FFFD}"),
      let index = raw.firstIndex(where: { String(decoding: $0, as: UTF8.self) == file })
    else { return TapePath(file) }
    return TapePath(bytes: raw.remove(at: index))
  }
}

/// What a path names, when it is not a regular file.
enum FileKind {
  case folder, symbolicLink, fifo, device, socket, other

  init?(_ status: stat) {
    switch status.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: self = .folder
    case S_IFLNK: self = .symbolicLink
    case S_IFIFO: self = .fifo
    case S_IFCHR, S_IFBLK: self = .device
    case S_IFSOCK: self = .socket
    default: self = .other
    }
  }

  var words: String {
    switch self {
    case .folder: return "a folder"
    case .symbolicLink: return "a symbolic link"
    case .fifo: return "a FIFO (named pipe)"
    case .device: return "a device"
    case .socket: return "a socket"
    case .other: return "a special file"
    }
  }
}

/// Why a file could not be read or rewritten. Each message names the file and says what to do.
/// The names are as `TapePath.shown` gives them: escaped.
enum FileError: Error {
  /// `open` or `read` failed with `errno`.
  case cannotRead(path: String, errno: Int32)
  /// The path names a folder, a device, a FIFO or a socket: not a file that can be rewritten.
  case notARegularFile(path: String, kind: FileKind)
  /// A device, a FIFO or a socket named for reading: not a tape (see `readFile`).
  case notAFile(path: String, kind: FileKind)
  /// No one may write the file (its mode has no write bit), or we may not.
  case readOnlyFile(path: String)
  /// The temporary file cannot be made in the file's folder.
  case readOnlyFolder(path: String, folder: String, errno: Int32?)
  /// Rewriting the file would replace its bad bytes with U+FFFD; the first is at `line`, `column` (1-based).
  case notUTF8(path: String, line: Int, column: Int)
  /// Holds a NUL byte (the first at `offset`): a binary file, not a tape.
  case notText(path: String, offset: Int)
  /// A folder named on the command line holds no `.rpn` file; `skipped` of its entries named
  /// `.rpn` were left out (see `expandFolders`).
  case noTapes(folder: String, skipped: Int)
  /// Standard output is the file itself, opened as `how` says.
  case outputIsInput(path: String, how: OutputIntoTape)
  /// Larger than a document may be.
  case tooLarge(path: String, limit: Int)
  /// A step of writing the new contents failed with `errno`; the file was left as it was.
  case cannotWrite(path: String, step: String, errno: Int32)
  /// The file changed on disk between reading it and replacing it.
  case changedMeanwhile(path: String)
  /// Found under a folder, the name leads to another file than when the folder was listed.
  case replacedMeanwhile(path: String)

  var message: String {
    switch self {
    case .cannotRead(let path, let errno):
      return "cannot read \(path): \(describe(errno))"
    case .notARegularFile(let path, let kind):
      return kind == .folder
        ? "cannot rewrite \(path): it is a folder; name the .rpn files in it instead"
        : "cannot rewrite \(path): it is \(kind.words), not a regular file; it is left as it was"
    case .notAFile(let path, let kind):
      return "cannot read \(path): it is \(kind.words), not a file: rpn-lsp reads .rpn tapes from files "
        + "(or standard input, -); name the tape instead"
    case .readOnlyFile(let path):
      return "cannot write \(path): the file is read-only; make it writable (chmod u+w \(path)) "
        + "or leave out --write to print the result; the file is unchanged"
    case .readOnlyFolder(let path, let folder, let errno):
      let place = folder == "." ? "the current folder" : "the folder \(folder)"
      let why = errno == EROFS ? "the file system is read-only" : "\(place) is read-only"
      return "cannot write \(path): \(why), and the new text goes to a temporary file beside it first; "
        + "make the folder writable or leave out --write to print the result; the file is unchanged"
    case .notUTF8(let path, let line, let column):
      return "cannot rewrite \(path): it is not valid UTF-8 (line \(line), column \(column)), and writing it back "
        + "would replace its bad bytes with U+FFFD; convert it to UTF-8 first (e.g. with iconv); the file is unchanged"
    case .notText(let path, let offset):
      return "\(path) is not a text file (it holds a NUL byte, at byte \(offset)): rpn-lsp reads .rpn tapes, "
        + "which are text; name the tape instead"
    case .noTapes(let folder, let skipped):
      return skipped == 0
        ? "\(folder) is a folder with no .rpn file in it (or in its subfolders); name the tapes instead"
        : "\(folder) is a folder with no .rpn file that can be read in it (or in its subfolders): the "
          + (skipped == 1 ? "one named above was skipped" : "\(skipped) named above were skipped")
    case .outputIsInput(let path, let how):
      let instead = "print to another file, or rewrite a tape in place with format --write or update --write"
      switch how {
      case .appending:
        return "standard output is \(path) itself, opened with >>: what rpn-lsp prints would be added to the tape; "
          + "\(instead); the file is unchanged"
      case .overwriting:
        return "standard output is \(path) itself, opened for writing without emptying it (as 1<> does): what "
          + "rpn-lsp prints would be written over the tape; \(instead); the file is unchanged"
      case .emptied:
        return "standard output is \(path) itself: the shell emptied the file before rpn-lsp could read it. "
          + "Restore it (from a backup or version control); then \(instead)"
      }
    case .tooLarge(let path, let limit):
      return "\(path) is too large: the limit is \(limit) bytes"
    case .cannotWrite(let path, let step, let errno):
      return "cannot write \(path): \(describe(errno)) (\(step)); the file is unchanged"
    case .changedMeanwhile(let path):
      return "cannot write \(path): it changed while rpn-lsp was working on it; run the command again; "
        + "the file is as the other program left it"
    case .replacedMeanwhile(let path):
      return "cannot read \(path): it is another file than when rpn-lsp listed its folder (the file or a folder "
        + "on its way was replaced meanwhile); run the command again"
    }
  }
}

/// The reason for `errno` in words, for the common cases more plainly than `strerror`.
func describe(_ errno: Int32) -> String {
  switch errno {
  case ENOENT: return "there is no such file"
  case EACCES, EPERM: return "permission denied"
  case EISDIR: return "it is a folder"
  case ENOSPC: return "the disk is full"
  case EDQUOT: return "the disk quota is used up"
  case EROFS: return "the file system is read-only"
  default: return String(cString: strerror(errno))
  }
}

/// A file's bytes, and what `fstat` said of it when it was read (nil for standard input).
struct FileContents {
  var bytes: [UInt8]
  var status: stat?

  /// The bytes as text, invalid UTF-8 replaced by U+FFFD.
  var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Reads a whole file, or standard input for `-`. With `forRewriting`, refuses what cannot be
/// rewritten in place without loss: anything but a regular file, and invalid UTF-8. (Whether the
/// file may be written is asked only when it changes: see `replaceContents`.)
///
/// What a path names is asked before it is opened: opening a FIFO waits for a writer, and opening
/// a device may act on it. A device or a socket is refused: it is no tape, and one such as
/// `/dev/zero` never ends. A FIFO named on the command line is read, as `cat` would (`check
/// <(…)` passes a tape through one), but not one found under a folder, nor one to rewrite. A
/// regular file larger than a document may be is refused by its size, before a byte is read;
/// anything else is read up to that size and no further, and reading stops at the first NUL.
func readFile(_ path: TapePath, forRewriting: Bool = false) throws(FileError) -> FileContents {
  let limit = Document.maximumUTF8Count
  var fd = STDIN_FILENO
  var status: stat?
  if !path.isStandardInput {
    var info = stat()
    guard path.withCString({ stat($0, &info) }) == 0 else { throw .cannotRead(path: path.shown, errno: errno) }
    if path.isReplaced(by: info) { throw .replacedMeanwhile(path: path.shown) }
    let firstKind = FileKind(info)
    try refuseUnreadable(firstKind, path, forRewriting: forRewriting)
    // Without O_NONBLOCK a FIFO put in the file's place since would block here; O_NOFOLLOW: a
    // link put in the place of a file found under a folder is not followed out of it.
    let readsFIFO = firstKind == .fifo
    let flags = O_RDONLY | O_CLOEXEC | (readsFIFO ? 0 : O_NONBLOCK) | (path.foundInFolder ? O_NOFOLLOW : 0)
    fd = path.withCString { open($0, flags) }
    guard fd >= 0 else {
      let error = errno
      if error == ELOOP && path.foundInFolder { throw .notAFile(path: path.shown, kind: .symbolicLink) }
      throw .cannotRead(path: path.shown, errno: error)
    }
    guard fstat(fd, &info) == 0 else {
      let error = errno
      close(fd)
      throw .cannotRead(path: path.shown, errno: error)
    }
    if path.isReplaced(by: info) {
      close(fd)
      throw .replacedMeanwhile(path: path.shown)
    }
    // Something else put in the file's place since `stat`, which was not asked of it.
    let kind = FileKind(info)
    if let kind, kind != firstKind {
      close(fd)
      if forRewriting { throw .notARegularFile(path: path.shown, kind: kind) }
      throw .notAFile(path: path.shown, kind: kind)
    }
    if kind == nil && Int(info.st_size) > limit {
      close(fd)
      throw .tooLarge(path: path.shown, limit: limit)
    }
    status = info
  }
  defer { if fd != STDIN_FILENO { close(fd) } }
  // Read straight into the array: a regular file's size is known, so it takes one allocation and
  // no copy per chunk; the array grows when the file is longer than that, or for standard input.
  // One byte more than the limit is room enough to tell that the input is too large.
  var bytes: [UInt8] = []
  let isRegular = status.map { FileKind($0) == nil } ?? false
  var capacity = min(isRegular ? Int(status?.st_size ?? 0) + 1 : 1 << 16, limit + 1)
  while true {
    if bytes.count == capacity {
      guard capacity <= limit else { throw .tooLarge(path: path.shown, limit: limit) }
      capacity = min(capacity * 2, limit + 1)
    }
    var failure: Int32 = 0
    var ended = false
    var nul: Int?
    let filled = bytes.count
    let grown = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      bytes.withUnsafeBufferPointer { old in
        if let base = buffer.baseAddress, let from = old.baseAddress, filled > 0 {
          base.initialize(from: from, count: filled)
        }
      }
      adviseHugePages(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: capacity)
      var total = filled
      while total < capacity, let base = buffer.baseAddress {
        let n = read(fd, base + total, capacity - total)
        if n == 0 {
          ended = true
          break
        }
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          break
        }
        // A tape is text: a NUL byte means a binary (an executable, an image, /dev/zero), whose
        // "lines" would only print garbage and thousands of diagnostics. No need to read on.
        if let found = memchr(base + total, 0, n) {
          nul = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
        total += n
        if nul != nil { break }
      }
      initialized = total
    }
    bytes = grown
    if let nul { throw .notText(path: path.shown, offset: nul) }
    if failure != 0 { throw .cannotRead(path: path.shown, errno: failure) }
    if ended { break }
  }
  if forRewriting, let (line, column) = firstInvalidUTF8(bytes) {
    throw .notUTF8(path: path.shown, line: line, column: column)
  }
  return FileContents(bytes: bytes, status: status)
}

/// Throws unless a file of `kind` (nil: a regular file) may be read: see `readFile`. A folder to
/// read is left to `read`, which says so (a folder named is expanded, so one found here was put
/// in the place of a file meanwhile).
private func refuseUnreadable(_ kind: FileKind?, _ path: TapePath, forRewriting: Bool) throws(FileError) {
  guard let kind else { return }
  if forRewriting {
    throw .notARegularFile(path: path.shown, kind: kind)
  }
  switch kind {
  case .folder: return
  case .fifo where !path.foundInFolder: return
  default: throw .notAFile(path: path.shown, kind: kind)
  }
}

/// Where the first byte that is not valid UTF-8 is: its line and column (1-based, the column in
/// Unicode scalars; lines end at `\n`, `\r\n` or `\r`); nil when all of `bytes` is valid.
func firstInvalidUTF8(_ bytes: [UInt8]) -> (line: Int, column: Int)? {
  var parser = Unicode.UTF8.ForwardParser()
  var iterator = bytes.makeIterator()
  var line = 1
  var column = 1
  var afterCarriageReturn = false
  while true {
    switch parser.parseScalar(from: &iterator) {
    case .emptyInput:
      return nil
    case .error:
      return (line, column)
    case .valid(let encoded):
      let scalar = Unicode.UTF8.decode(encoded)
      if scalar == "\r" || (scalar == "\n" && !afterCarriageReturn) {
        line += 1
        column = 1
      } else if scalar != "\n" {
        column += 1
      }
      afterCarriageReturn = scalar == "\r"
    }
  }
}

/// The tapes the arguments name: each file as given, and for each folder the `.rpn` files in it
/// and in its subfolders (hidden ones left out), in sorted order. A folder with none is an error
/// that says so. `-` (standard input) stays as it is. What is skipped is added to `skipped`, with
/// the reason, also when a folder with none is thrown.
///
/// Under a folder only regular files are taken. An entry named `.rpn` that is anything else is
/// skipped and returned with the reason: a device or a FIFO would never end or never start, and
/// a symbolic link may lead out of the folder (`notes/x.rpn -> ../secret`), where `check notes`
/// must not read nor `--write` rewrite. A link to a file inside is skipped too: that file is
/// read under its own name, and a link checked to lead inside could be changed before it is
/// opened. Links to folders are not followed either (a cycle would never end).
func expandFolders(_ paths: [TapePath], skipped: inout [(TapePath, String)]) throws(FileError) -> [TapePath] {
  var files: [TapePath] = []
  for path in paths {
    var info = stat()
    guard !path.isStandardInput, path.withCString({ stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      files.append(path)
      continue
    }
    let skippedBefore = skipped.count
    // The folder named may be a link; those under it are not followed.
    let found = tapes(inFolder: path, followingLink: true, skipped: &skipped)
    guard !found.isEmpty else { throw .noTapes(folder: path.shown, skipped: skipped.count - skippedBefore) }
    files += found
  }
  return files
}

/// The `.rpn` files under a folder, sorted by their bytes, hidden files and folders left out;
/// what is skipped is added to `skipped` (see `expandFolders`).
private func tapes(inFolder folder: TapePath, followingLink: Bool, skipped: inout [(TapePath, String)]) -> [TapePath] {
  let fd = folder.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followingLink ? 0 : O_NOFOLLOW)) }
  guard fd >= 0 else {
    skipped.append((folder, "cannot read the folder: \(describe(errno))"))
    return []
  }
  guard let handle = fdopendir(fd) else {
    skipped.append((folder, "cannot read the folder: \(describe(errno))"))
    close(fd)
    return []
  }
  defer { closedir(handle) }
  var names: [[UInt8]] = []
  while let entry = readdir(handle) {
    let name = withUnsafeBytes(of: &entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
    if name.first != UInt8(ascii: ".") { names.append(name) }
  }
  var files: [TapePath] = []
  let prefix = folder.bytes.last == UInt8(ascii: "/") ? folder.bytes : folder.bytes + [UInt8(ascii: "/")]
  for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
    var path = TapePath(bytes: prefix + name)
    var info = stat()
    guard path.withCString({ lstat($0, &info) }) == 0 else { continue }
    path.identity = (UInt64(truncatingIfNeeded: info.st_dev), UInt64(info.st_ino))
    let kind = FileKind(info)
    if kind == .folder {
      files += tapes(inFolder: path, followingLink: false, skipped: &skipped)
    } else if name.count >= 4 && name.suffix(4).elementsEqual(".rpn".utf8) {
      guard let kind else {
        files.append(path)
        continue
      }
      let reason =
        kind == .symbolicLink
        ? "it is a symbolic link, which is not followed under a folder; name the file it points to instead"
        : "it is \(kind.words), not a file"
      skipped.append((path, reason))
    }
  }
  return files
}

/// How standard output is the tape being read: what the command must not print into, and what to
/// tell the user about the file.
enum OutputIntoTape {
  /// `>>`: what the command prints would be added to the tape, which is as it was.
  case appending
  /// Empty, as `>` leaves it (`format tape.rpn > tape.rpn`): the shell emptied the file before the
  /// command ran, so what was read is not the tape.
  case emptied
  /// Opened for writing but neither emptied nor appended to (`1<> tape.rpn`): what the command
  /// prints would be written over the tape, which is as it was.
  case overwriting
}

/// Whether standard output is the file at `path` itself, and how: nil when it is not. Only a file
/// that is empty now was emptied: an open file's flags keep no O_TRUNC, so they do not tell `>`
/// from `1<>`, which opens the file for reading and writing and leaves it whole.
func standardOutputIs(_ path: TapePath) -> OutputIntoTape? {
  guard !path.isStandardInput else { return nil }
  var output = stat()
  var input = stat()
  guard fstat(STDOUT_FILENO, &output) == 0, output.st_mode & S_IFMT == S_IFREG,
    path.withCString({ stat($0, &input) }) == 0, output.st_dev == input.st_dev, output.st_ino == input.st_ino
  else { return nil }
  let flags = fcntl(STDOUT_FILENO, F_GETFL)
  if flags >= 0 && flags & O_APPEND != 0 { return .appending }
  return output.st_size == 0 ? .emptied : .overwriting
}
