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
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid: pid_t = 0
  guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else { return false }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  return true
}
