#!/usr/bin/env bash
# Checks the bash completion of rpn-lsp: sources it (the file given, or the one beside this
# script), sets COMP_WORDS and COMP_CWORD as bash would for a command line, calls the function
# and compares COMPREPLY with what it should offer. Exits 1 on any difference.
set -uo pipefail
completion=${1:-$(dirname "$0")/rpn-lsp}
# shellcheck source=/dev/null
source "$completion" || exit 1
[[ $(complete -p rpn-lsp) == "complete -F _rpn_lsp rpn-lsp" ]] || { echo "rpn-lsp is not registered" >&2; exit 1; }

folder=$(mktemp -d)
trap 'rm -rf "$folder"' EXIT
cd "$folder" || exit 1
mkdir notes .hidden 'two words'
touch budget.rpn lunch.rpn readme.txt notes/a.rpn notes/b.txt 'two words/c.rpn' 'tip jar.rpn'

passed=0 failed=0
# expect 'WORD WORD … WORD' 'EXPECTED…': the words of the line, the last one being completed
# (bash splits at `=`, so `--notation=f` is the three words `--notation` `=` `f`).
expect() {
  local line=$1
  shift
  read -r -a COMP_WORDS <<<"$line"
  [[ $line == *' ' ]] && COMP_WORDS+=('')
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _rpn_lsp
  local got want
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort)
  want=$(printf '%s\n' "$@" | sort)
  [[ $# -eq 0 ]] && want=$(printf '\n')
  [[ ${#COMPREPLY[@]} -eq 0 ]] && got=$(printf '\n')
  if [[ $got == "$want" ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: '$line': offered [${COMPREPLY[*]}], expected [$*]" >&2
  fi
}

expect 'rpn-lsp ' eval check format update --version --help --stdio
expect 'rpn-lsp e' eval
expect 'rpn-lsp --v' --version
expect 'rpn-lsp eval --' --precision --max-items --angle-unit --notation --decimals --grouping --no-grouping
expect 'rpn-lsp check --n' --notation --no-grouping
expect 'rpn-lsp format -' --check --write
expect 'rpn-lsp update --' --add --angle-unit --notation --decimals --grouping --no-grouping --check --write
expect 'rpn-lsp update budget.rpn --a' --add --angle-unit
expect 'rpn-lsp eval --notation ' auto fixed scientific engineering
expect 'rpn-lsp eval --notation s' scientific
expect 'rpn-lsp eval --notation = ' auto fixed scientific engineering
expect 'rpn-lsp eval --notation = e' engineering
expect 'rpn-lsp update --angle-unit ' radians degrees
expect 'rpn-lsp check --angle-unit = d' degrees
expect 'rpn-lsp eval --precision '
expect 'rpn-lsp eval --decimals = '
expect 'rpn-lsp format --notation '
expect 'rpn-lsp eval ' budget.rpn lunch.rpn notes 'tip jar.rpn' 'two words'
expect 'rpn-lsp eval --notation fixed b' budget.rpn
expect 'rpn-lsp check notes/' notes/a.rpn
expect 'rpn-lsp format two' 'two words'
expect 'rpn-lsp update --check .h' .hidden
expect 'rpn-lsp eval -- -' 
expect 'rpn-lsp --version '
expect 'rpn-lsp --stdio '

echo "bash completion: $passed passed, $failed failed"
((failed == 0))
