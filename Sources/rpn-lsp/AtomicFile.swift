// Replacing a file's contents atomically: a temporary file beside it, written, synced, renamed over it.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces the contents of the file at `path` with `bytes` so that the file holds, at every
/// moment and after a crash, either all of its old contents or all of the new ones.
///
/// A file, or a folder, that has no write bit for anyone is refused even where the user could
/// write it (root): it was made read-only on purpose.
///
/// The new contents go to a temporary file in the same folder (`.NAME.rpn-lsp-XXXXXX`), which is
/// written in full, given the original's permission bits (and owner, where allowed), synced, and
/// renamed over the original; then the folder is synced. A symbolic link is followed: the file it
/// points to is replaced and the link stays. `original` is what `fstat` said when the file was
/// read: if the file has changed since, it is left alone. On any error the original is untouched
/// and the temporary file is removed.
func replaceContents(of path: String, with bytes: [UInt8], original: stat) throws(FileError) {
  // Replacing a link would turn it into a file: replace the file it points to instead.
  var target = path
  var linkStatus = stat()
  if lstat(path, &linkStatus) == 0, linkStatus.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) {
    target = String(cString: resolved)
    free(resolved)
  }
  // The mode bits are asked first: root passes `access`, but a file that no one may write was
  // made read-only on purpose.
  guard original.st_mode & 0o222 != 0, access(target, W_OK) == 0 else { throw .readOnlyFile(path: path) }
  let slash = target.utf8.lastIndex(of: UInt8(ascii: "/"))
  let folder = slash.map { $0 == target.utf8.startIndex ? "/" : String(target[..<$0]) } ?? "."
  let name = slash.map { target.utf8[target.utf8.index(after: $0)...] } ?? target.utf8[...]

  // Root may write into a folder whose mode has no write bit; one made so is meant to stay as it is.
  var folderStatus = stat()
  if stat(folder, &folderStatus) == 0, folderStatus.st_mode & 0o222 == 0 {
    throw .readOnlyFolder(path: path, folder: folder, errno: nil)
  }

  // A name has at most 255 bytes: the temporary one keeps within that however long the file's is.
  var template = Array(folder.utf8) + Array("/.".utf8) + name.prefix(200) + Array(".rpn-lsp-XXXXXX".utf8) + [0]
  let fd = template.withUnsafeMutableBufferPointer { buffer in
    buffer.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
  }
  guard fd >= 0 else {
    let error = errno
    if error == EACCES || error == EPERM || error == EROFS {
      throw .readOnlyFolder(path: path, folder: folder, errno: error)
    }
    throw .cannotWrite(path: path, step: "creating a temporary file in \(folder)", errno: error)
  }
  // The name as bytes: cut at 200 bytes, it may end inside a character.
  let temporary = template.map { CChar(bitPattern: $0) }
  let temporaryName = String(decoding: template.dropLast(), as: UTF8.self)
  var isOpen = true
  func abandon(_ step: String, _ error: Int32) -> FileError {
    if isOpen { close(fd) }
    unlink(temporary)
    return .cannotWrite(path: path, step: step, errno: error)
  }

  var offset = 0
  while offset < bytes.count {
    let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
    if n < 0 {
      if errno == EINTR { continue }
      throw abandon("writing the temporary file \(temporaryName)", errno)
    }
    offset += n
  }
  // The owner first: changing it may clear the set-user-ID and set-group-ID bits that fchmod sets.
  if fchown(fd, original.st_uid, original.st_gid) != 0 {
    _ = fchown(fd, uid_t.max, original.st_gid)  // Not allowed to give the file away: keep its group if we may.
  }
  guard fchmod(fd, original.st_mode & 0o7777) == 0 else {
    throw abandon("giving the temporary file the original's permissions", errno)
  }
  guard fsync(fd) == 0 else { throw abandon("syncing the temporary file to disk", errno) }
  isOpen = false
  guard close(fd) == 0 else { throw abandon("closing the temporary file", errno) }

  var current = stat()
  guard stat(target, &current) == 0, sameVersion(current, original) else {
    unlink(temporary)
    throw .changedMeanwhile(path: path)
  }
  guard rename(temporary, target) == 0 else { throw abandon("renaming the temporary file over it", errno) }

  // Make the rename itself durable. The new contents are in place already: a failure here is not reported.
  let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
  if folderFD >= 0 {
    _ = fsync(folderFD)
    close(folderFD)
  }
}

/// Whether two `stat` results describe the same version of the same file: the same inode, size
/// and modification time.
private func sameVersion(_ a: stat, _ b: stat) -> Bool {
  #if canImport(Darwin)
    let (ta, tb) = (a.st_mtimespec, b.st_mtimespec)
  #else
    let (ta, tb) = (a.st_mtim, b.st_mtim)
  #endif
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size && ta.tv_sec == tb.tv_sec
    && ta.tv_nsec == tb.tv_nsec
}
