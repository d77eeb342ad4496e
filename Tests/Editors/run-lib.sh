# Shared by the editor runs that take the server as their argument (emacs/run.sh, neovim/run.sh):
# source it, then call take_server "$@". The runs count into $runs, $failures and $failed_runs.
#
# take_server ARG…: the one argument, PATH/TO/rpn-lsp, as an absolute path in $server (exits 2
#   with the usage otherwise); $repo is the repository.
# fenced_block FILE LANG [REGEX…]: prints the first ```LANG block of FILE (LANG an extended
#   regular expression) whose text matches every REGEX, as it stands; nothing when none does.
# same_as_readme WHAT TESTED SNIPPET LANG REGEX…: README.md's ```LANG block matching every REGEX,
#   if it has one, must be the file SNIPPET (the tested one, from TESTED); exits 1 otherwise.
# sample_tape DIR: EditorConfigs/sample.rpn copied into DIR/tape, which must be in no git work
#   tree (the editors would take it for a project).
# run_ended LABEL STATUS: counts a run; when STATUS is not 0, counts a failure, says so and
#   returns 1 (the caller then shows the editor's logs).
# summary NAME: the failed runs and the counts; fails when a run failed.

runs=0
failures=0
failed_runs=()

take_server() {
  if [ $# -ne 1 ]; then
    echo "usage: $0 PATH/TO/rpn-lsp" >&2
    exit 2
  fi
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
  server="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  if ! [ -x "$server" ]; then
    echo "run.sh: $1 is not an executable rpn-lsp" >&2
    exit 2
  fi
}

# The patterns reach awk through the environment: `-v` would read backslashes in them as escapes.
fenced_block() {
  local file="$1" lang="$2"
  shift 2
  RPN_FENCE_LANG="$lang" RPN_FENCE_NEED="$(printf '%s\n' "$@")" awk '
    BEGIN { fence = "^```(" ENVIRON["RPN_FENCE_LANG"] ")$"; n = split(ENVIRON["RPN_FENCE_NEED"], need, "\n") }
    $0 ~ fence { inside = 1; block = ""; next }
    /^```$/ {
      if (inside) {
        ok = 1
        for (i = 1; i <= n; i++) if (need[i] != "" && block !~ need[i]) ok = 0
        if (ok) { printf "%s", block; exit }
      }
      inside = 0
      next
    }
    inside { block = block $0 "\n" }' "$file"
}

same_as_readme() {
  local what="$1" tested="$2" snippet="$3" readme_block
  shift 3
  readme_block="$(fenced_block "$repo/README.md" "$@")"
  if [ -n "$readme_block" ] && [ "$readme_block" != "$(cat "$snippet")" ]; then
    echo "run.sh: README.md's $what snippet differs from $tested (the tested one):" >&2
    diff <(printf '%s\n' "$readme_block") "$snippet" >&2 || true
    exit 1
  fi
}

sample_tape() {
  local dir="$1"
  cp "$repo/EditorConfigs/sample.rpn" "$dir/tape/sample.rpn"
  if (cd "$dir/tape" && git rev-parse --git-dir >/dev/null 2>&1); then
    echo "run.sh: $dir/tape is inside a git work tree; set TMPDIR to a folder outside one" >&2
    exit 2
  fi
}

run_ended() {
  local label="$1" status="$2"
  runs=$((runs + 1))
  [ "$status" = 0 ] && return 0
  failures=$((failures + 1)); failed_runs+=("$label")
  [ "$status" = 124 ] && echo "  FAIL  [$label] timed out"
  echo "  ($label exited with status $status)"
  return 1
}

summary() {
  if [ "$failures" != 0 ]; then
    printf 'failed: %s\n' "${failed_runs[@]}"
  fi
  echo "$1: $((runs - failures)) passed, $failures failed"
  [ "$failures" = 0 ]
}
