// Replacing a file's contents atomically: a temporary file beside it, written, synced, renamed over it.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Replaces the contents of the file at `path` (bytes, which need not be UTF-8) with `bytes` so that the file holds, at every
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
func replaceContents(of path: TapePath, with bytes: [UInt8], original: stat) throws(FileError) {
  // Replacing a link would turn it into a file: replace the file it points to instead.
  var target = path.bytes
  var linkStatus = stat()
  if path.withCString({ lstat($0, &linkStatus) }) == 0, linkStatus.st_mode & S_IFMT == S_IFLNK,
    let resolved = path.withCString({ realpath($0, nil) })
  {
    target = Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    free(resolved)
  }
  let targetPath = TapePath(bytes: target)
  // The mode bits are asked first: root passes `access`, but a file that no one may write was
  // made read-only on purpose.
  guard original.st_mode & 0o222 != 0, targetPath.withCString({ access($0, W_OK) }) == 0 else {
    throw .readOnlyFile(path: path.shown)
  }
  let slash = target.lastIndex(of: UInt8(ascii: "/"))
  let folderBytes = slash.map { $0 == 0 ? Array("/".utf8) : Array(target[..<$0]) } ?? Array(".".utf8)
  let folder = TapePath(bytes: folderBytes)
  let name = slash.map { target[($0 + 1)...] } ?? target[...]

  // Root may write into a folder whose mode has no write bit; one made so is meant to stay as it is.
  var folderStatus = stat()
  if folder.withCString({ stat($0, &folderStatus) }) == 0, folderStatus.st_mode & 0o222 == 0 {
    throw .readOnlyFolder(path: path.shown, folder: folder.shown, errno: nil)
  }

  // A name has at most 255 bytes: the temporary one keeps within that however long the file's is.
  var template = folder.bytes + Array("/.".utf8) + name.prefix(200) + Array(".rpn-lsp-XXXXXX".utf8) + [0]
  let fd = template.withUnsafeMutableBufferPointer { buffer in
    buffer.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) }
  }
  guard fd >= 0 else {
    let error = errno
    if error == EACCES || error == EPERM || error == EROFS {
      throw .readOnlyFolder(path: path.shown, folder: folder.shown, errno: error)
    }
    throw .cannotWrite(path: path.shown, step: "creating a temporary file in \(folder.shown)", errno: error)
  }
  // The name as bytes: cut at 200 bytes, it may end inside a character.
  let temporary = template.map { CChar(bitPattern: $0) }
  let temporaryName = TapePath(bytes: Array(template.dropLast())).shown
  var isOpen = true
  func abandon(_ step: String, _ error: Int32) -> FileError {
    if isOpen { close(fd) }
    unlink(temporary)
    return .cannotWrite(path: path.shown, step: step, errno: error)
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

  // As late as can be: a change after this check and before the rename is lost.
  var current = stat()
  guard targetPath.withCString({ stat($0, &current) }) == 0, sameVersion(current, original) else {
    unlink(temporary)
    throw .changedMeanwhile(path: path.shown)
  }
  guard targetPath.withCString({ rename(temporary, $0) }) == 0 else {
    throw abandon("renaming the temporary file over it", errno)
  }

  // Make the rename itself durable. The new contents are in place already: a failure here is not reported.
  let folderFD = folder.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
  if folderFD >= 0 {
    _ = fsync(folderFD)
    close(folderFD)
  }
}

/// Whether two `stat` results describe the same version of the same file: the same device,
/// inode, size, modification time and status-change time, to the nanosecond. The last catches
/// what the others miss: a `chmod` (which the rename would undo, since the new file has the old
/// mode) and an edit of the same size whose modification time was set back (`touch -r`, `rsync`).
private func sameVersion(_ a: stat, _ b: stat) -> Bool {
  #if canImport(Darwin)
    let (ma, mb, ca, cb) = (a.st_mtimespec, b.st_mtimespec, a.st_ctimespec, b.st_ctimespec)
  #else
    let (ma, mb, ca, cb) = (a.st_mtim, b.st_mtim, a.st_ctim, b.st_ctim)
  #endif
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size && ma.tv_sec == mb.tv_sec
    && ma.tv_nsec == mb.tv_nsec && ca.tv_sec == cb.tv_sec && ca.tv_nsec == cb.tv_nsec
}
