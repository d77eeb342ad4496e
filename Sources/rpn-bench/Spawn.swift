// Running a command to its end, for whole-process timings.

import Foundation

/// Runs `path` with `arguments`, its output and errors to /dev/null, and returns once it has
/// exited (whether it could be started at all).
///
/// `posix_spawn` and a blocking `waitpid`, not Foundation's `Process`: on Linux its
/// `waitUntilExit` looks at the child every 50 ms, so every time it measured was a multiple of
/// 50 ms (`/bin/true` took 50.8 ms, and `rpn-lsp check` 151 or 202 ms, never between).
@discardableResult
func runToExit(_ path: String, _ arguments: [String]) -> Bool {
  guard let pid = spawnSilenced(path, arguments) else { return false }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  return true
}

/// Runs `path` as `runToExit` does and returns its wall time and its peak resident memory (in
/// bytes), or nil when it could not be started. The peak is the process's own `VmHWM`, read from
/// `/proc` every 2 ms until it exits (the last reading stands): `ru_maxrss` cannot be used, as a
/// spawned child's starts at this process's own peak, which the bench's documents make large.
func runMeasured(_ path: String, _ arguments: [String]) -> (nanoseconds: Double, peakBytes: Int)? {
  let start = DispatchTime.now().uptimeNanoseconds
  guard let pid = spawnSilenced(path, arguments) else { return nil }
  var peak = 0
  var status: Int32 = 0
  while true {
    // Read before reaping: a process that has exited but is not reaped has no memory to show.
    if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kilobytes = Int(line.dropFirst(6).filter(\.isNumber))
    {
      peak = max(peak, kilobytes * 1024)
    }
    let reaped = waitpid(pid, &status, WNOHANG)
    if reaped == pid || (reaped < 0 && errno != EINTR) { break }
    usleep(2_000)
  }
  let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
  return (elapsed, peak)
}

/// Starts `path` with `arguments`, its output and errors to /dev/null; its process id, or nil
/// when it could not be started. The caller reaps it.
private func spawnSilenced(_ path: String, _ arguments: [String]) -> pid_t? {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid: pid_t = 0
  guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return nil }
  return pid
}
