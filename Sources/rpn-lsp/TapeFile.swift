// Reading tapes: leniently for the commands that only print, strictly for those that rewrite the file.

import RPNEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a file could not be read or rewritten. Each message names the file and says what to do.
enum FileError: Error {
  /// `open` or `read` failed with `errno`.
  case cannotRead(path: String, errno: Int32)
  /// The path names a folder or a device, not a file that can be rewritten.
  case notARegularFile(path: String, isFolder: Bool)
  /// No one may write the file (its mode has no write bit), or we may not.
  case readOnlyFile(path: String)
  /// The temporary file cannot be made in the file's folder.
  case readOnlyFolder(path: String, folder: String, errno: Int32?)
  /// Rewriting the file would replace its bad bytes with U+FFFD; the first is at `line`, `column` (1-based).
  case notUTF8(path: String, line: Int, column: Int)
  /// Holds a NUL byte (the first at `offset`): a binary file, not a tape.
  case notText(path: String, offset: Int)
  /// A folder named on the command line holds no `.rpn` file.
  case noTapes(folder: String)
  /// Standard output is the file itself, which the shell emptied before the command ran.
  case outputIsInput(path: String)
  /// Larger than a document may be.
  case tooLarge(path: String, limit: Int)
  /// A step of writing the new contents failed with `errno`; the file was left as it was.
  case cannotWrite(path: String, step: String, errno: Int32)
  /// The file changed on disk between reading it and replacing it.
  case changedMeanwhile(path: String)

  var message: String {
    switch self {
    case .cannotRead(let path, let errno):
      return "cannot read \(path): \(describe(errno))"
    case .notARegularFile(let path, let isFolder):
      return isFolder
        ? "cannot rewrite \(path): it is a folder; name the .rpn files in it instead"
        : "cannot rewrite \(path): it is not a regular file"
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
    case .noTapes(let folder):
      return "\(folder) is a folder with no .rpn file in it (or in its subfolders); name the tapes instead"
    case .outputIsInput(let path):
      return "standard output is \(path) itself: the shell emptied the file before rpn-lsp could read it. "
        + "Restore it (from a backup or version control), then rewrite it in place with --write"
    case .tooLarge(let path, let limit):
      return "\(path) is too large: the limit is \(limit) bytes"
    case .cannotWrite(let path, let step, let errno):
      return "cannot write \(path): \(describe(errno)) (\(step)); the file is unchanged"
    case .changedMeanwhile(let path):
      return "cannot write \(path): it changed while rpn-lsp was working on it; run the command again; "
        + "the file is as the other program left it"
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
func readFile(_ path: String, forRewriting: Bool = false) throws(FileError) -> FileContents {
  let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { throw .cannotRead(path: path, errno: errno) }
  defer { if fd != STDIN_FILENO { close(fd) } }
  var status: stat?
  if fd != STDIN_FILENO {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .cannotRead(path: path, errno: errno) }
    status = info
    if forRewriting, info.st_mode & S_IFMT != S_IFREG {
      throw .notARegularFile(path: path, isFolder: info.st_mode & S_IFMT == S_IFDIR)
    }
  }
  // Read straight into the array: a regular file's size is known, so it takes one allocation and
  // no copy per chunk; the array grows when the file is longer than that, or for standard input.
  var bytes: [UInt8] = []
  var capacity = status.map { Int($0.st_size) + 1 } ?? 1 << 16
  while true {
    if bytes.count == capacity { capacity *= 2 }
    var failure: Int32 = 0
    var ended = false
    let filled = bytes.count
    let grown = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
      bytes.withUnsafeBufferPointer { old in
        if let base = buffer.baseAddress, let from = old.baseAddress, filled > 0 {
          base.initialize(from: from, count: filled)
        }
      }
      adviseHugePages(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: capacity)
      var total = filled
      while total < capacity {
        let n = read(fd, buffer.baseAddress.map { $0 + total }, capacity - total)
        if n == 0 {
          ended = true
          break
        }
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          break
        }
        total += n
      }
      initialized = total
    }
    bytes = grown
    if failure != 0 { throw .cannotRead(path: path, errno: failure) }
    if ended { break }
  }
  // A tape is text: a NUL byte means a binary (an executable, an image), whose "lines" would
  // only print garbage and thousands of diagnostics.
  let nul = bytes.withUnsafeBytes { raw -> Int? in
    guard let base = raw.baseAddress, let found = memchr(base, 0, raw.count) else { return nil }
    return base.distance(to: UnsafeRawPointer(found))
  }
  if let nul { throw .notText(path: path, offset: nul) }
  if forRewriting, let (line, column) = firstInvalidUTF8(bytes) {
    throw .notUTF8(path: path, line: line, column: column)
  }
  return FileContents(bytes: bytes, status: status)
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
/// that says so. `-` (standard input) stays as it is.
func expandFolders(_ paths: [String]) throws(FileError) -> [String] {
  var files: [String] = []
  for path in paths {
    var info = stat()
    guard path != "-", stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      files.append(path)
      continue
    }
    let found = tapes(inFolder: path)
    guard !found.isEmpty else { throw .noTapes(folder: path) }
    files += found
  }
  return files
}

/// The `.rpn` files under a folder, sorted, hidden files and folders left out; symbolic links to
/// folders are not followed (a link cycle would never end).
private func tapes(inFolder folder: String) -> [String] {
  guard let handle = opendir(folder) else { return [] }
  defer { closedir(handle) }
  var names: [String] = []
  while let entry = readdir(handle) {
    let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
      tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
        String(cString: $0)
      }
    }
    if !name.hasPrefix(".") { names.append(name) }
  }
  var files: [String] = []
  let prefix = folder.hasSuffix("/") ? folder : folder + "/"
  for name in names.sorted() {
    let path = prefix + name
    var info = stat()
    guard lstat(path, &info) == 0 else { continue }
    if info.st_mode & S_IFMT == S_IFDIR {
      files += tapes(inFolder: path)
    } else if name.hasSuffix(".rpn") {
      files.append(path)
    }
  }
  return files
}

/// Whether standard output is the file at `path` itself (`format tape.rpn > tape.rpn`): the shell
/// emptied it before the command ran, so what was read is not the tape.
func standardOutputIs(_ path: String) -> Bool {
  guard path != "-" else { return false }
  var output = stat()
  var input = stat()
  guard fstat(STDOUT_FILENO, &output) == 0, output.st_mode & S_IFMT == S_IFREG, stat(path, &input) == 0 else {
    return false
  }
  return output.st_dev == input.st_dev && output.st_ino == input.st_ino
}
