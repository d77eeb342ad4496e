"""Checks the editor configs in EditorConfigs/ that no editor here can load: they parse, they say
what they must, and their token patterns agree with the language's token rules (README.md, "The
language") and with the builtins table.

    python3 Tests/Editors/configs/check.py [REPO [PATH/TO/rpn-lsp]]

- TOML (tomllib): Helix languages.toml and config.toml, the Zed extension's extension.toml,
  Cargo.toml and languages/rpn/config.toml, and the `lsp_servers` TOML inside kakoune/rpn.kak.
- JSON (json, after dropping `//` comments): the Sublime LSP settings (both forms), Zed's
  settings.json, the LSP4IJ template.
- YAML (PyYAML): sublime/RPN.sublime-syntax loads; its regexes, with `{{variables}}` expanded,
  compile with Python's `re` (`\\p{L}` rewritten to Python's spelling); and a small reading of
  the syntax (earliest match wins, first rule on ties, as Sublime does) passes every assertion
  in sublime/syntax_test_rpn.rpn.
- XML (plistlib): sublime/RPN-Comments.tmPreferences.
- Kakoune's highlighter regexes (a subset of ECMAScript that Python's `re` reads alike) give the
  expected tokens; every settings object is a valid `{"rpn": {...}}` of the server's settings; the builtin
  names in the Vim, Sublime and Kakoune syntaxes are exactly Sources/RPNEngine/Evaluation/Builtins.swift's.
- Definitions `: hyp sq swap sq + sqrt ;`: in Kakoune and Sublime, `:` and `;` are keywords when
  they stand alone (`x;`, `:x` are unknown words, `4:` a time written wrongly), the name after
  `:` is a definition (unless it is a builtin's, which cannot be defined), a later use of it is a
  name; whole lines are painted token by token, in the same cases as Tests/Editors/vim/test.vim.
- Headings (`## Groceries`, a line holding only a comment that starts with `##`): Kakoune opens
  its heading region (face title) there, not the comment region; Sublime scopes the line as a
  comment and a markup.heading; Vim's rpnHeading pattern and link; `1 2 ## x` stays a comment.
- Checks `=20.5` (`=2:15` too): Kakoune paints the `=` as an operator and the number as a value;
  Sublime's scopes are meta.check, keyword.operator.check and constant.numeric; near-misses
  (`=1.5x`, `=2x`, `=`) are no checks and `=dup` keeps what it had; each syntax's check pattern
  (Vim's too) is `=` and that syntax's own number pattern, unchanged.
- Units: quantities `12_km` (Kakoune: the number a value, the unit from its `_` a type; Sublime:
  meta.quantity, constant.numeric, support.type.unit), unit words `_km` `>mi` `->mi` `→mi` (a
  type), checks of quantities `=12.5_km`; malformed units (`12_m/s/s`, `12_m^0`, `>h:m`) are none.
- Times and angles in fields of sixty: `1:30`, `1:30:15.5`, `-0:30` are numbers (in each syntax's
  number pattern, so `=2:15` is a check); in a unit, two fields in h, min, ° or deg or three in h,
  ° or deg (`4:35_min`, `48:46:32_°`), quantities, and `=4:35_min` a check of one; formats
  `>h:mm` `->min:ss` `→°:mm:ss` unit words; written wrongly (`1:75`, `1:5`, `1:`, `:30`, `1::30`,
  `1.5:30`, `1:30_km`, `1:00:00:00`, `1:30:15_min`, `>hh:mm`), none. Kakoune's, Sublime's and
  Vim's patterns for them are the ones expected; a quantity's number pattern has no times.
- Given the server, the token table agrees with the lexer: each token alone on a line of one tape
  (after a store of each name in it), the server's semantic tokens are what the table paints (a
  check `=` an operator and a number, a quantity a number and a type after its `_`, a constant a
  read-only variable), and a token the table leaves unpainted has an error of the lexer's over it
  (invalid-number, invalid-unit, invalid-name, unknown-word); except for unit names the unit
  table lacks (`_tmp`), which a grammar cannot know: the server says unknown-unit. Where
  Kakoune is installed, Kakoune itself (`-ui json`) draws the token table and LINES with rpn.kak,
  face by face.
- Settings objects: each is a valid `{"rpn": {...}}` of the server's settings and shows the display
  settings (`display.notation`, `display.decimals`, `display.grouping`, with valid values); each
  editor's README lists them.
- READMEs: each editor's says what it must (sections, the display settings, inlayHints.position and
  a tape's `# rpn: hints=endOfLine`); none of the files under EditorConfigs cites SPEC; the Kakoune
  README names kakoune-lsp's source, the version it needs and both autoload folders; the Vim README
  gives a new vimrc its defaults.vim lines; the Emacs README says how to install eglot on Emacs 28;
  the Neovim README sets everything in one init.lua block. Where Kakoune is installed (Debian's kakoune): the Kakoune README's install
  commands run in an empty home, and Kakoune (-ui dummy) then loads rpn.kak from the autoload
  folder beside its own scripts, giving the sample the filetype rpn and comment_line #.
- Given the server, each config's settings object, sent the way its client sends it (Helix, Zed,
  LSP4IJ: initializationOptions; Kakoune: the `settings_section` alone; Sublime:
  workspace/didChangeConfiguration), with precision 3 and degrees, changes the inlay hints of
  `1 3 /` and `90 sin` from the defaults to `[0.333]` and `[0.333 1]`; with inlayHints.position
  "endOfLine" (as the READMEs say) it moves them from after the tokens to after the comments.

Prints one line per check and exits 0 when all passed, 1 otherwise.
"""

import copy
import json
import os
import plistlib
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

# Absolute: Kakoune, run in a scratch folder, sources rpn.kak by this path.
REPO = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parents[3]).resolve()
SERVER = Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else None
CONFIGS = REPO / "EditorConfigs"

passed = 0
failed = 0


def check(condition, what, detail=None):
    """Records and prints one check; returns the condition."""
    global passed, failed
    if condition:
        passed += 1
        print(f"  ok    {what}")
    else:
        failed += 1
        print(f"  FAIL  [configs] {what}" + (f": {detail}" if detail else ""))
    return condition


def expect(actual, expected, what):
    return check(actual == expected, what, f"expected {expected!r}, got {actual!r}")


def load(what, loader, path, text=None):
    """Parses a file (or `text` taken from it) with `loader`; a parse error is a failed check,
    and the result is then None."""
    try:
        value = loader(path.read_text(encoding="utf-8") if text is None else text)
    except Exception as error:  # any parse error is the finding
        check(False, f"{what} parses", f"{path.relative_to(REPO)}: {error}")
        return None
    check(True, f"{what} parses")
    return value


def strip_line_comments(text):
    """JSON with `//` comments (Sublime, Zed) to JSON: drops each `//` outside a string."""
    out = []
    in_string = escaped = False
    i = 0
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def jsonc(text):
    return json.loads(strip_line_comments(text))


def dig(value, *keys):
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def check_rpn_settings(settings, what):
    """A settings object `{"rpn": {...}}` with keys the server knows and valid values."""
    inner = dig(settings, "rpn")
    if not check(isinstance(inner, dict), f"{what}: settings are {{\"rpn\": {{...}}}}", repr(settings)):
        return
    unknown = set(inner) - {"precision", "angleUnit", "display", "inlayHints"}
    check(not unknown, f"{what}: only the server's settings keys", f"unknown {sorted(unknown)}")
    display = inner.get("display")
    if check(isinstance(display, dict) and set(display) == {"notation", "decimals", "grouping"},
             f"{what}: shows the display settings (display.notation, display.decimals, display.grouping)",
             repr(display)):
        check(display["notation"] in ("auto", "fixed", "scientific", "engineering"),
              f"{what}: display.notation is auto, fixed, scientific or engineering", repr(display["notation"]))
        check(type(display["decimals"]) is int and 0 <= display["decimals"] <= 15, f"{what}: display.decimals is 0–15",
              repr(display["decimals"]))
        check(type(display["grouping"]) is bool, f"{what}: display.grouping is true or false", repr(display["grouping"]))
    if "precision" in inner:
        value = inner["precision"]
        check(type(value) is int and 1 <= value <= 17, f"{what}: precision is 1–17", repr(value))
    if "angleUnit" in inner:
        check(inner["angleUnit"] in ("radians", "degrees"), f"{what}: angleUnit is radians or degrees",
              repr(inner["angleUnit"]))
    hints = inner.get("inlayHints", {})
    if check(isinstance(hints, dict), f"{what}: inlayHints is an object", repr(hints)):
        unknown = set(hints) - {"enabled", "maxItems", "sections", "position"}
        check(not unknown,
              f"{what}: only inlayHints.enabled, inlayHints.maxItems, inlayHints.sections and inlayHints.position",
              f"unknown {sorted(unknown)}")
        if "position" in hints:
            check(hints["position"] in ("afterTokens", "endOfLine"),
                  f"{what}: inlayHints.position is afterTokens or endOfLine", repr(hints["position"]))
        if "sections" in hints:
            check(type(hints["sections"]) is bool, f"{what}: inlayHints.sections is true or false", repr(hints["sections"]))
        if "enabled" in hints:
            check(hints["enabled"] is True, f"{what}: inlayHints.enabled is true", repr(hints["enabled"]))
        if "maxItems" in hints:
            value = hints["maxItems"]
            check(type(value) is int and 1 <= value <= 1000, f"{what}: inlayHints.maxItems is 1–1000", repr(value))


# What each client sends the server, for the last section: (what, "initializationOptions" or
# "didChangeConfiguration", the object as shipped, whether it is the inner object without "rpn").
SENT_SETTINGS = []


def as_sent(what, channel, settings, inner_only=False):
    if isinstance(settings if inner_only else dig(settings, "rpn"), dict):
        SENT_SETTINGS.append((what, channel, settings, inner_only))


# --- The builtins table, the one source of operator and constant names -----------------------

def builtins_from_swift():
    """(named operators, symbolic operators, constants) from Builtins.swift, all spellings."""
    source = (REPO / "Sources/RPNEngine/Evaluation/Builtins.swift").read_text(encoding="utf-8")
    named, symbolic, constants = set(), set(), set()
    pattern = re.compile(r'Builtin\(\s*name:\s*"([^"]+)",\s*aliases:\s*\[([^\]]*)\],\s*kind:\s*\.(\w+)')
    for name, aliases, kind in pattern.findall(source):
        for spelling in [name] + re.findall(r'"([^"]+)"', aliases):
            if kind == "constant":
                constants.add(spelling)
            elif re.match(r"[^\W\d]", spelling):
                named.add(spelling)
            else:
                symbolic.add(spelling)
    return named, symbolic, constants


BUILTIN_NAMED, BUILTIN_SYMBOLIC, BUILTIN_CONSTANTS = builtins_from_swift()
check(len(BUILTIN_NAMED) > 30 and {"+", "√"} <= BUILTIN_SYMBOLIC and BUILTIN_CONSTANTS == {"pi", "π", "e"},
      "Builtins.swift read: named operators, symbols and constants",
      f"{sorted(BUILTIN_NAMED)} {sorted(BUILTIN_SYMBOLIC)} {sorted(BUILTIN_CONSTANTS)}")


def alternatives(regex_text):
    """The words of the first `(a|b|…)` or `(?:a|b|…)` group with more than two branches."""
    for group in re.findall(r"\((?:\?i?:)?([^()]*\|[^()]*)\)", regex_text):
        words = group.split("|")
        if len(words) > 2:
            return set(words)
    return set()


def symbols_in(regex_text):
    """The operator symbols spelt out in `(?:\\*\\*|[-+*/^%×÷−√]|%(?:[cC][hH]|[tT]))`-style
    patterns: `**`, the class of one-character symbols, and `%` words whose letters are spelt in
    either case by classes (`%ch`, `%t`)."""
    found = set()
    if r"\*\*" in regex_text:
        found.add("**")
    klass = re.search(r"\[(-[^\]]*)\]", regex_text)
    if klass:
        found |= set(klass.group(1))
    for group in re.findall(r"%\((?:\?:)?((?:\[\w\w\]|\|)+)\)", regex_text):
        for alternative in group.split("|"):
            found.add("%" + "".join(letter.lower() for letter in re.findall(r"\[(\w)\w\]", alternative)))
    return found


# A shared token table: each token alone on a line, and the kind it must be highlighted as
# (None: not highlighted). The same cases as Tests/Editors/vim/test.vim.
TOKENS = [
    ("12", "number"), ("12.5", "number"), (".5", "number"), ("12.", "number"), ("−3", "number"),
    ("1e3", "number"), ("2.5E-4", "number"), ("1_000_000", "number"), ("+3", "number"),
    ("-0.5e-3", "number"), ("0.000_1", "number"), ("−12.", "number"), (".5E+2", "number"), ("007", "number"),
    ("4+", None), ("1__0", None), ("1_", None), ("1e3_0", None), ("1.2.3", None), ("1e", None),
    ("--3", None), ("+-3", None), (".", None), ("1e3.5", None), ("=", None), ("=2x", None),
    # Checks: `=` and a number literal, the whole token; near-misses are no checks.
    ("=20.5", "check"), ("=0.333", "check"), ("=-2.5", "check"), ("=−2.5", "check"), ("=+3", "check"),
    ("=1.5e3", "check"), ("=2.5E-4", "check"), ("=1_000", "check"), ("=.5", "check"), ("=12.", "check"),
    ("=007", "check"),
    ("=1.2.3", None), ("=1.5x", None), ("=1e3.5", None), ("=--3", None), ("=1__0", None), ("==5", None),
    ("=5=", None), ("=1e", None), ("=.", None),
    # Thousands grouped with commas: one to three digits, then groups of exactly three, before any
    # point (`_` still only between two digits); any other comma makes no number.
    ("1,234,567.89", "number"), ("-1,000", "number"), ("−1,000", "number"), ("+1,000", "number"),
    ("1,234.", "number"), ("999,999", "number"), ("1,234e3", "number"), ("1,234.5_6", "number"), ("0,001", "number"),
    ("1_2,345", "number"),
    ("1,5", None), ("12,34", None), ("1,,000", None), (",5", None), ("1,000,00", None), ("1234,567", None),
    ("1,234.5,6", None), ("1,_000", None), ("1_,000", None), ("1,", None), ("1,2345", None), (".5,000", None),
    # Integers in hex, octal and binary: prefix and hex digits in any case, a sign, `_` between two
    # digits; no fraction, no exponent.
    ("0x1F", "number"), ("0X1f", "number"), ("0o17", "number"), ("0O17", "number"), ("0b1010", "number"),
    ("0B1010", "number"), ("-0xFF", "number"), ("−0xFF", "number"), ("+0o7", "number"), ("0xFF_FF", "number"),
    ("0b1010_1010", "number"), ("0xdead_BEEF", "number"), ("0x1e3", "number"),
    ("0x", None), ("0xG", None), ("0b102", None), ("0x1p3", None), ("0o8", None), ("0x_FF", None), ("0xFF_", None),
    ("0xF__F", None), ("00x1F", None), ("0x1F.5", None), ("0xFFz", None), ("0b1e3", None), ("0x1F,000", None),
    ("--0x1", None), ("0x-1", None),
    ("=1,234.50", "check"), ("=-1,000", "check"), ("=−1,000", "check"), ("=0xFF", "check"), ("=−0b1010", "check"),
    ("=0o17", "check"), ("=0XFF_FF", "check"), ("=1,000e3", "check"),
    ("=1,5", None), ("=0xG", None), ("=0x", None), ("=12,34", None), ("=0b102", None), ("=,5", None),
    ("=1,000,00", None), ("=0x1F.5", None),
    ("E3", "variable"), ("é", "variable"), ("x2", "variable"), ("x_1", "variable"),
    ("=rate", "store"), ("=é", "store"), ("=x_1", "store"),
    # A name starts with a letter: `_tmp` is a unit word, `_x1` nothing, `=_x1` and `=_km` no stores.
    ("_tmp", "unit"), ("_x1", None), ("=_x1", None), ("=_km", None),
    # Quantities: a decimal number (no `0x`, `0o`, `0b` integer), `_` and a unit expression, one
    # token: the number a number, the unit with its `_` a unit (as the unit word `_km` is). An
    # `_` before a digit separates digits: `1_000_km` is 1000 km, `12_1/s` no quantity. A power is
    # 1 to 99 in size (`m²²` is m^22). The grammars know the unit expression, not the unit table:
    # a name that is no unit (`_tmp`) is coloured as one, and the server reports it
    # (unknown-unit), as it does a unit that the table's rules refuse (`1_kmin`, `1_°C*m`).
    ("12_km", "quantity"), ("1_000_km", "quantity"), ("9.81_m/s^2", "quantity"), ("-40_°C", "quantity"),
    ("2.5_kW*h", "quantity"), ("1_J/(kg*K)", "quantity"), ("5_m²", "quantity"), ("0.2_s^-1", "quantity"),
    ("1_µs", "quantity"), ("3_Ω", "quantity"), ("20_Δ°C", "quantity"), ("1,250.00_EUR", "quantity"),
    ("5_€", "quantity"), ("−3_m", "quantity"), ("+2_kg·m²/s³", "quantity"), ("1e3_m", "quantity"), (".5_h", "quantity"),
    ("12._km", "quantity"), ("100_$", "quantity"), ("9_£", "quantity"), ("1_m³", "quantity"), ("2_s⁻¹", "quantity"),
    ("3_N*m/(kg·s^2)", "quantity"), ("1_000.5_¥", "quantity"),
    ("12_m²²", "quantity"), ("12_m^99", "quantity"), ("12_m^01", "quantity"), ("1_m^-2", "quantity"), ("5_m⁴", "quantity"),
    ("12_m⁹⁹", "quantity"), ("1_∆°C", "quantity"), ("12_m/(s)", "quantity"), ("1_′", "quantity"), ("12_°", "quantity"),
    ("1E-3_m", "quantity"), ("1_000_000.5_m", "quantity"), ("2.5_kW·h", "quantity"),
    ("0x1F_km", None), ("0b1_m", None), ("12_", None), ("12__km", None), ("12_km_", None), ("12_1/s", None),
    ("12_km/", None), ("12_m^", None), ("12_m/s/s", None), ("12_(m)", None), ("12_m*", None), ("12_*m", None),
    ("12_m2", None), ("12_/s", None), ("12_m//s", None), ("12_m^2.5", None), ("12_m/(s", None), ("12_m^0", None),
    ("12_m^100", None), ("12_m^00", None), ("12_m^-0", None), ("12_m⁰", None), ("12_m¹⁰⁰", None), ("1_m^2²", None),
    ("12_m⁻", None), ("12_m⁻⁻¹", None), ("1_m/1", None), ("12_(m/s)", None), ("1_¢", None), ("1_m−1", None),
    ("12_a_b", None), ("1e3.5_m", None), ("1_1/s", None),
    ("1,5_km", None), ("12_km.", None), ("12_km>mi", None), ("12_m^+2", None), ("12_m**2", None), ("12_m/s)", None),
    ("12_m(s)", None), ("12_m^²", None), ("1e_m", None),
    # Unit words, tokens of their own: `_km` gives a plain number a unit; `>mi`, `->mi` and `→mi`
    # convert it to another unit.
    ("_km", "unit"), ("_m/s", "unit"), ("_1/s", "unit"), ("_kg·m²", "unit"), ("_°C", "unit"), ("_J/(kg*K)", "unit"),
    (">mi", "unit"), ("->mi", "unit"), ("→mi", "unit"), (">km/h", "unit"), (">°F", "unit"), ("_s⁻²", "unit"),
    ("_m^-1", "unit"), ("_1/(s*m)", "unit"), ("→°", "unit"), (">$", "unit"), ("->1/s", "unit"), ("→Δ°C", "unit"), (">m/s^2", "unit"),
    ("_", None), (">", None), ("->", None), ("→", None), ("_1", None), ("__km", None), (">>mi", None), ("_km/", None),
    ("=>mi", None), (">12", None), ("-->mi", None), ("_h:mm", None), (">h:", None), (">:mm", None), ("→→mi", None),
    ("<mi", None), ("_1/", None), ("_1*s", None), (">_km", None), ("−>mi", None), (">m^0", None), ("_m²²²", None),
    # A check of a quantity: `=`, then a quantity.
    ("=12.5_km", "quantity check"), ("=-40_°C", "quantity check"), ("=1,250.00_EUR", "quantity check"),
    ("=9.81_m/s^2", "quantity check"), ("=1_000_km", "quantity check"), ("=−3_J/(kg*K)", "quantity check"),
    ("=0xFF_km", None), ("=12_", None), ("=12.5_km/", None), ("=12_1/s", None), ("==12_km", None), ("=12_km=", None),
    ("uval", "function"), ("UBASE", "function"), ("ubase", "function"), ("Uval", "function"),
    ("DUP", "function"), ("Sqrt", "function"), ("log2", "function"), ("mean", "function"), ("chs", "function"),
    ("PI", "constant"), ("π", "constant"), ("e", "constant"),
    ("-", "operator"), ("*", "operator"), ("−", "operator"), ("**", "operator"), ("%", "operator"), ("√", "operator"),
    ("lastx", "function"), ("LASTX", "function"), ("pick", "function"), ("roll", "function"),
    ("%ch", "operator"), ("%CH", "operator"), ("%t", "operator"), ("%c", None), ("%t2", None), ("log10", "function"),
    ("ATAN2", "function"), ("sinh", "function"), ("acosh", "function"), ("fact", "function"), ("sdev", "function"),
    ("subtotal", "function"), ("SubTotal", "function"), ("subtotals", "variable"),
    # A definition's `:` and `;` are tokens of their own; glued to anything they are unknown words
    # (`4:` is a time with no minutes written: an invalid number).
    (":", "keyword"), (";", "keyword"), ("4:", None), ("x;", None), (":x", None), (";x", None), ("::", None),
    (";;", None), (":;", None),
    # Times and angles in fields of sixty, one token: digits, then `:` and two digits 00 to 59,
    # once or twice, a fraction only in the last field; a number (and after `=`, a check).
    ("1:30", "number"), ("1:30:15", "number"), ("27:10", "number"), ("-0:30", "number"), ("−0:30", "number"),
    ("+1:30", "number"), ("1:30:15.5", "number"), ("1:30.5", "number"), ("1:30.", "number"), ("100:59:59", "number"),
    ("0:00", "number"),
    ("=2:15", "check"), ("=1:30:15.5", "check"), ("=-0:30", "check"), ("=−1:30:15", "check"),
    # In the unit its first field counts: two fields in h, min, ° or deg, three in h, ° or deg; the
    # fields a number, the unit from its `_` a unit, as a quantity's.
    ("4:35_min", "quantity"), ("48:46:32_°", "quantity"), ("48:46_deg", "quantity"), ("1:30_h", "quantity"),
    ("1:30:15_h", "quantity"), ("48:46:32.5_deg", "quantity"), ("−0:30_°", "quantity"), ("2:15.5_min", "quantity"),
    ("=4:35_min", "quantity check"), ("=48:46:32_°", "quantity check"), ("=-1:30_h", "quantity check"),
    # Formats, converted to as units are (`>mi`): unit words.
    (">h:mm", "unit"), (">h:mm:ss", "unit"), (">min:ss", "unit"), (">°:mm", "unit"), (">°:mm:ss", "unit"),
    (">deg:mm", "unit"), (">deg:mm:ss", "unit"), ("->h:mm", "unit"), ("→min:ss", "unit"), ("→h:mm:ss", "unit"),
    ("->deg:mm:ss", "unit"),
    # Written wrongly (invalid-number, invalid-unit): no number, no check, no quantity, no unit word.
    ("1:75", None), ("1:5", None), ("1:", None), (":30", None), ("1:30:", None), ("1::30", None), ("1.5:30", None),
    ("1:30_km", None), ("1:00:00:00", None), ("1:30:15_min", None), ("1:60", None), ("1:300", None),
    ("1:30.5.5", None), ("1:30e3", None), ("1,000:30", None), ("0x1:30", None), ("1:30_", None), ("1:30__h", None),
    ("1:30_min_", None), ("1:3a", None), ("--1:30", None), ("1:30:15_h:mm", None),
    ("=1:75", None), ("=1:30_km", None), ("=1:30:15_min", None), ("=:30", None), ("=4:", None), ("==2:15", None),
    (">h:m", None), (">hh:mm", None), (">min:mm", None), (">h:mm:s", None), (">°:ss", None), (">h:mm:ss:ss", None),
    ("_min:ss", None), ("->min", "unit"), ("→h", "unit"), (">deg", "unit"),
]

# Whole lines, token by token: definitions (`: name body… ;`, the name a `definition`, `:` and
# `;` keywords) and what is around them. A use of a defined word is a name like a variable's:
# no regex can know which a name is (the server's semantic tokens tell them apart).
LINES = [
    (": hyp sq swap sq + sqrt ;",
     ["keyword", "definition", "function", "function", "function", "operator", "function", "keyword"]),
    ("3 4 hyp lastx", ["number", "number", "variable", "function"]),
    ("1 2 : w_2 + ; w_2 =20.5", ["number", "number", "keyword", "definition", "operator", "keyword", "variable", "check"]),
    # Units: quantities, unit words and checks of quantities among other tokens.
    ("12_km 3_km + >mi =9.32_mi", ["quantity", "quantity", "operator", "unit", "quantity check"]),
    # Times and angles: numbers, quantities in a unit, formats, checks.
    ("1:30 0:45 + >h:mm =2:15", ["number", "number", "operator", "unit", "check"]),
    ("4:35_min 2 × →min:ss =9:10_min 1:75", ["quantity", "number", "operator", "unit", "quantity check", None]),
    (": half 2 / ; 1:30 half 4: :", ["keyword", "definition", "number", "operator", "keyword", "number", "variable", None,
                                      "keyword"]),
    ("2 _km 1_000_km uval ubase −40_°C →°F", ["number", "unit", "quantity", "function", "function", "quantity", "unit"]),
    (": tokm _km ; 5 tokm : _km ;", ["keyword", "definition", "unit", "keyword", "number", "variable", "keyword", "unit",
                                    "keyword"]),
    # Units a tape defines: a rate, a unit of its own, an empty body; then their uses.
    (": _EUR 1.08_USD ; 100_EUR >USD", ["keyword", "unit", "quantity", "keyword", "quantity", "unit"]),
    (": _€ 0.93_EUR ; 5_€ =5.00_€", ["keyword", "unit", "quantity", "keyword", "quantity", "quantity check"]),
    (": _pace 0.75_m ; 120_pace >m 12_pace/h", ["keyword", "unit", "quantity", "keyword", "quantity", "unit",
                                                 "quantity"]),
    (": _box ; : _crate 24_box ; 3_crate >box", ["keyword", "unit", "keyword", "keyword", "unit", "quantity", "keyword",
                                                "quantity", "unit"]),
    (":\tπ2 2 * ;", ["keyword", "definition", "number", "operator", "keyword"]),
    (": é ;", ["keyword", "definition", "keyword"]),
    # A builtin's name cannot be defined: after `:` it stays what it is.
    (": dup 2 * ;", ["keyword", "function", "number", "operator", "keyword"]),
    (": PI ; : π ; : e ;", ["keyword", "constant", "keyword", "keyword", "constant", "keyword", "keyword", "constant",
                             "keyword"]),
    (": 12 ; : =x ; : ;", ["keyword", "number", "keyword", "keyword", "store", "keyword", "keyword", "keyword"]),
    (": 4+ ;", ["keyword", None, "keyword"]),
    ("4: x; :x ;x :: ;; :;", [None, None, None, None, None, None, None]),
    (":: hyp ; ; hyp", [None, "variable", "keyword", "keyword", "variable"]),
]


# Tokens whose highlighting differs between the syntaxes and must stay as it is: a store into a
# builtin's name is no check (Sublime marks it invalid; Kakoune's regexes paint it as a store).
TODAY = {"=dup": {"kakoune": "store", "sublime": "reserved"}, "=PI": {"kakoune": "store", "sublime": "reserved"}}

# Headings: a line that holds only a comment starting with `##` starts a section and is coloured
# apart from comments; after a token `##` starts a plain comment. (line, what its first `#` starts)
HEADINGS = [
    ("## Groceries", "heading"), ("  ### Fruit and veg", "heading"), ("##", "heading"), ("\t## x # y", "heading"),
    ("1 2 ## total", "comment"), ("# a comment that mentions ## is no heading", "comment"), ("#x", "comment"),
    ("x ##", "comment"), ("=20.5 ## checked", "comment"),
]


def check_pattern_is_number(pattern, number, what):
    """A check pattern is `=` then the number pattern (its body, without the token boundaries)."""
    check(number and number in pattern, f"{what}: the check pattern is `=` and the number pattern",
          f"{pattern!r} does not contain {number!r}")


# --- Helix ------------------------------------------------------------------------------------

print("== Helix (EditorConfigs/helix)")
helix = load("helix/languages.toml", tomllib.loads, CONFIGS / "helix/languages.toml")
if helix is not None:
    server = dig(helix, "language-server", "rpn-lsp") or {}
    expect(server.get("command"), "rpn-lsp", "helix: [language-server.rpn-lsp] command is rpn-lsp")
    expect(server.get("args"), ["--stdio"], "helix: args is --stdio")
    check_rpn_settings(server.get("config"), "helix: [language-server.rpn-lsp.config]")
    as_sent("helix: config", "initializationOptions", server.get("config"))
    languages = [language for language in helix.get("language", []) if language.get("name") == "rpn"]
    if expect(len(languages), 1, "helix: one [[language]] named rpn"):
        language = languages[0]
        expect(language.get("scope"), "source.rpn", "helix: scope is source.rpn (required)")
        expect(language.get("file-types"), ["rpn"], "helix: file-types is [\"rpn\"] (required)")
        expect(language.get("comment-token"), "#", "helix: comment-token is #")
        expect(language.get("roots"), [], "helix: roots is [] (single files work)")
        expect(language.get("language-servers"), ["rpn-lsp"], "helix: language-servers is [\"rpn-lsp\"]")
helix_config = load("helix/config.toml", tomllib.loads, CONFIGS / "helix/config.toml")
if helix_config is not None:
    expect(dig(helix_config, "editor", "lsp", "display-inlay-hints"), True,
           "helix: [editor.lsp] display-inlay-hints = true")

# --- Kakoune ----------------------------------------------------------------------------------

print("== Kakoune (EditorConfigs/kakoune)")
kak = (CONFIGS / "kakoune/rpn.kak").read_text(encoding="utf-8")
check(re.search(r"^hook global BufCreate \.\*\\\.rpn %\{\s*set-option buffer filetype rpn\s*\}", kak, re.M),
      "kakoune: BufCreate .*\\.rpn sets filetype rpn")
check("set-option window comment_line '#'" in kak, "kakoune: comment_line is # for rpn windows")
check("lsp-inlay-hints-enable window" in kak, "kakoune: inlay hints enabled for rpn windows")
servers = re.search(r"set-option buffer lsp_servers %\{\n(.*?)\n\s*\}", kak, re.S)
if check(servers, "kakoune: a BufSetOption filetype=rpn hook sets lsp_servers"):
    kak_toml = "\n".join(line.strip() for line in servers.group(1).splitlines())
    parsed = load("kakoune: the lsp_servers TOML", tomllib.loads, CONFIGS / "kakoune/rpn.kak", kak_toml)
    if parsed is not None:
        server = parsed.get("rpn-lsp", {})
        expect(server.get("args"), ["--stdio"], "kakoune: [rpn-lsp] args is --stdio (command defaults to rpn-lsp)")
        expect(server.get("settings_section"), "rpn", "kakoune: settings_section is rpn")
        check_rpn_settings(server.get("settings"), "kakoune: [rpn-lsp.settings]")
        section = server.get("settings_section")
        as_sent("kakoune: the settings_section", "initializationOptions",
                dig(server, "settings", section) if section else None, inner_only=True)

kak_highlighters = re.findall(r"^add-highlighter shared/rpn/code/(\w+) regex %\{(.*)\} ((?:\d:\w+ ?)+)$", kak, re.M)
kak_regexes = {kind: regex for kind, regex, _ in kak_highlighters}
kak_faces = {kind: faces.strip() for kind, _, faces in kak_highlighters}
kak_order = ["variable", "store", "definition", "function", "constant", "operator", "number", "check", "quantity",
             "quantity_check", "sexagesimal_quantity", "sexagesimal_quantity_check", "unit", "format", "keyword"]
# The kind of token each highlighter paints (a time or angle in a unit is a quantity, a format a
# unit word); the others paint the kind they are named after.
KAK_KIND = {"quantity_check": "quantity check", "sexagesimal_quantity": "quantity",
            "sexagesimal_quantity_check": "quantity check", "format": "unit"}
expect([kind for kind, _, _ in kak_highlighters], kak_order,
       "kakoune: one highlighter per kind of token, in this order (later ones paint over earlier ones)")
expect(kak_faces.get("check"), "1:operator 2:value", "kakoune: a check's `=` is an operator, its number a value")
expect(kak_faces.get("quantity"), "1:value 2:type", "kakoune: a quantity's number is a value, its unit a type")
expect(kak_faces.get("quantity_check"), "1:operator 2:value 3:type",
       "kakoune: a check of a quantity: its `=` an operator, its number a value, its unit a type")
expect(kak_faces.get("sexagesimal_quantity"), "1:value 2:type 3:value 4:type",
       "kakoune: a time or angle in a unit (two fields, or three): its fields a value, its unit a type")
expect(kak_faces.get("sexagesimal_quantity_check"), "1:operator 2:value 3:type 4:value 5:type",
       "kakoune: a check of a time or angle in a unit: its `=` an operator, its fields a value, its unit a type")
expect(kak_faces.get("unit"), "0:type", "kakoune: a unit word is a type")
expect(kak_faces.get("format"), "0:type", "kakoune: a format (`>h:mm`) is a type, as a unit word")
expect(kak_faces.get("definition"), "1:function", "kakoune: the name a definition defines is a function")
expect(kak_faces.get("keyword"), "0:keyword", "kakoune: a definition's `:` and `;` are keywords")
compiled = {}
for kind, regex in kak_regexes.items():
    try:
        compiled[kind] = re.compile(regex)
    except re.error as error:
        check(False, f"kakoune: the {kind} regex compiles", str(error))


def unit_start(token):
    """Where a quantity's unit starts: at its first `_` that no digit follows (`1_000_km`: `_km`)."""
    found = re.search(r"_(?![0-9])", token)
    return found.start() if found else -1


# The face each kind of token is drawn in, character by character (a check, a quantity and a
# check of a quantity in parts: the `=`, the number, the unit from its `_`).
KAK_FACE_OF_KIND = {"number": "value", "constant": "value", "unit": "type", "variable": "variable",
                    "store": "variable", "function": "function", "definition": "function",
                    "operator": "operator", "keyword": "keyword", None: None}


def kak_expected_faces(token, kind):
    if kind == "check":
        return ["operator"] + ["value"] * (len(token) - 1)
    if kind in ("quantity", "quantity check"):
        unit = unit_start(token)
        sign = 1 if kind == "quantity check" else 0
        return ["operator"] * sign + ["value"] * (unit - sign) + ["type"] * (len(token) - unit)
    return [KAK_FACE_OF_KIND[kind]] * len(token)


def kak_match_faces(name, match, length):
    """The faces highlighter `name` gives the characters of a match of `length` characters: each
    group its faces name, when it took part in the match (the groups of a time or angle in a unit
    are of two fields or of three)."""
    faces = [None] * length
    for face in kak_faces[name].split():
        group, face_name = face.split(":")
        if match.start(int(group)) >= 0:
            for i in range(match.start(int(group)), min(match.end(int(group)), length)):
                faces[i] = face_name
    return faces


def kak_painted(token):
    """The kind Kakoune paints a token alone on a line as. Later highlighters paint over earlier
    ones, as Kakoune draws them in order; a highlighter paints its kind when it takes the whole
    token and gives its characters that kind's faces: a check `=` and the number apart, a quantity
    its number and its unit (from its `_` on) apart, a check of a quantity all three."""
    line = token + "\n"
    painted = None
    for name in kak_order:
        match = compiled.get(name) and compiled[name].search(line)
        kind = KAK_KIND.get(name, name)
        if (match and match.start() == 0 and match.end() == len(token)
                and kak_match_faces(name, match, len(token)) == kak_expected_faces(token, kind)):
            painted = kind
    return painted


def kak_line(line):
    """The kind Kakoune paints each token of `line` (no comment) as: every highlighter paints the
    groups its faces name, in order, later ones over earlier ones; a token painted with two
    kinds is "mixed"."""
    painted = [None] * len(line)
    for name in kak_order:
        if name not in compiled:
            continue
        groups = [int(face.split(":")[0]) for face in kak_faces[name].split()]
        for match in compiled[name].finditer(line + "\n"):
            for group in groups:
                if match.start(group) >= 0:
                    for i in range(match.start(group), min(match.end(group), len(line))):
                        painted[i] = KAK_KIND.get(name, name)
    kinds = []
    for token in re.finditer(r"\S+", line):
        found = set(painted[token.start():token.end()])
        kinds.append(found.pop() if len(found) == 1 else "mixed: " + " ".join(map(str, found)))
    return kinds


for token, kind in TOKENS:
    expect(kak_painted(token), kind, f"kakoune: {token!r} is {kind or 'not highlighted'}")
for line, kinds in LINES:
    expect(kak_line(line), kinds, f"kakoune: {line!r}, token by token")
for token, kinds in TODAY.items():
    expect(kak_painted(token), kinds["kakoune"], f"kakoune: {token!r} is {kinds['kakoune']} (no check)")
# The regions highlighter starts the region whose opening match comes first, the first defined on a
# tie (Kakoune's RegionsHighlighter::find_next_begin): a heading's `#` opens both regions.
kak_regions = re.findall(r"^add-highlighter shared/rpn/(\w+) region '([^']*)' '([^']*)' fill (\w+)$", kak, re.M)
expect([(name, end, face) for name, _, end, face in kak_regions], [("heading", "$", "title"), ("comment", "$", "comment")],
       "kakoune: a heading region (face title) defined before the comment region, both to the line's end")


def kak_region(line):
    """The face of the region Kakoune opens first on `line`, and where: (face, column) or None.
    `\\h` (horizontal white space) is Python's white space but line endings."""
    first = None
    for _, begin, _, face in kak_regions:
        match = re.search(begin.replace(r"\h", r"[^\S\n\r\f\v]"), line)
        if match and (first is None or match.start() < first[1]):
            first = (face, match.start())
    return first


for line, kind in HEADINGS:
    want = ("title", 0) if kind == "heading" else ("comment", line.index("#"))
    expect(kak_region(line), want, f"kakoune: {line!r} is {'a heading (title)' if kind == 'heading' else 'a comment'}")
kak_number = kak_regexes.get("number", "").removeprefix(r"(?<!\S)").removesuffix(r"(?=[\s#])")
check_pattern_is_number(kak_regexes.get("check", ""), "(=)(" + kak_number + ")", "kakoune")
# A quantity's number is the number pattern without its `0x`, `0o` and `0b` integers and without
# its times and angles (`1:30`), which take only their own units; a check of a quantity is `=` and
# the quantity pattern.
KAK_INTEGER = "0(?:[xX][0-9A-Fa-f](?:_?[0-9A-Fa-f])*|[oO][0-7](?:_?[0-7])*|[bB][01](?:_?[01])*)|"
KAK_SEXAGESIMAL = r"\d+:[0-5]\d(?::[0-5]\d)?(?:\.\d*)?|"
kak_decimal = kak_number.replace(KAK_INTEGER + KAK_SEXAGESIMAL, "", 1)
kak_quantity = kak_regexes.get("quantity", "")
kak_quantity_unit = kak_quantity.removeprefix(r"(?<!\S)(" + kak_decimal + ")(").removesuffix(r")(?=[\s#])")
check(KAK_INTEGER + KAK_SEXAGESIMAL in kak_number and kak_quantity_unit.startswith("_")
      and kak_quantity == r"(?<!\S)(" + kak_decimal + ")(" + kak_quantity_unit + r")(?=[\s#])",
      "kakoune: the quantity pattern is the number pattern without its integers and times, then `_` and a unit",
      kak_quantity)
# A time or angle in a unit: two fields in h, min, ° or deg, or three in h, ° or deg, signed as
# numbers are; its check is `=` and the same.
KAK_SEXAGESIMAL_QUANTITY = (r"(?:([-+−]?\d+:[0-5]\d(?:\.\d*)?)(_(?:h|min|°|deg))"
                            r"|([-+−]?\d+:[0-5]\d:[0-5]\d(?:\.\d*)?)(_(?:h|°|deg)))")
expect(kak_regexes.get("sexagesimal_quantity"), r"(?<!\S)" + KAK_SEXAGESIMAL_QUANTITY + r"(?=[\s#])",
       "kakoune: the sexagesimal_quantity pattern is two fields in h, min, ° or deg, or three in h, ° or deg")
expect(kak_regexes.get("sexagesimal_quantity_check"), r"(?<!\S)(=)" + KAK_SEXAGESIMAL_QUANTITY + r"(?=[\s#])",
       "kakoune: the sexagesimal_quantity_check pattern is `=` and the sexagesimal_quantity pattern")
expect(kak_regexes.get("format"), r"(?<!\S)(?:>|->|→)(?:h:mm(?::ss)?|min:ss|(?:°|deg):mm(?::ss)?)(?=[\s#])",
       "kakoune: the format pattern is `>`, `->` or `→` and h:mm, h:mm:ss, min:ss, °:mm, °:mm:ss, deg:mm or deg:mm:ss")
expect(kak_regexes.get("quantity_check"), r"(?<!\S)(=)(" + kak_decimal + ")(" + kak_quantity_unit + r")(?=[\s#])",
       "kakoune: the quantity_check pattern is `=` and the quantity pattern")
expect(alternatives(kak_regexes.get("function", "")), BUILTIN_NAMED,
       "kakoune: the function regex names exactly the builtins' named operators")
expect(symbols_in(kak_regexes.get("operator", "")), BUILTIN_SYMBOLIC,
       "kakoune: the operator regex spells exactly the builtins' symbols")

# --- Vim (names only; Tests/Editors/vim runs the syntax in Vim) -------------------------------

print("== Vim (EditorConfigs/vim/syntax/rpn.vim, names only)")
vim_syntax = (CONFIGS / "vim/syntax/rpn.vim").read_text(encoding="utf-8")
vim_function = re.search(r'^syntax match rpnFunction "(.*)"$', vim_syntax, re.M)
vim_operator = re.search(r'^syntax match rpnOperator "(.*)"$', vim_syntax, re.M)
expect(alternatives(vim_function.group(1)) if vim_function else None, BUILTIN_NAMED,
       "vim: rpnFunction names exactly the builtins' named operators")
expect(symbols_in(vim_operator.group(1)) if vim_operator else None, BUILTIN_SYMBOLIC,
       "vim: rpnOperator spells exactly the builtins' symbols")
# A check's two groups (Tests/Editors/vim runs them): `=` then rpnNumber's literal, both whole-token.
vim_number = re.search(r'^syntax match rpnNumber "\\v\\S@<!(.*)\(\\s\|#\|\$\)@="$', vim_syntax, re.M)
vim_sign = re.search(r'^syntax match rpnCheckSign "(.*)" nextgroup=rpnCheckValue$', vim_syntax, re.M)
vim_value = re.search(r'^syntax match rpnCheckValue contained "(.*)"$', vim_syntax, re.M)
if check(vim_number and vim_sign and vim_value,
         "vim: rpnNumber, rpnCheckSign (nextgroup=rpnCheckValue) and a contained rpnCheckValue"):
    literal = vim_number.group(1)
    expect(vim_sign.group(1), r"\v\S@<!\=(" + literal + r"(\s|#|$))@=",
           "vim: rpnCheckSign is a `=` (after white space) that rpnNumber's literal follows to the token's end")
    expect(vim_value.group(1), r"\v" + literal + r"(\s|#|$)@=", "vim: rpnCheckValue is rpnNumber's literal")
    # Quantities (Tests/Editors/vim runs them): rpnNumber's literal without its integers and its
    # times and angles (which take only their own units), then the unit (rpnQuantityUnit, from its
    # `_`); in a check, the same after a second rpnCheckSign.
    vim_integer = "0%([xX][0-9A-Fa-f]%(_?[0-9A-Fa-f])*|[oO][0-7]%(_?[0-7])*|[bB][01]%(_?[01])*)|"
    vim_sexagesimal = r"\d+:[0-5]\d%(:[0-5]\d)?%(\.\d*)?|"
    check(vim_integer + vim_sexagesimal in literal,
          "vim: rpnNumber's literal has integers, then times and angles in fields of sixty (`1:30`, `1:30:15.5`)",
          literal)
    decimal = literal.replace(vim_integer + vim_sexagesimal, "", 1)
    vim_quantity = re.search(r'^syntax match rpnQuantity "(.*)" nextgroup=rpnQuantityUnit$', vim_syntax, re.M)
    vim_unit = re.search(r'^syntax match rpnQuantityUnit contained "\\v(_.*)\(\\s\|#\|\$\)@="$', vim_syntax, re.M)
    vim_quantity_sign = re.search(r'^syntax match rpnCheckSign "(.*)" nextgroup=rpnCheckQuantity$', vim_syntax, re.M)
    vim_check_quantity = re.search(r'^syntax match rpnCheckQuantity contained "(.*)" nextgroup=rpnQuantityUnit$',
                                   vim_syntax, re.M)
    if check(vim_integer in literal and vim_quantity and vim_unit and vim_quantity_sign and vim_check_quantity,
             "vim: rpnQuantity and rpnCheckQuantity (nextgroup=rpnQuantityUnit), a second rpnCheckSign"
             " (nextgroup=rpnCheckQuantity), and rpnQuantityUnit from a `_`"):
        unit = vim_unit.group(1)
        expect(vim_quantity.group(1), r"\v\S@<!" + decimal + "(" + unit + r"(\s|#|$))@=",
               "vim: rpnQuantity is rpnNumber's literal without its integers, that a unit follows to the token's end")
        expect(vim_quantity_sign.group(1), r"\v\S@<!\=(" + decimal + unit + r"(\s|#|$))@=",
               "vim: the second rpnCheckSign is a `=` that a quantity follows to the token's end")
        expect(vim_check_quantity.group(1), r"\v" + decimal + "(" + unit + r"(\s|#|$))@=",
               "vim: rpnCheckQuantity is rpnQuantity's number")
    # A time or angle in a unit (Tests/Editors/vim runs them): a second rpnQuantity and
    # rpnCheckQuantity, two fields that `_h`, `_min`, `_°` or `_deg` follows, or three that `_h`,
    # `_°` or `_deg` follows; its unit rpnQuantityUnit; in a check, after a third rpnCheckSign.
    minutes, seconds = r"\d+:[0-5]\d%(\.\d*)?", r"\d+:[0-5]\d:[0-5]\d%(\.\d*)?"
    in_minutes, in_seconds = "_%(h|min|°|deg)", "_%(h|°|deg)"
    fields = (r"[-+−]?%(" + minutes + "(" + in_minutes + r"(\s|#|$))@=|"
              + seconds + "(" + in_seconds + r"(\s|#|$))@=)")
    expect(re.findall(r'^syntax match rpnQuantity "(.*)" nextgroup=rpnQuantityUnit$', vim_syntax, re.M)[1:],
           [r"\v\S@<!" + fields], "vim: the second rpnQuantity is a time or angle in a unit (`4:35_min`, `48:46:32_°`)")
    expect(re.findall(r'^syntax match rpnCheckQuantity contained "(.*)" nextgroup=rpnQuantityUnit$', vim_syntax,
                      re.M)[1:],
           [r"\v" + fields], "vim: the second rpnCheckQuantity is the same, in a check (`=4:35_min`)")
    expect(re.findall(r'^syntax match rpnCheckSign "(.*)" nextgroup=rpnCheckQuantity$', vim_syntax, re.M)[1:],
           [r"\v\S@<!\=([-+−]?%(" + minutes + in_minutes + "|" + seconds + in_seconds + r")(\s|#|$))@="],
           "vim: the third rpnCheckSign is a `=` that a time or angle in a unit follows to the token's end")
    expect(re.findall(r'^syntax match rpnUnit "(.*)"$', vim_syntax, re.M)[1:],
           [r"\v\S@<!%([>]|-[>]|→)%(h:mm%(:ss)?|min:ss|%(°|deg):mm%(:ss)?)(\s|#|$)@="],
           "vim: the second rpnUnit is a format (`>h:mm`, `->min:ss`, `→°:mm:ss`), as a unit word")
check(re.search(r'^syntax match rpnHeading "\^\\s\*##\.\*\$" contains=rpnTodo,@Spell$', vim_syntax, re.M),
      "vim: rpnHeading is a line of white space and a comment starting with `##`")
for group, link in [("rpnHeading", "Title"), ("rpnCheckSign", "Operator"), ("rpnCheckValue", "Number"), ("rpnStore", "Identifier"),
                    ("rpnDefinition", "Keyword"), ("rpnWordName", "Function"), ("rpnQuantity", "Number"),
                    ("rpnCheckQuantity", "Number"), ("rpnQuantityUnit", "Type"), ("rpnUnit", "Type")]:
    check(re.search(rf"^highlight default link {group} {link}$", vim_syntax, re.M), f"vim: {group} is linked to {link}")

# --- Sublime Text -----------------------------------------------------------------------------

print("== Sublime Text (EditorConfigs/sublime)")
for name in ["LanguageServers.sublime-settings", "LSP.sublime-settings"]:
    settings = load(f"sublime/{name}", jsonc, CONFIGS / "sublime" / name)
    if settings is None:
        continue
    client = settings.get("rpn-lsp") if name.startswith("LanguageServers") else dig(settings, "clients", "rpn-lsp")
    if not check(isinstance(client, dict), f"sublime/{name}: an rpn-lsp server configuration"):
        continue
    expect(client.get("enabled"), True, f"sublime/{name}: enabled")
    expect(client.get("command"), ["rpn-lsp", "--stdio"], f"sublime/{name}: command is rpn-lsp --stdio")
    expect(client.get("selector"), "source.rpn", f"sublime/{name}: selector is source.rpn")
    check_rpn_settings(client.get("settings"), f"sublime/{name}")
    as_sent(f"sublime/{name}: settings", "didChangeConfiguration", client.get("settings"))
    if name == "LSP.sublime-settings":
        expect(settings.get("show_inlay_hints"), True, "sublime: show_inlay_hints is true")
        expect(settings.get("semantic_highlighting"), True, "sublime: semantic_highlighting is true")

preferences = load("sublime/RPN-Comments.tmPreferences", lambda text: plistlib.loads(text.encode("utf-8")),
                   CONFIGS / "sublime/RPN-Comments.tmPreferences")
if preferences is not None:
    expect(preferences.get("scope"), "source.rpn", "sublime: comment preferences apply to source.rpn")
    variables = {entry.get("name"): entry.get("value") for entry in dig(preferences, "settings", "shellVariables") or []}
    expect(variables.get("TM_COMMENT_START"), "# ", "sublime: toggling comments uses \"# \"")


def letter_class_body(category="L"):
    """The code points of a general category (L: what Oniguruma's `\\p{L}` matches; M: `\\p{M}`),
    as the inside of a character class."""
    import unicodedata
    ranges = []
    start = previous = None
    for code in range(sys.maxunicode + 1):
        if unicodedata.category(chr(code)).startswith(category):
            if start is None:
                start = code
            elif code != previous + 1:
                ranges.append((start, previous))
                start = code
            previous = code
    ranges.append((start, previous))
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)


LETTERS = letter_class_body()
MARKS = letter_class_body("M")


def python_regex(oniguruma):
    """The syntax's regexes in Python's spelling: Python's `re` has no `\\p{L}` or `\\p{M}`, so they
    are spelt out, inside a class (`[\\p{L}0-9_]`, `[\\p{L}\\p{M}$]`) and alone (`\\p{L}+`)."""
    inside = oniguruma.replace(r"\p{M}", MARKS)
    return inside.replace(r"[\p{L}", "[" + LETTERS).replace(r"\p{L}", "[" + LETTERS + "]")


syntax = load("sublime/RPN.sublime-syntax", yaml.safe_load, CONFIGS / "sublime/RPN.sublime-syntax")
rules = []
if syntax is not None:
    expect(syntax.get("scope"), "source.rpn", "sublime: the syntax's scope is source.rpn")
    expect(syntax.get("file_extensions"), ["rpn"], "sublime: the syntax is for .rpn files")
    variables = syntax.get("variables", {})

    def expand(text, depth=0):
        if depth > 10:
            raise ValueError("variables nest too deep")
        return re.sub(r"\{\{(\w+)\}\}", lambda m: expand(variables[m.group(1)], depth + 1), text)

    regex_errors = []
    for context_name, context in syntax.get("contexts", {}).items():
        for rule in context:
            if "match" not in rule:
                continue
            try:
                regex = re.compile(python_regex(expand(rule["match"])))
            except (re.error, KeyError, ValueError) as error:
                regex_errors.append(f"{context_name}: {rule['match']!r}: {error}")
                continue
            if context_name == "main":
                rules.append((regex, rule))
    check(not regex_errors, "sublime: every match regex compiles (Python re)", "; ".join(regex_errors))
    expect(alternatives(variables.get("builtin", "")), BUILTIN_NAMED,
           "sublime: the builtin variable names exactly the builtins' named operators")
    check_rules = [rule for rule in syntax["contexts"]["main"] if rule.get("scope") == "meta.check.rpn"]
    numeric, unit_scope = "constant.numeric.rpn", "support.type.unit.rpn"
    expect([(rule["match"], rule.get("captures")) for rule in check_rules],
           [("{{start}}(=)({{number}}){{end}}", {1: "keyword.operator.check.rpn", 2: numeric}),
            ("{{start}}(=)({{decimal}})({{quantity_unit}}){{end}}",
             {1: "keyword.operator.check.rpn", 2: numeric, 3: unit_scope}),
            ("{{start}}(=)(?:{{sexagesimal_quantity}}){{end}}",
             {1: "keyword.operator.check.rpn", 2: numeric, 3: unit_scope, 4: numeric, 5: unit_scope})],
           "sublime: three check rules, `=` then {{number}}, `=` then a quantity, and `=` then a time or angle in a"
           " unit: meta.check, keyword.operator.check, constant.numeric (and support.type.unit)")
    quantity_rules = [(rule["match"], rule.get("captures")) for rule in syntax["contexts"]["main"]
                      if rule.get("scope") == "meta.quantity.rpn"]
    expect(quantity_rules, [("{{start}}({{decimal}})({{quantity_unit}}){{end}}", {1: numeric, 2: unit_scope}),
                            ("{{start}}(?:{{sexagesimal_quantity}}){{end}}",
                             {1: numeric, 2: unit_scope, 3: numeric, 4: unit_scope})],
           "sublime: two quantity rules, {{decimal}} then {{quantity_unit}}, and a time or angle in a unit"
           " ({{sexagesimal_quantity}}): meta.quantity, constant.numeric, support.type.unit")
    expect((variables.get("number"), variables.get("decimal")),
           ("[-+−]?(?:{{integer}}|{{sexagesimal}}|{{unsigned}})", "[-+−]?{{unsigned}}"),
           "sublime: {{number}} is an integer, a time or angle, or a decimal; a quantity's number ({{decimal}}) is"
           " {{number}} without its integers and times (which take only their own units)")
    minutes = "[-+−]?[0-9]+:[0-5][0-9](?:\\.[0-9]*)?"
    seconds = "[-+−]?[0-9]+:[0-5][0-9]:[0-5][0-9](?:\\.[0-9]*)?"
    expect((variables.get("sexagesimal"), variables.get("sexagesimal_quantity")),
           ("[0-9]+:[0-5][0-9](?::[0-5][0-9])?(?:\\.[0-9]*)?",
            f"({minutes})(_(?:h|min|°|deg))|({seconds})(_(?:h|°|deg))"),
           "sublime: {{sexagesimal}} is digits, then `:` and 00 to 59 once or twice, a fraction last;"
           " {{sexagesimal_quantity}} is two fields in h, min, ° or deg, or three in h, ° or deg")
    format_rules = [rule for rule in syntax["contexts"]["main"] if "{{sexagesimal_format}}" in rule.get("match", "")]
    expect([(rule["match"], rule.get("scope")) for rule in format_rules],
           [("{{start}}(?:>|->|→){{sexagesimal_format}}{{end}}", unit_scope)],
           "sublime: one format rule, `>`, `->` or `→` then {{sexagesimal_format}}: support.type.unit, as a unit word")
    expect(variables.get("sexagesimal_format"), "(?:h:mm(?::ss)?|min:ss|(?:°|deg):mm(?::ss)?)",
           "sublime: {{sexagesimal_format}} is h:mm, h:mm:ss, min:ss, °:mm, °:mm:ss, deg:mm or deg:mm:ss")
    operator_rules = [rule["match"] for rule in syntax["contexts"]["main"]
                      if rule.get("scope") == "keyword.operator.arithmetic.rpn"]
    expect(symbols_in(operator_rules[0]) if operator_rules else None, BUILTIN_SYMBOLIC,
           "sublime: the operator rule spells exactly the builtins' symbols")


def sublime_scopes(line):
    """The scopes at each character of one line, as Sublime would give them with this syntax:
    in `main`, the rule whose match starts first wins, ties go to the earlier rule; `#` pushes
    the comment context, which runs to the end of the line."""
    scopes = [["source.rpn"] for _ in line]
    position = 0
    while position < len(line):
        best = None
        for regex, rule in rules:
            match = regex.search(line, position)
            if match and (best is None or match.start() < best[0].start()):
                best = (match, rule)
        if best is None:
            break
        match, rule = best
        if rule.get("push") == "comment":
            for i in range(match.start(), len(line)):
                scopes[i].append("comment.line.number-sign.rpn")
            for i in range(match.start(), match.end()):
                scopes[i].append(rule["scope"])
            break
        if "scope" in rule:
            for i in range(match.start(), match.end()):
                scopes[i].extend(rule["scope"].split())
        for group, scope in rule.get("captures", {}).items():
            for i in range(match.start(int(group)), match.end(int(group))):
                scopes[i].extend(scope.split())
        position = max(match.end(), position + 1)
    return scopes


def selector_matches(selector, scopes):
    """Sublime selectors as the test uses them: `a.b c.d - e - f` (prefix match on dotted parts)."""
    def has(scope_names):
        names = scope_names.split()
        k = 0
        for scope in scopes:
            if k < len(names) and (scope == names[k] or scope.startswith(names[k] + ".")):
                k += 1
        return k == len(names)

    parts = [part.strip() for part in re.split(r"(?:^|\s)-\s", " " + selector)]
    wanted, excluded = parts[0], parts[1:]
    return (not wanted or has(wanted)) and not any(has(part) for part in excluded if part)


if rules:
    test_file = CONFIGS / "sublime/syntax_test_rpn.rpn"
    lines = test_file.read_text(encoding="utf-8").split("\n")
    expect(lines[0], '# SYNTAX TEST "Packages/User/RPN.sublime-syntax"', "sublime: syntax test header")
    assertion = re.compile(r"^#(\s*)(<-|\^+)\s*(.*)$")
    subject = None
    count = 0
    problems = []
    for number, line in enumerate(lines[1:], start=2):
        found = assertion.match(line)
        if not found:
            subject = line
            continue
        count += 1
        if found.group(2) == "<-":
            columns = [0]
        else:
            start = 1 + len(found.group(1))
            columns = range(start, start + len(found.group(2)))
        scopes = sublime_scopes(subject)
        for column in columns:
            if column >= len(subject) or not selector_matches(found.group(3), scopes[column]):
                got = scopes[column] if column < len(subject) else "past the end"
                problems.append(f"line {number} column {column} ({subject[column:column + 1]!r}): "
                                f"wanted {found.group(3)!r}, got {got}")
    check(count > 50 and not problems, f"sublime: syntax_test_rpn.rpn, {count} assertions", "; ".join(problems))
    # The kind of a whole token: one scope over all of it, or `=` then a declared name.
    kinds = {("constant.numeric.rpn",): "number", ("keyword.operator.arithmetic.rpn",): "operator",
             ("support.function.builtin.rpn",): "function", ("constant.language.rpn",): "constant",
             ("variable.other.rpn",): "variable",
             ("keyword.operator.assignment.rpn", "entity.name.variable.rpn"): "store",
             ("keyword.operator.check.rpn", "constant.numeric.rpn"): "check",
             ("invalid.illegal.reserved-name.rpn",): "reserved",
             ("keyword.declaration.function.rpn",): "keyword", ("entity.name.function.rpn",): "definition",
             ("support.type.unit.rpn",): "unit", ("constant.numeric.rpn", "support.type.unit.rpn"): "quantity",
             ("keyword.operator.check.rpn", "constant.numeric.rpn", "support.type.unit.rpn"): "quantity check"}

    def sublime_kind(token, line=None, start=0):
        """The kind of `token`, alone on a line or at `start` in `line`."""
        scopes_of = sublime_scopes(line if line is not None else token)[start:start + len(token)]
        innermost = []
        for scopes in scopes_of:
            if not innermost or innermost[-1] != scopes[-1]:
                innermost.append(scopes[-1])
        kind = kinds.get(tuple(innermost))
        if kind in ("check", "quantity check") and not all("meta.check.rpn" in s for s in scopes_of):
            return innermost  # a check must be meta.check.rpn all through
        if kind == "quantity" and not all("meta.quantity.rpn" in s for s in scopes_of):
            return innermost  # a quantity must be meta.quantity.rpn all through
        if kind in ("quantity", "quantity check") and [s[-1] for s in scopes_of].index("support.type.unit.rpn") != unit_start(token):
            return innermost  # the unit starts at its `_`
        return kinds.get(tuple(innermost), None if innermost == ["source.rpn"] else innermost)

    for token, kind in TOKENS:
        expect(sublime_kind(token), kind, f"sublime: {token!r} is {kind or 'not highlighted'}")
    for line, want in LINES:
        got = [sublime_kind(token.group(), line, token.start()) for token in re.finditer(r"\S+", line)]
        expect(got, want, f"sublime: {line!r}, token by token")
    for token, today in TODAY.items():
        expect(sublime_kind(token), today["sublime"], f"sublime: {token!r} is {today['sublime']} (no check)")
    for line, kind in HEADINGS:
        mark = line.index("#")
        scopes = sublime_scopes(line)
        got = ("heading" if "markup.heading.rpn" in scopes[mark] and "comment.line.number-sign.rpn" in scopes[mark]
               and all("markup.heading.rpn" in scopes[i] for i in range(mark, len(line.rstrip())))
               else "comment" if "comment.line.number-sign.rpn" in scopes[mark] else scopes[mark])
        expect(got, kind, f"sublime: {line!r} is {'a heading (a comment and a markup.heading)' if kind == 'heading' else 'a plain comment'}")

# --- Zed --------------------------------------------------------------------------------------

print("== Zed (EditorConfigs/zed; written, not built)")
extension = load("zed/extension.toml", tomllib.loads, CONFIGS / "zed/extension.toml")
if extension is not None:
    for key in ["id", "name", "version", "description", "authors", "repository"]:
        check(key in extension, f"zed: extension.toml has {key}")
    expect(extension.get("schema_version"), 1, "zed: schema_version is 1")
    server = dig(extension, "language_servers", "rpn-lsp") or {}
    expect(server.get("languages"), ["RPN"], "zed: [language_servers.rpn-lsp] serves the RPN language")
    expect(server.get("language_ids"), {"RPN": "rpn"}, "zed: the languageId sent is rpn")
    check("grammars" not in extension, "zed: no [grammars] table (none exists yet; the README says so)")
language = load("zed/languages/rpn/config.toml", tomllib.loads, CONFIGS / "zed/languages/rpn/config.toml")
if language is not None:
    expect(language.get("name"), "RPN", "zed: the language is named RPN (as extension.toml says)")
    expect(language.get("path_suffixes"), ["rpn"], "zed: path_suffixes is [\"rpn\"]")
    expect(language.get("line_comments"), ["# "], "zed: line_comments is [\"# \"]")
    check("grammar" in language, "zed: grammar is set (Zed requires it)")
cargo = load("zed/Cargo.toml", tomllib.loads, CONFIGS / "zed/Cargo.toml")
if cargo is not None:
    expect(dig(cargo, "lib", "crate-type"), ["cdylib"], "zed: Cargo.toml builds a cdylib (WASM)")
    check("zed_extension_api" in (cargo.get("dependencies") or {}), "zed: Cargo.toml depends on zed_extension_api")
lib = (CONFIGS / "zed/src/lib.rs").read_text(encoding="utf-8")
for needle in ["impl zed::Extension for", "fn language_server_command(", "zed::register_extension!("]:
    check(needle in lib, f"zed: src/lib.rs has `{needle}`")
check(lib.count("{") == lib.count("}") and lib.count("(") == lib.count(")"), "zed: src/lib.rs brackets balance")
zed_settings = load("zed/settings.json", jsonc, CONFIGS / "zed/settings.json")
if zed_settings is not None:
    expect(dig(zed_settings, "languages", "RPN", "inlay_hints", "enabled"), True,
           "zed: settings.json turns inlay hints on for RPN")
    check_rpn_settings(dig(zed_settings, "lsp", "rpn-lsp", "initialization_options"), "zed: settings.json")
    as_sent("zed: initialization_options", "initializationOptions",
            dig(zed_settings, "lsp", "rpn-lsp", "initialization_options"))

# --- JetBrains (LSP4IJ) -----------------------------------------------------------------------

print("== JetBrains + LSP4IJ (EditorConfigs/jetbrains)")
template = load("jetbrains/rpn-lsp/template.json", json.loads, CONFIGS / "jetbrains/rpn-lsp/template.json")
if template is not None:
    expect(template.get("name"), "rpn-lsp", "jetbrains: the template's server is named rpn-lsp")
    expect(dig(template, "programArgs", "default"), "rpn-lsp --stdio", "jetbrains: the command is rpn-lsp --stdio")
    mappings = template.get("fileTypeMappings") or [{}]
    expect(dig(mappings[0], "fileType", "patterns"), ["*.rpn"], "jetbrains: mapped to *.rpn")
    expect(mappings[0].get("languageId"), "rpn", "jetbrains: language id rpn")
options = load("jetbrains/rpn-lsp/initializationOptions.json", json.loads,
               CONFIGS / "jetbrains/rpn-lsp/initializationOptions.json")
if options is not None:
    check_rpn_settings(options, "jetbrains: initializationOptions.json")
    as_sent("jetbrains: initializationOptions.json", "initializationOptions", options)

# --- READMEs ----------------------------------------------------------------------------------

print("== READMEs")
for editor in ["vim", "helix", "kakoune", "sublime", "zed", "jetbrains"]:
    readme = CONFIGS / editor / "README.md"
    text = readme.read_text(encoding="utf-8") if readme.exists() else ""
    check(re.search(r"^## Install", text, re.M) and re.search(r"^## What you get", text, re.M)
          and re.search(r"^## Inlay hints", text, re.M),
          f"{editor}/README.md has Install, What you get and Inlay hints sections")
for editor in ["vim", "helix", "kakoune", "sublime", "zed", "jetbrains", "neovim", "emacs", "vscode"]:
    readme = CONFIGS / editor / "README.md"
    text = readme.read_text(encoding="utf-8") if readme.exists() else ""
    check("`## Groceries`" in text and "Σ 20.5 · 2 values · avg 10.25" in text,
          f"{editor}/README.md says what the editor shows of sections (`## Groceries`, its summary)")
    missing = [word for word in ("notation", "decimals", "grouping", "engineering") if word not in text]
    check(not missing, f"{editor}/README.md lists the display settings (notation, decimals, grouping)",
          f"missing {missing}")
    missing = [piece for piece in ("position", "endOfLine", "# rpn: hints=endOfLine") if piece not in text]
    check(not missing, f"{editor}/README.md says where hints go (inlayHints.position, a tape's # rpn: hints=)",
          f"missing {missing}")

# What a new user reads first. No file under EditorConfigs cites a document users never see.
cited = [str(path.relative_to(CONFIGS)) for path in sorted(CONFIGS.rglob("*")) if path.is_file()
         and re.search(r"\bSPEC\b", path.read_text(encoding="utf-8", errors="replace"))]
check(not cited, "no file under EditorConfigs cites SPEC (say it, or name a section of README.md)",
      f"in {cited}")


def readme_of(editor):
    path = CONFIGS / editor / "README.md"
    return path.read_text(encoding="utf-8") if path.exists() else ""


def check_says(editor, pieces, what):
    text = readme_of(editor)
    missing = [piece for piece in pieces if piece not in text]
    check(not missing, f"{editor}/README.md {what}", f"missing {missing}")


check_says("kakoune", ["https://github.com/kakoune-lsp/kakoune-lsp", "18.0.0", "`lsp_servers`"],
           "names kakoune-lsp's source and the version it needs (18.0.0: the `lsp_servers` option)")
check_says("kakoune", ["~/.config/kak/autoload", "/usr/share/kak/autoload"],
           "names the autoload folders (~/.config/kak/autoload/, and Debian's /usr/share/kak/autoload)")
check("https://github.com/kakoune-lsp/kakoune-lsp" in kak and "/usr/share/kak/autoload" in kak,
      "kakoune/rpn.kak's header names kakoune-lsp's source and Debian's autoload folder")
check_says("vim", ["source $VIMRUNTIME/defaults.vim", "unlet! skip_defaults_vim", "`/*%s*/`"],
           "gives a new vimrc the lines that turn filetype plugins and syntax on (defaults.vim)")
check(re.search(r"setlocal commentstring=#\\ %s", (CONFIGS / "vim/ftplugin/rpn.vim").read_text(encoding="utf-8")),
      "vim/ftplugin/rpn.vim sets commentstring=#\\ %s")
check_says("vim", ["UTF-32", "one character short", "vim-lsp draws an inlay hint at the wrong column"],
           "says what stays the plugins' own (yegappan's UTF-16 conversion and hint range, vim-lsp's hint column)")
check_says("emacs", ["M-x package-install RET eglot RET", "elpa-eglot", "Emacs 28"],
           "says how to install eglot on Emacs 28 (GNU ELPA, or Debian's elpa-eglot)")
check("(require 'eglot nil t)" in (CONFIGS / "emacs/rpn-eglot.el").read_text(encoding="utf-8"),
      "emacs/rpn-eglot.el loads eglot softly, (require 'eglot nil t), so a missing eglot is no error")
neovim_blocks = re.findall(r"^```lua\n(.*?)^```$", readme_of("neovim"), re.S | re.M)
check(sum("rpn_lsp_init_options" in block for block in neovim_blocks) == 1
      and "after the config" not in readme_of("neovim"),
      "neovim/README.md sets options and settings in one init.lua block, nothing \"after the config\"",
      f"{sum('rpn_lsp_init_options' in block for block in neovim_blocks)} blocks set vim.g.rpn_lsp_init_options")

# --- Kakoune itself, where it is installed ------------------------------------------------------


def kakoune_readme_install():
    """Step 4 of kakoune/README.md's Install (its ```sh block) in an empty home, then the sample
    opened in Kakoune with no UI: rpn.kak loads from ~/.config/kak/autoload/, beside Kakoune's own
    scripts (linked from Debian's /usr/share/kak/autoload), and sets the filetype and comments."""
    import shutil
    import tempfile
    kak_binary = shutil.which("kak")
    if kak_binary is None or not Path("/usr/share/kak/autoload").is_dir():
        print("  skip  Kakoune is not installed (Debian's kakoune): rpn.kak is not loaded in Kakoune")
        return
    block = re.search(r"^ *```sh\n(.*?)^ *```$", readme_of("kakoune"), re.S | re.M)
    if not check(block, "kakoune/README.md has a ```sh block of install commands"):
        return
    steps = "\n".join(line.strip() for line in block.group(1).splitlines())
    with tempfile.TemporaryDirectory(prefix="rpn-kak-") as scratch:
        home = Path(scratch) / "home"
        tape = Path(scratch) / "tape"
        home.mkdir()
        tape.mkdir()
        env = {key: value for key, value in os.environ.items() if key not in ("XDG_CONFIG_HOME", "KAKOUNE_CONFIG_DIR")}
        env["HOME"] = str(home)
        installed = subprocess.run(["sh", "-e", "-c", steps], cwd=REPO, env=env, capture_output=True, text=True)
        if not check(installed.returncode == 0, "kakoune: the README's install commands run in an empty home",
                     installed.stderr.strip()):
            return
        (tape / "sample.rpn").write_bytes((CONFIGS / "sample.rpn").read_bytes())
        (tape / "x.sh").write_text("echo hi\n")
        out = Path(scratch) / "out"
        commands = (f'echo -to-file {out}.rpn "%opt{{filetype}}|%opt{{comment_line}}"; edit x.sh; '
                    f"echo -to-file {out}.sh %opt{{filetype}}; buffer *debug*; write -force {out}.debug; quit!")
        try:
            ran = subprocess.run([kak_binary, "-ui", "dummy", "-e", commands, "sample.rpn"], cwd=tape, env=env,
                                 capture_output=True, text=True, timeout=30)
            status = ran.returncode
        except subprocess.TimeoutExpired:
            status = "timed out"
        version = subprocess.run([kak_binary, "-version"], capture_output=True, text=True).stdout.strip()
        if version.endswith("unknown") and shutil.which("dpkg-query"):  # Debian's build says "Kakoune unknown"
            version = "Kakoune " + subprocess.run(["dpkg-query", "-W", "-f=${Version}", "kakoune"],
                                                  capture_output=True, text=True).stdout.strip()

        def read(suffix):
            path = Path(f"{out}{suffix}")
            return path.read_text(encoding="utf-8", errors="replace") if path.exists() else None

        expect(read(".rpn"), "rpn|#", f"kakoune ({version}): the sample gets filetype rpn and comment_line # (status {status})")
        expect(read(".sh"), "sh", "kakoune: Kakoune's own scripts load too (x.sh gets filetype sh): the link works")
        debug = read(".debug") or ""
        problems = [line for line in debug.splitlines() if "rpn" in line or "could not load" in line]
        check(not problems, "kakoune: no error from rpn.kak in the *debug* buffer", "; ".join(problems))


print("== Kakoune, installed as kakoune/README.md says")
kakoune_readme_install()

# --- Kakoune's own regex engine, where it is installed ---------------------------------------

def kakoune_draws():
    """The token table (TOKENS, TODAY) and LINES drawn by Kakoune itself (`-ui json`) with
    rpn.kak: each token's face, character by character, against what the regexes above say.
    Each face gets a colour of its own, so that the drawn colours name the faces."""
    import shutil
    import tempfile
    import threading
    kak_binary = shutil.which("kak")
    if kak_binary is None or not Path("/usr/share/kak/autoload").is_dir():
        print("  skip  Kakoune is not installed (Debian's kakoune): the highlighters are not run by Kakoune")
        return
    faces = ["value", "type", "operator", "variable", "function", "keyword", "comment", "title"]
    colour = {f"rgb:1000{n:02d}": face for n, face in enumerate(faces)}
    cases = [(token, kak_expected_faces(token, kind)) for token, kind in TOKENS]
    cases += [(token, kak_expected_faces(token, kinds["kakoune"])) for token, kinds in TODAY.items()]
    for line, kinds in LINES:
        line = line.replace("\t", " ")  # Kakoune draws a tab as spaces
        tokens = list(re.finditer(r"\S+", line))
        if len(tokens) == len(kinds):
            want = [None] * len(line)  # white space: no face
            for token, kind in zip(tokens, kinds):
                want[token.start():token.end()] = kak_expected_faces(token.group(), kind)
            cases.append((line, want))
    with tempfile.TemporaryDirectory(prefix="rpn-kak-draw-") as scratch:
        tape = Path(scratch) / "tokens.rpn"
        # The first line stays empty: the cursor, drawn in a face of its own, rests there.
        tape.write_text("\n" + "\n".join(text for text, _ in cases) + "\n", encoding="utf-8")
        env = {key: value for key, value in os.environ.items() if key not in ("KAKOUNE_CONFIG_DIR",)}
        env["HOME"] = scratch
        env["XDG_CONFIG_HOME"] = str(Path(scratch) / "config")  # none: Kakoune's own autoload folder
        env.pop("DISPLAY", None)
        set_faces = "; ".join(f"set-face global {face} {rgb}" for rgb, face in colour.items())
        commands = f"source {CONFIGS / 'kakoune/rpn.kak'}; {set_faces}; edit! {tape}"
        process = subprocess.Popen([kak_binary, "-ui", "json", "-e", commands], cwd=scratch, env=env,
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        rows = len(cases) + 3

        def send(method, params):
            process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}).encode() + b"\n")
            process.stdin.flush()

        timer = threading.Timer(30, process.kill)
        timer.start()
        drawn = None
        resized = False
        try:
            send("resize", [rows, 240])
            for raw in process.stdout:
                message = json.loads(raw)
                if message.get("method") != "draw":
                    continue
                lines = message["params"][0]
                texts = ["".join(atom["contents"] for atom in line).rstrip("\n") for line in lines]
                if len(texts) > len(cases) and texts[1:len(cases) + 1] == [text for text, _ in cases]:
                    drawn = lines
                    send("keys", [":quit!<ret>"])
                    break
                if not resized:  # a size sent before the client is up is not kept: again, after its first draw
                    send("resize", [rows, 240])
                    resized = True
        finally:
            timer.cancel()
            try:
                process.stdin.close()
            except OSError:
                pass
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        version = subprocess.run([kak_binary, "-version"], capture_output=True, text=True).stdout.strip()
        if version.endswith("unknown") and shutil.which("dpkg-query"):
            version = "Kakoune " + subprocess.run(["dpkg-query", "-W", "-f=${Version}", "kakoune"],
                                                  capture_output=True, text=True).stdout.strip()
        if not check(drawn is not None, f"kakoune ({version}): draws the token table with rpn.kak (-ui json)",
                     "no draw of the whole buffer before the time ran out"):
            return
        wrong = []
        for (text, want), line in zip(cases, drawn[1:]):
            got = []
            for atom in line:
                face = colour.get(atom["face"]["fg"])
                got += [face] * len(atom["contents"].rstrip("\n"))
            if got != want:
                wrong.append(f"{text!r}: drew {got}, wanted {want}")
        check(not wrong, f"kakoune ({version}): its own regex engine paints {len(cases)} tokens and lines as the"
              " table says (quantities, unit words and checks too)", "; ".join(wrong[:10]))


print("== Kakoune's own regex engine, drawing the token table")
kakoune_draws()

# --- The token table against the lexer: the server's semantic tokens and diagnostics -------------

# Rows of TOKENS whose unit the grammars colour but the unit table lacks: only the server can know
# (it reports unknown-unit), so the server's word for them is that diagnostic.
UNKNOWN_UNITS = {"_tmp"}
# What the lexer says of a token written wrongly: an error over the token (the grammars paint none).
LEXICAL_ERRORS = {"invalid-number", "invalid-unit", "invalid-name", "unknown-word"}


def utf16_length(text):
    return len(text.encode("utf-16-le")) // 2


def server_tokens(lines):
    """The server's view of a tape of `lines`: for each line, its semantic tokens as (text, type,
    readonly) and the codes of the diagnostics over exactly its first token, by severity
    ({"error": {...}, "other": {...}}); None when the server gave no semantic tokens."""
    uri = "file:///token-table.rpn"
    text = "\n".join(lines) + "\n"
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "rpn", "version": 1, "text": text}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/semanticTokens/full",
         "params": {"textDocument": {"uri": uri}}},
        {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"}]
    stdin = b"".join(b"Content-Length: %d\r\n\r\n" % len(body) + body
                     for body in (json.dumps(message).encode() for message in messages))
    stdout = subprocess.run([str(SERVER), "--stdio"], input=stdin, capture_output=True, timeout=60).stdout
    legend = data = None
    diagnostics = []
    for header in re.finditer(rb"Content-Length: (\d+)\r\n\r\n", stdout):
        body = json.loads(stdout[header.end():header.end() + int(header.group(1))])
        if body.get("id") == 1:
            legend = dig(body, "result", "capabilities", "semanticTokensProvider", "legend")
        elif body.get("id") == 2:
            data = dig(body, "result", "data")
        elif body.get("method") == "textDocument/publishDiagnostics" and dig(body, "params", "uri") == uri:
            diagnostics = body["params"]["diagnostics"]
    if legend is None or data is None:
        return None
    tokens = [[] for _ in lines]
    line = column = 0
    for k in range(0, len(data), 5):
        d_line, d_column, length, kind, modifiers = data[k:k + 5]
        line += d_line
        column = column + d_column if d_line == 0 else d_column
        units = lines[line].encode("utf-16-le")
        piece = units[2 * column:2 * (column + length)].decode("utf-16-le")
        readonly = bool(modifiers >> legend["tokenModifiers"].index("readonly") & 1)
        tokens[line].append((piece, legend["tokenTypes"][kind], readonly))
    codes = [{"error": set(), "other": set()} for _ in lines]
    for diagnostic in diagnostics:
        start, end = diagnostic["range"]["start"], diagnostic["range"]["end"]
        n = start["line"]
        first = lines[n].split()[0] if n < len(lines) and lines[n].split() else ""
        if (end["line"] == n and start["character"] == 0 and end["character"] == utf16_length(first)):
            codes[n]["error" if diagnostic.get("severity") == 1 else "other"].add(diagnostic.get("code"))
    return list(zip(tokens, codes))


def lexer_tokens(token, kind):
    """The semantic tokens the server must give a token the table paints as `kind`: a check's `=`
    an operator, a quantity's number a number and its unit (after its `_`) a type, a constant a
    read-only variable; None for a kind the table does not hold to the lexer."""
    unit = unit_start(token)
    return {
        "number": [(token, "number", False)],
        "check": [("=", "operator", False), (token[1:], "number", False)],
        "quantity": [(token[:unit], "number", False), (token[unit + 1:], "type", False)],
        "quantity check": [("=", "operator", False), (token[1:unit], "number", False),
                           (token[unit + 1:], "type", False)],
        "unit": [(token, "type", False)], "operator": [(token, "operator", False)],
        "function": [(token, "function", False)], "keyword": [(token, "keyword", False)],
        "constant": [(token, "variable", True)], "store": [(token, "variable", False)],
        "variable": [(token, "variable", False)],
    }.get(kind)


def check_token_table_against_the_lexer():
    """Each token of TOKENS alone on a line of one tape, after a store of every name the table
    holds (so that the server knows them as variables): what the grammars paint it as must be what
    the server's semantic tokens say (a token the grammars leave unpainted an error of the lexer's
    over it), except for UNKNOWN_UNITS."""
    names = [token for token, kind in TOKENS if kind == "variable"]
    prelude = ["0"] + ["=" + name for name in names]
    lines = prelude + [token for token, _ in TOKENS]
    found = server_tokens(lines)
    if not check(found is not None, "server: semantic tokens of the token table"):
        return
    wrong = []
    for (token, kind), (tokens, codes) in zip(TOKENS, found[len(prelude):]):
        lexical = (codes["error"] | codes["other"]) & (LEXICAL_ERRORS | {"unknown-unit"})
        if token in UNKNOWN_UNITS:
            if "unknown-unit" not in codes["error"] | codes["other"]:
                wrong.append(f"{token!r}: no unknown-unit (tokens {tokens}, diagnostics {codes})")
        elif kind is None:
            if not codes["error"] & LEXICAL_ERRORS:
                wrong.append(f"{token!r}: painted by no grammar, but no error of {sorted(LEXICAL_ERRORS)} over it"
                             f" (tokens {tokens}, diagnostics {codes})")
        elif tokens != lexer_tokens(token, kind) or lexical:
            wrong.append(f"{token!r}: the table says {kind}, the server {tokens}, {codes}")
    check(not wrong, f"server: the token table agrees with the lexer ({len(TOKENS)} tokens: semantic tokens,"
          " and an error over each token the grammars leave unpainted)", "; ".join(wrong[:10]))


if SERVER is not None:
    print(f"== The token table against the lexer ({SERVER})")
    check_token_table_against_the_lexer()

# --- The settings, as each client sends them, reach the server --------------------------------


def inlay_hints(initialization_options=None, changed_settings=None, text="1 3 /\n90 sin\n", places=False):
    """Inlay hint labels of a two-line tape from a real rpn-lsp session; with places, each
    hint's (line, character, label)."""
    params = {"processId": None, "rootUri": None, "capabilities": {"textDocument": {"inlayHint": {}}}}
    if initialization_options is not None:
        params["initializationOptions"] = initialization_options
    messages = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params},
                {"jsonrpc": "2.0", "method": "initialized", "params": {}}]
    if changed_settings is not None:
        messages.append({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration",
                         "params": {"settings": changed_settings}})
    uri = "file:///settings-check.rpn"
    messages += [
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "rpn", "version": 1, "text": text}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/inlayHint", "params": {
            "textDocument": {"uri": uri},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 2, "character": 0}}}},
        {"jsonrpc": "2.0", "id": 3, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"}]
    stdin = b"".join(b"Content-Length: %d\r\n\r\n" % len(body) + body
                     for body in (json.dumps(message).encode() for message in messages))
    stdout = subprocess.run([str(SERVER), "--stdio"], input=stdin, capture_output=True, timeout=30).stdout
    for header in re.finditer(rb"Content-Length: (\d+)\r\n\r\n", stdout):
        body = json.loads(stdout[header.end():header.end() + int(header.group(1))])
        if body.get("id") == 2:
            if places:
                return [(hint["position"]["line"], hint["position"]["character"], hint["label"])
                        for hint in body.get("result") or []]
            return [hint["label"] for hint in body.get("result") or []]
    return None


if SERVER is not None:
    print(f"== The settings reach the server ({SERVER})")
    defaults = ["[0.333333333333333]", "[0.333333333333333 0.893996663600558]"]
    changed = ["[0.333]", "[0.333 1]"]
    expect(inlay_hints(), defaults, "server: inlay hints with no settings")
    aligned = ["1 3 /   # a third", "90 sin  # in radians"]
    after_tokens = [(0, 5, "[0.333333333333333]"), (1, 6, "[0.333333333333333 0.893996663600558]")]
    at_ends = [(n, len(aligned[n]), label) for n, _, label in after_tokens]

    def send_places(channel, value):
        text = "\n".join(aligned) + "\n"
        if channel == "initializationOptions":
            return inlay_hints(initialization_options=value, text=text, places=True)
        return inlay_hints(changed_settings=value, text=text, places=True)

    expect(inlay_hints(text="\n".join(aligned) + "\n", places=True), after_tokens,
           "server: with no settings each hint is right after its line's tokens, before the comment")
    check(len(SENT_SETTINGS) >= 6, "server: settings from Helix, Kakoune, Sublime (2), Zed and LSP4IJ",
          ", ".join(what for what, *_ in SENT_SETTINGS))
    for what, channel, settings, inner_only in SENT_SETTINGS:
        def send(value):
            if channel == "initializationOptions":
                return inlay_hints(initialization_options=value)
            return inlay_hints(changed_settings=value)

        sent = copy.deepcopy(settings)
        expect(send(sent), defaults, f"server: {what} as shipped keeps the defaults ({channel})")
        (sent if inner_only else sent["rpn"]).update(precision=3, angleUnit="degrees")
        expect(send(sent), changed, f"server: {what} with precision 3 and degrees is read ({channel})")
        # The READMEs' way to keep aligned comments aligned: position "endOfLine" in the same object.
        sent = copy.deepcopy(settings)
        inner = sent if inner_only else sent["rpn"]
        inner["inlayHints"] = dict(inner.get("inlayHints") or {}, position="endOfLine")
        expect(send_places(channel, sent), at_ends,
               f"server: {what} with inlayHints.position endOfLine puts the hints after the comments ({channel})")

print(f"configs: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
