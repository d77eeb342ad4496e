#!/usr/bin/env bash
# Differential test of rpn-lsp's units of measure against GNU Units.
#
#   Tests/Units/gnu-units.sh SERVER [OPTIONS]     e.g. .build/release/rpn-lsp
#   Tests/Units/gnu-units.sh --gnu-only [-q]      dry run, no SERVER needed
#
# Checks that gnu_units.py knows every unit and prefix of
# Sources/RPNEngine/Units/UnitTable.swift; generates a tape that converts every
# unit of the table (to its base and to two others), every prefix of both
# classes, every compound of its families and a seeded sample more, and a few
# temperatures below zero (affine: GNU's tempC(x), tempF(x)); runs
# `SERVER eval --precision 17 TAPE` once; and compares each line's value with
# GNU Units (two processes, all pairs on their standard input) to 15
# significant digits, and its unit with the one asked for.  Exits 1 on any
# difference not in Tests/Units/gnu-units-allow.txt.  About 2 s.  The dry run
# prints GNU's answer for every line and fails if GNU Units rejects one, or if
# one disagrees with the exact factors of the table (a GNU name that means
# another unit).
# OPTIONS: --seed N, --compounds N, --tape FILE (keep the tape), --allow FILE,
# --table FILE, --jobs N; `--help` lists them.  The work is done by
# gnu_units.py beside this file (Python 3, standard library only).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# CI installs GNU Units here: Debian's package `units` (2.22 on Debian 12).
if ! command -v units >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq units >/dev/null 2>&1 ||
        { apt-get update -qq && apt-get install -y -qq units >/dev/null; }
fi
command -v units >/dev/null 2>&1 || { echo "gnu-units.sh: GNU Units could not be installed" >&2; exit 2; }
command -v python3 >/dev/null 2>&1 || { echo "gnu-units.sh: python3 is needed" >&2; exit 2; }

exec python3 "$here/gnu_units.py" "$@"
