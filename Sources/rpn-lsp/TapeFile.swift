// Reading tapes: a file, or standard input for `-`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a whole file, or standard input for `-`. Invalid UTF-8 becomes U+FFFD.
func readText(_ path: String) -> Result<String, UsageError> {
  let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY)
  guard fd >= 0 else {
    return .failure(UsageError(message: "cannot read \(path): \(String(cString: strerror(errno)))"))
  }
  defer { if fd != STDIN_FILENO { close(fd) } }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n == 0 { break }
    if n < 0 {
      if errno == EINTR { continue }
      return .failure(UsageError(message: "cannot read \(path): \(String(cString: strerror(errno)))"))
    }
    bytes.append(contentsOf: chunk[..<n])
  }
  return .success(String(decoding: bytes, as: UTF8.self))
}
