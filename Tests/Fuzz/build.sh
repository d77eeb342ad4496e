#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer, out of the normal build:
#   bash Tests/Fuzz/build.sh            -> .build/fuzz/fuzz-{messages,engine,lsp}
# The package's modules are compiled as instrumented static libraries, then each target in
# Tests/Fuzz/Fuzz*.swift is linked against them (libFuzzer supplies main).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build/fuzz
mkdir -p "$out"
flags=(-sanitize=fuzzer,address -parse-as-library -package-name rpn_lsp -O -g -I "$out" -L "$out")

module() {  # module NAME DEPENDENCY...
  local name=$1
  shift
  local libs=()
  for dependency in "$@"; do libs+=("-l$dependency"); done
  # A module's sources are in folders by concern: every .swift file under its folder.
  local sources=()
  while IFS= read -r -d '' file; do sources+=("$file"); done < <(find "Sources/$name" -name '*.swift' -print0 | sort -z)
  swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
    -emit-library -static -o "$out/lib$name.a" "${sources[@]}" ${libs[@]+"${libs[@]}"} 2>&1 \
    | grep -v "warning: Cannot export local symbol" || true
  [ -f "$out/lib$name.a" ] || { echo "fuzz build: $name failed" >&2; exit 1; }
}

module JSONRPC
module LSPTypes JSONRPC
module RPNEngine
module RPNLanguageServer JSONRPC LSPTypes RPNEngine

for target in messages engine lsp; do
  source="Tests/Fuzz/Fuzz$(tr '[:lower:]' '[:upper:]' <<<"${target:0:1}")${target:1}.swift"
  swiftc "${flags[@]}" -o "$out/fuzz-$target" "$source" Tests/Fuzz/FuzzSupport.swift \
    -lRPNLanguageServer -lLSPTypes -lJSONRPC -lRPNEngine 2>&1 | grep -v "warning: Cannot export local symbol" || true
  [ -x "$out/fuzz-$target" ] || { echo "fuzz build: fuzz-$target failed" >&2; exit 1; }
  echo "built $out/fuzz-$target"
done
