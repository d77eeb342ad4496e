// Asking the kernel for huge pages under a large buffer about to be filled.

#if canImport(Glibc)
  import Glibc
#endif

/// Advises the kernel that the `byteCount` bytes at `start`, about to be written once from
/// beginning to end, may be backed by 2 MB pages: a buffer of tens of megabytes then takes tens of
/// page faults instead of thousands. A hint only (where transparent huge pages are off, or off
/// Linux, nothing changes), for buffers of 4 MB or more; only the whole 2 MB pages inside the
/// buffer are advised.
package func adviseHugePages(_ start: UnsafeMutableRawPointer?, byteCount: Int) {
  #if canImport(Glibc)
    let huge = 1 << 21
    guard let start, byteCount >= 2 * huge else { return }
    let address = UInt(bitPattern: start)
    let first = (address + UInt(huge - 1)) & ~UInt(huge - 1)
    let end = (address + UInt(byteCount)) & ~UInt(huge - 1)
    guard end > first, let pointer = UnsafeMutableRawPointer(bitPattern: first) else { return }
    _ = madvise(pointer, Int(end - first), MADV_HUGEPAGE)
  #endif
}
