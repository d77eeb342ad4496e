#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer, out of the normal build:
#   bash Tests/Fuzz/build.sh            -> .build/fuzz/fuzz-{messages,engine,lsp}
# The package's modules are compiled as instrumented static libraries, then each target in
# Tests/Fuzz/Fuzz*.swift is linked against them (libFuzzer supplies main). A failed compile fails
# the script (exit 1), and what an earlier build left is removed first, so that a stale target
# can never be fuzzed in place of one that no longer compiles.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build/fuzz
mkdir -p "$out"
rm -f "$out"/fuzz-messages "$out"/fuzz-engine "$out"/fuzz-lsp "$out"/lib*.a "$out"/*.swiftmodule
flags=(-sanitize=fuzzer,address -parse-as-library -package-name rpn_lsp -O -g -I "$out" -L "$out")

# swiftc without the linker's notes on local symbols. Its status is swiftc's (pipefail), not the
# filter's: grep finding nothing to print is no failure.
compile() {
  swiftc "$@" 2>&1 | { grep -v "warning: Cannot export local symbol" || true; }
}

module() {  # module NAME DEPENDENCY...
  local name=$1
  shift
  local libs=()
  for dependency in "$@"; do libs+=("-l$dependency"); done
  # A module's sources are in folders by concern: every .swift file under its folder.
  local sources=()
  while IFS= read -r -d '' file; do sources+=("$file"); done < <(find "Sources/$name" -name '*.swift' -print0 | sort -z)
  if ! compile "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
    -emit-library -static -o "$out/lib$name.a" "${sources[@]}" ${libs[@]+"${libs[@]}"} \
    || ! [ -f "$out/lib$name.a" ]; then
    echo "fuzz build: $name failed to compile (see above)" >&2
    exit 1
  fi
}

module JSONRPC
module LSPTypes JSONRPC
module RPNEngine
module RPNLanguageServer JSONRPC LSPTypes RPNEngine

# What the targets share, and the tests' model of a document's text (one copy, which the engine
# target edits beside the document as the differential tests do).
support=(Tests/Fuzz/FuzzSupport.swift Tests/TestSupport/ReferenceText.swift)
for target in messages engine lsp; do
  source="Tests/Fuzz/Fuzz$(tr '[:lower:]' '[:upper:]' <<<"${target:0:1}")${target:1}.swift"
  if ! compile "${flags[@]}" -o "$out/fuzz-$target" "$source" "${support[@]}" \
    -lRPNLanguageServer -lLSPTypes -lJSONRPC -lRPNEngine || ! [ -x "$out/fuzz-$target" ]; then
    echo "fuzz build: fuzz-$target failed to compile (see above)" >&2
    exit 1
  fi
  echo "built $out/fuzz-$target"
done
