#!/usr/bin/env bash
# Security check, under strace.
# 1. Serving a session, rpn-lsp opens no file but the shared libraries the loader and the Swift
#    runtime read at startup, runs nothing, and opens no socket. The session opens documents whose
#    URIs name real files (/etc/passwd, the sample tape) and asks for every feature: the server
#    must not read them; it works from the text the client sends.
# 2. `format --write` and `update --write` touch only the files named: each is opened read-only,
#    the new text goes to a temporary sibling (`.NAME.rpn-lsp-XXXXXX`, created exclusively in the
#    same folder) renamed over it, and the folder is opened to sync the rename; nothing else is
#    opened, created, renamed or removed, and the files beside them stay as they were.
# 3. `eval`, `check`, `format` and `update` given a folder read only the regular `.rpn` files
#    under it (and open its folders to list them): not its other files, not its hidden files and
#    folders, not a folder a symbolic link inside it points to, and no `.rpn` entry that is not a
#    regular file: a link out of the folder to a secret, a link to /dev/zero or to a folder, a
#    FIFO, a socket. Each of those is named on standard error, and the run goes on. Tapes whose
#    names hold terminal escapes, or bytes that are not UTF-8, are read and printed escaped: no
#    output holds an ESC or BEL byte.
# 4. A FIFO or a link to a device named for `--write` or `check` is refused without being opened.
#   bash Tests/Security/no-file-access.sh PATH/TO/rpn-lsp
set -euo pipefail
binary=$(realpath "${1:?usage: no-file-access.sh PATH/TO/rpn-lsp}")
command -v strace >/dev/null || { apt-get update -qq >/dev/null && apt-get install -y -qq strace >/dev/null; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/session" "$(cd "$(dirname "$0")/../.." && pwd)/EditorConfigs/sample.rpn" <<'PY'
import json, sys
out, sample = sys.argv[1], sys.argv[2]
def frame(o):
    body = json.dumps(o).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body
msgs, n = [], 0
def request(method, params):
    global n
    n += 1
    msgs.append({"jsonrpc": "2.0", "id": n, "method": method, "params": params})
request("initialize", {"capabilities": {}, "rootUri": "file:///etc"})
for uri in ["file:///etc/passwd", "file://" + sample]:
    msgs.append({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                 "params": {"textDocument": {"uri": uri, "languageId": "rpn", "version": 1, "text": "1 2 +\n=x x 4+\n"}}})
    doc = {"uri": uri}
    at = {"textDocument": doc, "position": {"line": 1, "character": 3}}
    whole = {"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}}
    for method, params in [("textDocument/hover", at), ("textDocument/completion", at), ("textDocument/definition", at),
                           ("textDocument/references", dict(at, context={"includeDeclaration": True})),
                           ("textDocument/rename", dict(at, newName="y")), ("textDocument/documentSymbol", {"textDocument": doc}),
                           ("textDocument/inlayHint", {"textDocument": doc, "range": whole}),
                           ("textDocument/semanticTokens/full", {"textDocument": doc}),
                           ("textDocument/codeAction", {"textDocument": doc, "range": whole, "context": {"diagnostics": []}}),
                           ("textDocument/formatting", {"textDocument": doc, "options": {}})]:
        request(method, params)
    msgs.append({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": doc}})
request("shutdown", None)
msgs.append({"jsonrpc": "2.0", "method": "exit"})
open(out, "wb").write(b"".join(frame(m) for m in msgs))
PY
strace -f -qq -e trace=open,openat,openat2,creat,execve,execveat,socket,connect -o "$work/trace" \
  "$binary" < "$work/session" > "$work/stdout"
# Allowed: the executable itself; shared libraries and the loader's cache; two files the Swift
# runtime and libdispatch read at startup. Everything read-only.
unexpected=$(grep -vE 'execve\("[^"]*rpn-lsp"|\.so(\.[0-9]+)*", O_RDONLY|/etc/ld\.so\.cache", O_RDONLY|"/proc/self/maps", O_RDONLY|"/sys/devices/system/cpu/possible", O_RDONLY|= -1 ENOENT|\+\+\+ exited' "$work/trace" || true)
echo "security: $(grep -c 'open' "$work/trace") opens traced, $(grep -c '"jsonrpc"' "$work/stdout") frames answered"
if [ -n "$unexpected" ]; then
  echo "FAIL security: rpn-lsp opened, ran or connected to something beyond its libraries:" >&2
  echo "$unexpected" >&2
  exit 1
fi
if grep -qE 'passwd|sample\.rpn' "$work/trace"; then
  echo "FAIL security: rpn-lsp touched a file named by a document URI" >&2
  exit 1
fi
echo "security: ok — no file opened but shared libraries at startup, nothing executed, no socket"

# The command line, in a folder of its own. Every call that names, creates, renames or removes a
# file is traced (file descriptors' reads and writes are not: a file is reached by name first).
traced=open,openat,openat2,creat,rename,renameat,renameat2,unlink,unlinkat,link,linkat,symlink,symlinkat
traced=$traced,mkdir,mkdirat,rmdir,truncate,chmod,fchmodat,chown,fchownat,lchown,utimensat,execve,execveat
traced=$traced,socket,connect
cd "$work"
mkdir -p notes/sub/deeper notes/.hidden-folder outside
escaped_name=$'notes/\e]0;PWNED\a\e[2J.rpn'
latin1_name=$'notes/sub/caf\xe9.rpn'
printf '1  2 +\n1 3 / =0.5\n' >notes/a.rpn
printf '# rpn: notation=fixed decimals=2\n3 4 + =7.5\n' >notes/sub/b.rpn
printf '5   6 *\n' >notes/sub/deeper/c.rpn
printf '1 2 +\n' >notes/.hidden.rpn
printf '1 2 +\n' >notes/.hidden-folder/d.rpn
printf 'not a tape\n' >notes/notes.txt
printf '1 2 +\n' >notes/sub/tape.rpn.bak
printf '1 2 +\n' >outside/e.rpn
printf 'password hunter2\n' >outside/secret
ln -s ../outside notes/sub/link
# What a folder may hold that is not a tape, each named .rpn: all skipped, none opened.
ln -s ../outside/secret notes/x.rpn
ln -s /dev/zero notes/sub/zero.rpn
ln -s ../outside notes/dir.rpn
mkfifo notes/fifo.rpn
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' notes/sub/socket.rpn
skipped_count=5
# Tapes with names that would drive a terminal, or are not UTF-8: read, their names printed
# escaped. Their text has a diagnostic and nothing to format or check, so that no --write changes them.
printf 'zz\n' >"$escaped_name"
printf 'zz\n' >"$latin1_name"
tapes=(notes/a.rpn notes/sub/b.rpn notes/sub/deeper/c.rpn)
all_tapes=("${tapes[@]}" "$escaped_name" "$latin1_name")
snapshot() { find notes outside -printf '%p %s %T@ %m\n' | sort; md5sum "${all_tapes[@]}" notes/.hidden.rpn notes/.hidden-folder/d.rpn notes/notes.txt notes/sub/tape.rpn.bak outside/e.rpn outside/secret; }
cp -a notes pristine-notes

# check-trace NAME [--write FILE... | --read-under FOLDER | --none] -- the trace of one command against what
# it may touch: the startup's libraries always; with --write, each FILE read-only, its temporary
# sibling created, written and renamed over it, and its folder opened to sync; with --read-under,
# the folders under FOLDER (not hidden, not through links) and the .rpn files in them read-only.
# With --none, nothing but the startup's libraries. The trace is taken with -xx (strings in hex): a
# name with escapes or bytes that are not UTF-8 comes through as its bytes. It also requires that
# each allowed tape was read, so that the check cannot pass by reading nothing.
check_trace() {
  python3 - "$@" <<'PY'
import os, re, stat, sys
args = sys.argv[1:]
trace, name, mode, paths = args[0], args[1], args[2], args[3:]
binary = os.environ["RPN_BINARY"]
startup = re.compile(r'(\.so(\.[0-9]+)*|/etc/ld\.so\.cache|/proc/self/maps|/sys/devices/system/cpu/possible)$')
problems, read = [], set()
def norm(p): return os.path.normpath(p)
writes = {norm(p) for p in paths} if mode == "--write" else set()
folders, tapes = set(), set()
if mode == "--read-under":
    for root, dirs, files in os.walk(paths[0]):  # os.walk does not follow links to folders
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        folders.add(norm(root))
        tapes.update(norm(os.path.join(root, f)) for f in files if f.endswith(".rpn") and not f.startswith(".")
                     and stat.S_ISREG(os.lstat(os.path.join(root, f)).st_mode))
def temporary_of(path):
    folder, base = os.path.split(path)
    m = re.fullmatch(r'\.(.+)\.rpn-lsp-[A-Za-z0-9]{6}', base)
    target = norm(os.path.join(folder, m.group(1))) if m else None
    return target if target in writes else None
call = re.compile(r'^\d+ +(\w+)\((.*)\) += (-?\d+|\?)(.*)$')
for line in open(trace):
    line = line.rstrip("\n")
    m = call.match(line)
    if not m:
        if "+++ exited" not in line and "resumed>" not in line: problems.append("unparsed: " + line)
        continue
    syscall, arguments, result = m.group(1), m.group(2), m.group(3)
    strings = [os.fsdecode(bytes.fromhex(s.replace("\\x", "")))
               for s in re.findall(r'"((?:[^"\\]|\\.)*)"', arguments)]
    failed = result.startswith("-")
    if syscall == "execve":
        if strings[0] != binary: problems.append(line)
        continue
    if syscall in ("open", "openat", "openat2", "creat"):
        path = norm(strings[0])
        flags = arguments.split(", ")[2 if syscall != "open" else 1] if syscall != "creat" else "O_CREAT|O_WRONLY"
        readonly = "O_RDONLY" in flags and not re.search(r'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND', flags)
        if startup.search(path) and (readonly or failed): continue
        if readonly and not failed and (path in writes or path in tapes):
            read.add(path)
            continue
        parents = {norm(os.path.dirname(w) or ".") for w in writes}
        if readonly and "O_DIRECTORY" in flags and (path in folders or path in parents):
            continue
        if temporary_of(path) and re.search(r'O_RDWR\|O_CREAT\|O_EXCL', flags): continue
        problems.append(line)
    elif syscall in ("rename", "renameat", "renameat2"):
        source, target = norm(strings[0]), norm(strings[1])
        if temporary_of(source) == target and not failed: continue
        problems.append(line)
    elif syscall in ("unlink", "unlinkat"):
        if not temporary_of(norm(strings[0])): problems.append(line)
    else:
        problems.append(line)
expected = writes | tapes
for path in sorted(expected - read): problems.append("never read: " + path)
if problems:
    print(f"FAIL security: {name} touched what it was not given, or skipped a tape:", file=sys.stderr)
    for p in problems[:20]: print("  " + p, file=sys.stderr)
    sys.exit(1)
print(f"security: {name}: ok — read {len(read)} tape(s), nothing else opened")
PY
}
export RPN_BINARY="$binary"
run() {  # run NAME EXPECTED-STATUS -- COMMAND...: the command under strace, its status checked
  local name=$1 expected=$2
  shift 3
  set +e
  # Bounded, so that a binary which reads /dev/zero or waits on a FIFO fails instead of eating the
  # machine or hanging.
  (ulimit -v 4194304 && timeout 30 strace -f -qq -xx -e trace="$traced" -o "$work/trace-cli" "$binary" "$@") \
    >"$work/out" 2>"$work/err"
  local status=$?
  set -e
  if [ "$status" != "$expected" ]; then
    echo "FAIL security: $name exited $status, not $expected:" >&2
    cat "$work/err" >&2
    exit 1
  fi
  if LC_ALL=C grep -q $'[\e\a]' "$work/out" "$work/err"; then
    echo "FAIL security: $name printed an ESC or BEL byte (a file name not escaped):" >&2
    cat -v "$work/out" "$work/err" >&2
    exit 1
  fi
}
expect_skipped() {  # expect_skipped NAME: standard error named each entry that is not a regular file
  local n
  n=$(grep -c '^rpn-lsp: skipped notes/' "$work/err" || true)
  [ "$n" = "$skipped_count" ] || { echo "FAIL security: $1 named $n skipped entries, not $skipped_count" >&2; cat "$work/err" >&2; exit 1; }
}

# Reading a folder: each command sees the three tapes and nothing else under notes/.
before=$(snapshot)
run "eval notes/" 0 -- eval notes/
check_trace "$work/trace-cli" "eval notes/" --read-under notes
expect_skipped "eval notes/"
[ "$(grep -c '^==> ' "$work/out")" = 5 ] || { echo "FAIL security: eval notes/ did not print 5 tapes" >&2; exit 1; }
run "check notes/" 1 -- check notes/
check_trace "$work/trace-cli" "check notes/" --read-under notes
expect_skipped "check notes/"
grep -qF 'notes/\x1b]0;PWNED\x07\x1b[2J.rpn:1:1: error: unknown word `zz`' "$work/out" &&
  grep -qF 'notes/sub/caf\xe9.rpn:1:1: error: unknown word `zz`' "$work/out" ||
  { echo "FAIL security: check notes/ did not name the tapes with crafted names, escaped:" >&2; cat "$work/out" >&2; exit 1; }
grep -q hunter2 "$work/out" "$work/err" && { echo "FAIL security: check notes/ printed the secret" >&2; exit 1; }
run "format --check notes/" 1 -- format --check notes/
check_trace "$work/trace-cli" "format --check notes/" --read-under notes
expect_skipped "format --check notes/"
run "update --check notes/" 1 -- update --check notes/
check_trace "$work/trace-cli" "update --check notes/" --read-under notes
expect_skipped "update --check notes/"
[ "$(snapshot)" = "$before" ] || { echo "FAIL security: a command that only reads changed a file" >&2; exit 1; }

# Rewriting named files: only they change, each atomically through its temporary sibling.
run "format --write" 0 -- format --write notes/a.rpn notes/sub/deeper/c.rpn
check_trace "$work/trace-cli" "format --write notes/a.rpn notes/sub/deeper/c.rpn" \
  --write notes/a.rpn notes/sub/deeper/c.rpn
run "update --write" 0 -- update --write notes/a.rpn notes/sub/b.rpn
check_trace "$work/trace-cli" "update --write notes/a.rpn notes/sub/b.rpn" --write notes/a.rpn notes/sub/b.rpn
expect_text() {  # expect_text FILE TEXT: the file holds TEXT (without its last line break)
  [ "$(cat "$1")" = "$2" ] || { echo "FAIL security: $1 holds $(cat "$1"), not $2" >&2; exit 1; }
}
expect_text notes/a.rpn $'1 2 +\n1 3 / =0.3'
expect_text notes/sub/b.rpn $'# rpn: notation=fixed decimals=2\n3 4 + =7.0'
expect_text notes/sub/deeper/c.rpn "5 6 *"
# Nothing else under notes/ or outside/ changed, and no temporary file was left behind.
unchanged() { find notes outside ! -path notes/a.rpn ! -path notes/sub/b.rpn ! -path notes/sub/deeper/c.rpn \
  ! -path notes ! -path notes/sub ! -path notes/sub/deeper -printf '%p %s %T@ %m\n' | sort; }
after=$(unchanged)
rm -rf notes && cp -a pristine-notes notes
[ "$after" = "$(unchanged)" ] || { echo "FAIL security: --write changed a file it was not given" >&2; exit 1; }

# Rewriting a folder: its tapes, and nothing else.
run "update --write notes/" 0 -- update --add --write notes/
check_trace "$work/trace-cli" "update --add --write notes/" --write "${all_tapes[@]}"
expect_skipped "update --add --write notes/"
run "format --write notes/" 0 -- format --write notes/
check_trace "$work/trace-cli" "format --write notes/" --write "${all_tapes[@]}"
expect_skipped "format --write notes/"
after=$(unchanged)
rm -rf notes && cp -a pristine-notes notes
[ "$after" = "$(unchanged)" ] || {
  echo "FAIL security: --write on a folder changed a file beside its tapes" >&2
  exit 1
}
# Special files named: asked what they are by stat, refused, never opened (a FIFO would block).
run "update --write FIFO" 2 -- update --write notes/fifo.rpn
check_trace "$work/trace-cli" "update --write notes/fifo.rpn" --none
run "format --write FIFO" 2 -- format --write notes/fifo.rpn
check_trace "$work/trace-cli" "format --write notes/fifo.rpn" --none
run "check a link to /dev/zero" 2 -- check notes/sub/zero.rpn
check_trace "$work/trace-cli" "check notes/sub/zero.rpn" --none
run "eval /dev/urandom" 2 -- eval /dev/urandom
check_trace "$work/trace-cli" "eval /dev/urandom" --none
[ "$(md5sum <outside/secret)" = "$(printf 'password hunter2\n' | md5sum)" ] ||
  { echo "FAIL security: the secret outside the folder changed" >&2; exit 1; }
echo "security: ok — the command line reads only the tapes it is given and rewrites only those, atomically"
