#!/usr/bin/env python3
"""Checks the VS Code extension in EditorConfigs/vscode/ without VS Code.

    check.py [--server PATH/TO/rpn-lsp] [--engine onig|re]

Run by run.sh beside it, which installs onigurumacffi (Oniguruma, the regex engine of VS Code's
TextMate tokenizer) first. What is checked, in order:

 1. manifest     package.json, language-configuration.json and the grammar are valid JSON with
                 the fields VS Code and vsce require; the settings mirror the server's
                 (rpn.display.notation, .decimals and .grouping among them).
 2. grammar      the grammar uses only `match` rules (with `captures`) and `include`s of its
                 repository, so that the tokenizer below is faithful; its operator and constant
                 alternations (and the builtins a definition cannot name) are exactly the
                 spellings of Sources/RPNEngine/Evaluation/Builtins.swift.
 3. tokenizer    a TextMate-style tokenizer (the line plus "\n", at each position the leftmost
                 match of all rules, ties to the first rule, as vscode-textmate does) gives the
                 exact scopes expected for sample lines (checks `=20.5` in every number form,
                 and near-misses such as `=1.5x`, `=2x`, `=` that are invalid stores;
                 definitions `: hyp sq swap sq + sqrt ;`, whose `:` and `;` are keywords only as
                 tokens of their own; times and angles `1:30`, `=2:15`, `4:35_min` and formats
                 `>h:mm`, and those written wrongly, `1:75`, `1:30:15_min`, `>hh:mm`), and for
                 every builtin spelling.
 4. extension.js `node --check` of extension.js, client.js and features.js; then (with --server)
                 client-test.js beside this file: the extension's own LSP client under a
                 stand-in for the `vscode` module (vscode-standin.js), against the real server:
                 every provider's answer, diagnostics, edits, refreshes, settings, cancellation,
                 a dying server, restarts, and how rpn.server.path finds the binary.
 5. server       (with --server) rpn-lsp started as the extension starts it (`--stdio`), with
                 the initialize parameters extension.js sends (utf-16 only, no root, its
                 initializationOptions), printed by client-test.js:
                 the server must answer utf-16; its semantic tokens must classify every token of
                 a corpus of tricky lines and of EditorConfigs/sample.rpn as the grammar does
                 (a check: its `=` an operator, its value a number, in both; a definition's
                 `:` and `;` keywords and its name a function's declaration; a use of a word is
                 a name to the grammar, which cannot tell a word from a variable);
                 the numbers written wrongly that the grammar leaves uncoloured (`1,5`, `0xG`)
                 must each be an error to the server (a diagnostic over the token);
                 its inlay hints must follow the settings, from initializationOptions and from
                 didChangeConfiguration {"settings": {"rpn": …}} as the client sends it.
                 Sections, with the capabilities VS Code declares: each heading's summary as a
                 code lens (and a workspace/codeLens/refresh request after an edit that changes
                 one), the folding ranges, and the summaries' inlay hints, gone with
                 rpn.inlayHints.sections false. rpn.inlayHints.position: on a tape with
                 aligned comments each hint is right after the tokens (afterTokens) or at the
                 line's end (endOfLine), and a tape's `# rpn: hints=` wins over the setting.

Each check prints one line; any failure makes the exit status 1.
"""

import argparse
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
EXT = os.path.join(REPO, "EditorConfigs", "vscode")
BUILTINS_SWIFT = os.path.join(REPO, "Sources", "RPNEngine", "Evaluation", "Builtins.swift")
SAMPLE = os.path.join(REPO, "EditorConfigs", "sample.rpn")

failures = []


def check(ok, what, detail=""):
    """Prints one check's result; remembers failures."""
    if ok:
        print(f"ok   - {what}")
    else:
        print(f"FAIL - {what}" + (f"\n       {detail}" if detail else ""))
        failures.append(what)
    return ok


def section(title):
    print(f"# {title}")


# ---------------------------------------------------------------------------------------------
# Regex engines

# Unicode White_Space, as Sources/RPNEngine/Syntax/Lexer.swift spells it out (for the `re` fallback).
WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"


def letter_class_body():
    """The code points of general category L, as the inside of a `re` character class."""
    ranges = []
    start = prev = None
    for cp in range(sys.maxunicode + 1):
        if unicodedata.category(chr(cp)).startswith("L"):
            if start is None:
                start = cp
            elif cp != prev + 1:
                ranges.append((start, prev))
                start = cp
            prev = cp
    ranges.append((start, prev))
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)


class Engine:
    """Compiles the grammar's Oniguruma regexes with onigurumacffi, or translates them to `re`."""

    def __init__(self, name):
        self.name = name
        if name == "onig":
            import onigurumacffi

            self.onig = onigurumacffi
        else:
            self.letters = letter_class_body()

    def compile(self, pattern):
        if self.name == "onig":
            return self.onig.compile(pattern)
        # Exact for what the grammar uses: \p{L} only inside classes, \s and \S as White_Space.
        translated = pattern.replace(r"\p{L}", self.letters)
        translated = translated.replace(r"[^\s", "[^" + WHITE_SPACE).replace(r"\S", "[^" + WHITE_SPACE + "]")
        translated = translated.replace(r"\s", "[" + WHITE_SPACE + "]")
        return re.compile(translated)

    def regset(self, patterns):
        return self.onig.compile_regset(*patterns) if self.name == "onig" else None

    @staticmethod
    def span(match, group):
        """A group's span in characters, or None when it did not take part."""
        if hasattr(match, "_begs"):  # onigurumacffi reports -1 for a group that did not match
            if match._begs[group] < 0:
                return None
        elif match.start(group) < 0:
            return None
        return match.start(group), match.end(group)


# ---------------------------------------------------------------------------------------------
# 1. The manifest files


def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            value = json.load(f)
        check(True, f"{what} is valid JSON")
        return value
    except (OSError, ValueError) as error:
        check(False, f"{what} is valid JSON", str(error))
        return None


def dig(obj, *keys):
    for key in keys:
        if isinstance(obj, dict) and key in obj:
            obj = obj[key]
        elif isinstance(obj, list) and isinstance(key, int) and -len(obj) <= key < len(obj):
            obj = obj[key]
        else:
            return None
    return obj


def check_manifest():
    section("manifest: package.json, language-configuration.json, .vscodeignore")
    pkg = load_json(os.path.join(EXT, "package.json"), "package.json")
    if pkg is None:
        return None
    for field in ("name", "displayName", "description", "version", "publisher", "main"):
        check(isinstance(pkg.get(field), str) and pkg[field] != "", f"package.json has a non-empty `{field}`")
    check(re.fullmatch(r"[a-z0-9][a-z0-9._-]*", pkg.get("name", "")) is not None,
          "package.json `name` is lowercase without spaces (vsce)", repr(pkg.get("name")))
    check(re.fullmatch(r"[a-zA-Z0-9][a-zA-Z0-9-]*", pkg.get("publisher", "")) is not None,
          "package.json `publisher` is a valid publisher id (vsce)", repr(pkg.get("publisher")))
    check(re.fullmatch(r"\d+\.\d+\.\d+", pkg.get("version", "")) is not None,
          "package.json `version` is semver", repr(pkg.get("version")))
    engine = dig(pkg, "engines", "vscode")
    match = re.fullmatch(r"\^(\d+)\.(\d+)\.(\d+)", engine or "")
    check(match is not None and (int(match[1]), int(match[2])) >= (1, 82),
          "engines.vscode is ^1.82.0 or later", repr(engine))
    main = pkg.get("main", "")
    check(os.path.isfile(os.path.join(EXT, main)), f"`main` ({main}) exists")
    # vsce accepts `main` without activationEvents only for engines ≥ 1.74 with implicit events;
    # we list onLanguage:rpn explicitly so that every vsce release accepts the manifest.
    check(dig(pkg, "activationEvents") == ["onLanguage:rpn"],
          "activationEvents is [\"onLanguage:rpn\"] (explicit; implicit from contributes.languages on VS Code ≥ 1.74)",
          repr(pkg.get("activationEvents")))
    languages = dig(pkg, "contributes", "languages") or [{}]
    lang = languages[0]
    check(lang.get("id") == "rpn", "contributes.languages[0].id is rpn", repr(lang.get("id")))
    check(lang.get("extensions") == [".rpn"], "contributes.languages[0].extensions is [\".rpn\"]", repr(lang.get("extensions")))
    check(lang.get("configuration") == "./language-configuration.json",
          "contributes.languages[0].configuration is ./language-configuration.json", repr(lang.get("configuration")))
    grammars = dig(pkg, "contributes", "grammars") or [{}]
    gram = grammars[0]
    check(gram.get("language") == "rpn", "contributes.grammars[0].language is rpn", repr(gram.get("language")))
    check(gram.get("scopeName") == "source.rpn", "contributes.grammars[0].scopeName is source.rpn", repr(gram.get("scopeName")))
    check(isinstance(gram.get("path"), str) and os.path.isfile(os.path.join(EXT, gram.get("path", ""))),
          f"contributes.grammars[0].path ({gram.get('path')}) exists")

    props = dig(pkg, "contributes", "configuration", "properties") or {}
    expected = {
        "rpn.server.path": {"type": "string", "default": "rpn-lsp"},
        "rpn.precision": {"type": "integer", "default": 15, "minimum": 1, "maximum": 17},
        "rpn.angleUnit": {"type": "string", "default": "radians", "enum": ["radians", "degrees"]},
        "rpn.display.notation": {"type": "string", "default": "auto", "enum": ["auto", "fixed", "scientific", "engineering"]},
        "rpn.display.decimals": {"type": "integer", "default": 2, "minimum": 0, "maximum": 15},
        "rpn.display.grouping": {"type": "boolean", "default": False},
        "rpn.inlayHints.enabled": {"type": "boolean", "default": True},
        "rpn.inlayHints.maxItems": {"type": "integer", "default": 8, "minimum": 1, "maximum": 1000},
        "rpn.inlayHints.position": {"type": "string", "default": "afterTokens", "enum": ["afterTokens", "endOfLine"]},
        "rpn.inlayHints.sections": {"type": "boolean", "default": True},
    }
    for key, want in expected.items():
        got = props.get(key)
        wrong = {k: (got or {}).get(k) for k, v in want.items() if (got or {}).get(k) != v}
        check(got is not None and not wrong and (got.get("description") or got.get("markdownDescription")),
              f"setting {key}: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in want.items()),
              f"got {json.dumps(got)}" if got is not None else "missing")
    for key in ("rpn.display.notation", "rpn.inlayHints.position"):
        choices = props.get(key) or {}
        descriptions = choices.get("enumDescriptions") or choices.get("markdownEnumDescriptions") or []
        check(len(descriptions) == len(choices.get("enum") or [None]) and all(descriptions),
              f"setting {key} describes each of its values (enumDescriptions)", repr(descriptions))
    extra = sorted(set(props) - set(expected) - {"rpn.trace.server"})
    check(not extra, "no settings beyond the server's, rpn.server.path and rpn.trace.server", repr(extra))
    restricted = dig(pkg, "capabilities", "untrustedWorkspaces", "restrictedConfigurations") or []
    check("rpn.server.path" in restricted,
          "rpn.server.path is a restricted configuration (an untrusted workspace cannot pick the binary)")
    deps = pkg.get("dependencies") or {}
    check(not deps, "no dependencies: the extension needs only VS Code's API and Node.js, nothing from npm", repr(deps))
    check("vscode" not in deps, "`vscode` is not a dependency (vsce refuses it)")
    commands = [c.get("command") for c in dig(pkg, "contributes", "commands") or []]
    check(commands == ["rpn.restartServer"], "contributes.commands is the restart command", repr(commands))

    conf = load_json(os.path.join(EXT, "language-configuration.json"), "language-configuration.json")
    if conf is not None:
        check(dig(conf, "comments", "lineComment") == "#", "language-configuration: line comments start with #")
        check("blockComment" not in (conf.get("comments") or {}), "language-configuration: no block comments")
        check(conf.get("brackets") == [] and conf.get("autoClosingPairs") == [] and conf.get("surroundingPairs") == [],
              "language-configuration: no brackets, auto-closing or surrounding pairs")

    readme = open(os.path.join(EXT, "README.md"), encoding="utf-8").read()
    missing = [s for s in ("build-vsix.sh", "--install-extension", ".vsix", "editor.inlayHints.enabled", "rpn.server.path")
               if s not in readme]
    check(not missing, "README.md: build the .vsix with build-vsix.sh, install it; inlay hints; rpn.server.path", repr(missing))
    check("npm install" not in readme, "README.md asks for no npm install (the extension has no dependencies)")
    relative = re.findall(r"!?\[[^\]]*\]\((?!https?://|#)([^)]*)\)", readme)
    check(not relative, "README.md has no relative links (vsce refuses them without a repository URL)", repr(relative))

    ignore = open(os.path.join(EXT, ".vscodeignore"), encoding="utf-8").read().split("\n")
    kept = ("package.json", "extension.js", "client.js", "features.js", "language-configuration.json", "syntaxes", "README.md")
    bad = [line for line in ignore if line.strip() and not line.startswith("#")
           and any(line.strip().strip("/*") == k for k in kept)]
    check(not bad, ".vscodeignore leaves out none of the files the extension needs", repr(bad))
    return pkg


# ---------------------------------------------------------------------------------------------
# 2. The grammar's structure, against Builtins.swift


class Rule:
    def __init__(self, key, pattern, name, captures, regex):
        self.key, self.pattern, self.name, self.captures, self.regex = key, pattern, name, captures, regex


def flatten_grammar(grammar, engine):
    """The grammar's rules in the order the tokenizer tries them; includes resolved."""
    repository = grammar.get("repository") or {}
    rules, problems = [], []

    def visit(rule, key, seen):
        if "include" in rule:
            ref = rule["include"]
            if not (ref.startswith("#") and ref[1:] in repository) or set(rule) != {"include"}:
                problems.append(f"{key}: include {ref!r} is not a repository rule")
            elif ref in seen:
                problems.append(f"{key}: include {ref!r} is recursive")
            else:
                visit(repository[ref[1:]], ref[1:], seen | {ref})
        elif "match" in rule:
            unknown = set(rule) - {"match", "name", "captures", "comment"}
            if unknown:
                problems.append(f"{key}: keys {sorted(unknown)} are not supported by the test tokenizer")
            captures = {}
            for group, capture in (rule.get("captures") or {}).items():
                if not group.isdigit() or set(capture) != {"name"}:
                    problems.append(f"{key}: capture {group} must be a group number with only a name")
                else:
                    captures[int(group)] = capture["name"]
            try:
                regex = engine.compile(rule["match"])
            except Exception as error:  # onigurumacffi.OnigError or re.error
                problems.append(f"{key}: {rule['match']!r} does not compile: {error}")
                return
            rules.append(Rule(key, rule["match"], rule.get("name"), captures, regex))
        elif set(rule) <= {"patterns", "comment"}:
            for inner in rule.get("patterns", []):
                visit(inner, key, seen)
        else:
            problems.append(f"{key}: only match rules (no begin/end/while) keep the test tokenizer faithful: {sorted(rule)}")

    for rule in grammar.get("patterns") or []:
        visit(rule, "patterns", set())
    return rules, problems


def builtins_from_swift():
    """(spelling, is_constant) for every spelling of Builtins.swift's table, canonical first."""
    text = open(BUILTINS_SWIFT, encoding="utf-8").read()
    table = text[text.index("static let table"):]
    found = []
    for match in re.finditer(r'Builtin\(\s*name:\s*"((?:[^"\\]|\\.)*)",\s*aliases:\s*\[([^\]]*)\],\s*kind:\s*\.(\w+)', table):
        spellings = [match[1]] + re.findall(r'"((?:[^"\\]|\\.)*)"', match[2])
        for spelling in spellings:
            found.append((spelling, match[3] == "constant"))
    return found


def is_name_start(ch):
    return ch == "_" or unicodedata.category(ch).startswith("L")


def check_grammar_structure(grammar, engine):
    section(f"grammar: syntaxes/rpn.tmLanguage.json (regexes compiled with {engine.name})")
    check(grammar.get("scopeName") == "source.rpn", "the grammar's scopeName is source.rpn")
    check(isinstance(grammar.get("name"), str), "the grammar has a name")
    rules, problems = flatten_grammar(grammar, engine)
    check(not problems, "only match rules with captures, includes of the repository, every regex compiles",
          "; ".join(problems))
    check(len(rules) >= 7, f"the grammar has its rules ({len(rules)})")

    builtins = builtins_from_swift()
    check(len(builtins) >= 40, f"Builtins.swift lists the spellings ({len(builtins)})")
    symbolic = {s for s, _ in builtins if not is_name_start(s[0])}
    constants = {s for s, c in builtins if c}
    named = {s for s, c in builtins if not c and is_name_start(s[0])}
    by_key = {r.key: r for r in rules}

    def alternation(key, inner=r"\(\?i:([^)]*)\)"):
        rule = by_key.get(key)
        match = re.search(inner, rule.pattern) if rule else None
        return set(match[1].split("|")) if match else set()

    check(alternation("named-operator") == named,
          "named-operator lists exactly Builtins.swift's named operators",
          f"grammar only: {sorted(alternation('named-operator') - named)}; Builtins.swift only: {sorted(named - alternation('named-operator'))}")
    ascii_constants = {s for s in constants if s.isascii()}
    check(alternation("constant") == ascii_constants and all(s in by_key["constant"].pattern for s in constants),
          "constant lists exactly Builtins.swift's constants", f"{sorted(constants)} vs {by_key['constant'].pattern if 'constant' in by_key else None}")
    check(alternation("store-reserved") == named | ascii_constants,
          "store-reserved lists every name-like builtin", f"{sorted((named | ascii_constants) ^ alternation('store-reserved'))}")
    check(alternation("definition") == named | ascii_constants and "|π)" in (by_key["definition"].pattern if "definition" in by_key else ""),
          "definition lists every name-like builtin (none can be defined)",
          f"{sorted((named | ascii_constants) ^ alternation('definition'))}")
    # A check is `=` and the number rule's literal, so that the two cannot drift apart.
    number = by_key["number"].pattern if "number" in by_key else ""
    literal = number.removeprefix("(?<!\\S)").removesuffix("(?![^\\s#])")
    check_rule = by_key.get("check")
    check(check_rule is not None and check_rule.pattern == "(?<!\\S)(=)(" + literal + ")(?![^\\s#])"
          and check_rule.name == CHECK and check_rule.captures == {1: CHECK_SIGN, 2: NUM},
          f"check is `=` ({CHECK_SIGN}) and the number rule's literal ({NUM}), the whole token, named {CHECK}",
          repr(check_rule))
    keys = [r.key for r in rules]
    check("check" in keys and "store-malformed" in keys and keys.index("check") < keys.index("store-malformed"),
          "check comes before store-malformed (which would take `=20.5` as an invalid store)", repr(keys))
    return rules, symbolic, constants, named


# ---------------------------------------------------------------------------------------------
# 3. The tokenizer


class Tokenizer:
    """vscode-textmate's loop for a grammar of match rules: from the current position, the rule
    whose match starts first wins (the first rule on ties); its name covers the match and each
    capture's name covers its group inside it; then the search goes on after the match. The line
    is searched with "\n" appended, as vscode-textmate does."""

    def __init__(self, rules, engine):
        self.rules = rules
        self.regset = engine.regset([r.pattern for r in rules])
        self.engine = engine

    def spans(self, line):
        """[(start, end, rule, scopes-per-char)] for one line, offsets in code points."""
        text = line + "\n"
        pos = 0
        result = []
        while pos < len(text):
            best = None
            for index, rule in enumerate(self.rules):
                match = rule.regex.search(text, pos)
                if match is not None and (best is None or match.start() < best[2].start()):
                    best = (index, rule, match)
            if self.regset is not None:  # Oniguruma's own "leftmost, then first" must agree
                index, match = self.regset.search(text, pos)
                got = None if best is None else (best[0], best[2].start(), best[2].end())
                want = None if match is None else (index, match.start(), match.end())
                if got != want:
                    raise AssertionError(f"tokenizer and onig_regset_search disagree at {pos} in {line!r}: {got} vs {want}")
            if best is None:
                break
            _, rule, match = best
            if match.end() == match.start():
                raise AssertionError(f"rule {rule.key} matched the empty string at {match.start()} in {line!r}")
            start, end = match.start(), min(match.end(), len(line))
            scopes = [[rule.name] if rule.name else [] for _ in range(start, end)]
            for group, name in sorted(rule.captures.items()):
                span = self.engine.span(match, group)
                if span:
                    for i in range(max(span[0], start), min(span[1], end)):
                        scopes[i - start].append(name)
            result.append((start, end, rule, scopes))
            pos = match.end()
        return result

    def segments(self, line):
        """[(text, "scope > scope")]: runs of characters with the same scopes below source.rpn;
        characters no rule covers are split at white space into words with scope ""."""
        per_char = [()] * len(line)
        for start, end, _, scopes in self.spans(line):
            for i in range(start, end):
                per_char[i] = tuple(scopes[i - start])
        out = []
        i = 0
        while i < len(line):
            j = i
            while j < len(line) and per_char[j] == per_char[i]:
                j += 1
            text = line[i:j]
            if per_char[i]:
                out.append((text, " > ".join(per_char[i])))
            else:
                out.extend((word, "") for word in re.split("[" + WHITE_SPACE + "]+", text) if word)
            i = j
        return out


# Words that are almost builtins. Unicode case folding would make ſqrt (long s), the Kelvin sign
# and Pİ builtins; spellings are ASCII case-insensitive only.
NEAR_MISSES = ["Π", "ſqrt", "\u212a", "Pİ", "sqr", "dupe", "pi2", "ee", "√√", "+*"]

NUM = "constant.numeric.rpn"
OP = "keyword.operator.rpn"
FN = "support.function.rpn"
CONST = "constant.language.rpn"
VAR = "variable.other.rpn"
STORE = "variable.other.assignment.rpn"
STORE_EQ = STORE + " > keyword.operator.assignment.rpn"
CHECK = "meta.check.rpn"
CHECK_SIGN = "keyword.operator.check.rpn"
CHECK_EQ = CHECK + " > " + CHECK_SIGN
CHECK_NUM = CHECK + " > " + NUM
UNIT = "support.type.unit.rpn"
CHECK_UNIT = CHECK + " > " + UNIT
QTY = "meta.quantity.rpn"
QTY_NUM = QTY + " > " + NUM
QTY_UNIT = QTY + " > " + UNIT
RESERVED = "invalid.illegal.reserved-name.rpn"
BAD_STORE = "invalid.illegal.store.rpn"
COMMENT = "comment.line.number-sign.rpn"
COMMENT_MARK = COMMENT + " > punctuation.definition.comment.rpn"
DEF = "keyword.declaration.function.rpn"
DEF_NAME = "entity.name.function.rpn"
HEAD = "comment.line.number-sign.rpn markup.heading.rpn"
HEAD_MARK = HEAD + " > punctuation.definition.comment.rpn punctuation.definition.heading.rpn"
HEAD_TITLE = HEAD + " > entity.name.section.rpn"
NONE = ""

# (line, expected segments). NONE: no rule matches the token (an unknown word for the server).
EXPECTED_LINES = [
    ("12.5 8 + =lunch # split",
     [("12.5", NUM), ("8", NUM), ("+", OP), ("=", STORE_EQ), ("lunch", STORE), ("#", COMMENT_MARK), (" split", COMMENT)]),
    ("−3 1_000 .5 12. 2.5E-4 1e3",
     [("−3", NUM), ("1_000", NUM), (".5", NUM), ("12.", NUM), ("2.5E-4", NUM), ("1e3", NUM)]),
    ("+3 -3 0.000_1 1_000_000 1e+5 -.5 +12. 007 −2.5e-3 .5_5",
     [("+3", NUM), ("-3", NUM), ("0.000_1", NUM), ("1_000_000", NUM), ("1e+5", NUM), ("-.5", NUM), ("+12.", NUM),
      ("007", NUM), ("−2.5e-3", NUM), (".5_5", NUM)]),
    ("1__0 1_ 1_.5 1._5 1e 1e−3 1e3_0 . +-3 4+ 1.2.3 ١٢ 1e2.5",
     [("1__0", NONE), ("1_", NONE), ("1_.5", NONE), ("1._5", NONE), ("1e", NONE), ("1e−3", NONE), ("1e3_0", NONE),
      (".", NONE), ("+-3", NONE), ("4+", NONE), ("1.2.3", NONE), ("١٢", NONE), ("1e2.5", NONE)]),
    ("dup SQRT pi π × ÷ √ ** Pi E mean log2 Mod",
     [("dup", FN), ("SQRT", FN), ("pi", CONST), ("π", CONST), ("×", OP), ("÷", OP), ("√", OP), ("**", OP),
      ("Pi", CONST), ("E", CONST), ("mean", FN), ("log2", FN), ("Mod", FN)]),
    ("+ - − * / ^ % pow chs neg",
     [("+", OP), ("-", OP), ("−", OP), ("*", OP), ("/", OP), ("^", OP), ("%", OP), ("pow", FN), ("chs", FN), ("neg", FN)]),
    # A name starts with a letter: `_x1` and `_1` are no names (`_` starts a unit word).
    ("rate x_1 café Δt x1 Π ſqrt sqrtt e3 pie _x1 _1",
     [("rate", VAR), ("x_1", VAR), ("café", VAR), ("Δt", VAR), ("x1", VAR), ("Π", VAR), ("ſqrt", VAR),
      ("sqrtt", VAR), ("e3", VAR), ("pie", VAR), ("_x1", NONE), ("_1", NONE)]),
    ("*** ×× √2 -- x² 🎉 a-b",
     [("***", NONE), ("××", NONE), ("√2", NONE), ("--", NONE), ("x²", NONE), ("🎉", NONE), ("a-b", NONE)]),
    ("x#y", [("x", VAR), ("#", COMMENT_MARK), ("y", COMMENT)]),
    ("2 3 +# tight", [("2", NUM), ("3", NUM), ("+", OP), ("#", COMMENT_MARK), (" tight", COMMENT)]),
    ("4+#c", [("4+", NONE), ("#", COMMENT_MARK), ("c", COMMENT)]),
    ("   # only a comment: é 🎉 12 dup", [("#", COMMENT_MARK), (" only a comment: é 🎉 12 dup", COMMENT)]),
    ("=x =x_1 =Π =é =dup =PI =π =e =2x = =a-b =_1 =_km =x#c",
     [("=", STORE_EQ), ("x", STORE), ("=", STORE_EQ), ("x_1", STORE), ("=", STORE_EQ), ("Π", STORE), ("=", STORE_EQ), ("é", STORE),
      ("=dup", RESERVED), ("=PI", RESERVED), ("=π", RESERVED), ("=e", RESERVED), ("=2x", BAD_STORE), ("=", BAD_STORE),
      ("=a-b", BAD_STORE), ("=_1", BAD_STORE), ("=_km", BAD_STORE), ("=", STORE_EQ), ("x", STORE), ("#", COMMENT_MARK),
      ("c", COMMENT)]),
    # U+00A0 and U+3000 separate tokens (White_Space); U+200B does not.
    ("1\u00a02\u30003 dup\u2028swap 1\u200b2",
     [("1", NUM), ("2", NUM), ("3", NUM), ("dup", FN), ("swap", FN), ("1\u200b2", NONE)]),
    ("\t12\t=total\t", [("12", NUM), ("=", STORE_EQ), ("total", STORE)]),
    # Checks: `=` and a number literal, the whole token.
    ("12.5 8 + =20.5 # check",
     [("12.5", NUM), ("8", NUM), ("+", OP), ("=", CHECK_EQ), ("20.5", CHECK_NUM), ("#", COMMENT_MARK), (" check", COMMENT)]),
    ("=0.333 =-2.5 =−2.5 =+3 =1.5e3 =2.5E-4 =1_000 =.5 =12. =007",
     [piece for value in ["0.333", "-2.5", "−2.5", "+3", "1.5e3", "2.5E-4", "1_000", ".5", "12.", "007"]
      for piece in (("=", CHECK_EQ), (value, CHECK_NUM))]),
    ("=20.5#c\t=1e3", [("=", CHECK_EQ), ("20.5", CHECK_NUM), ("#", COMMENT_MARK), ("c\t=1e3", COMMENT)]),
    ("\t=1e3\u3000=5 ", [("=", CHECK_EQ), ("1e3", CHECK_NUM), ("=", CHECK_EQ), ("5", CHECK_NUM)]),
    # Near-misses: invalid stores, as before checks existed; `=dup` stays reserved, `=rate` a store.
    ("=2x = =1.2.3 =1.5x =1e3.5 =--3 =1__0 ==5 =5= =1e =. =1_ =١٢",
     [(word, BAD_STORE) for word in "=2x = =1.2.3 =1.5x =1e3.5 =--3 =1__0 ==5 =5= =1e =. =1_ =١٢".split()]),
    ("=dup =rate a=5 20.5=",
     [("=dup", RESERVED), ("=", STORE_EQ), ("rate", STORE), ("a=5", NONE), ("20.5=", NONE)]),
    # Thousands grouped with commas (one to three digits, then groups of exactly three, before any
    # point), and integers in hex, octal and binary (any case, a sign, `_` between two digits).
    ("1,234,567.89 -1,000 −1,000 +1,000 1,234. 999,999 1,234e3 1,234.5_6 0,001 1_2,345",
     [(word, NUM) for word in "1,234,567.89 -1,000 −1,000 +1,000 1,234. 999,999 1,234e3 1,234.5_6 0,001 1_2,345".split()]),
    ("0x1F 0X1f 0o17 0O17 0b1010 0B1010 -0xFF −0xFF +0o7 0xFF_FF 0b1010_1010 0xdead_BEEF 0x1e3",
     [(word, NUM) for word in "0x1F 0X1f 0o17 0O17 0b1010 0B1010 -0xFF −0xFF +0o7 0xFF_FF 0b1010_1010 0xdead_BEEF 0x1e3".split()]),
    ("=1,234.50 =-1,000 =−1,000 =0xFF =−0b1010 =0o17 =0XFF_FF =1,000e3 # checks",
     [piece for value in ["1,234.50", "-1,000", "−1,000", "0xFF", "−0b1010", "0o17", "0XFF_FF", "1,000e3"]
      for piece in (("=", CHECK_EQ), (value, CHECK_NUM))] + [("#", COMMENT_MARK), (" checks", COMMENT)]),
    # Numbers written wrongly (INVALID_NUMBERS: the server marks each with a diagnostic) are no
    # numbers to the grammar; as checks, invalid stores.
    ("1,5 12,34 1,,000 ,5 1,000,00 1234,567 1,234.5,6 1,_000 1_,000 1, 1,2345 .5,000",
     [(word, NONE) for word in "1,5 12,34 1,,000 ,5 1,000,00 1234,567 1,234.5,6 1,_000 1_,000 1, 1,2345 .5,000".split()]),
    ("0x 0xG 0b102 0x1p3 0o8 0x_FF 0xFF_ 0xF__F 00x1F 0x1F.5 0xFFz 0b1e3 0x1F,000 0x-1",
     [(word, NONE) for word in "0x 0xG 0b102 0x1p3 0o8 0x_FF 0xFF_ 0xF__F 00x1F 0x1F.5 0xFFz 0b1e3 0x1F,000 0x-1".split()]),
    ("=1,5 =0xG =0x =12,34 =0b102 =,5 =1,000,00 =0x1F.5",
     [(word, BAD_STORE) for word in "=1,5 =0xG =0x =12,34 =0b102 =,5 =1,000,00 =0x1F.5".split()]),
    # A settings line is a comment to the grammar, wherever it stands: only those above the first
    # token apply, which a grammar of single-line rules cannot tell.
    ("# rpn: notation=fixed decimals=2 grouping=true",
     [("#", COMMENT_MARK), (" rpn: notation=fixed decimals=2 grouping=true", COMMENT)]),
    # Definitions: `:` and `;` keywords, the name after `:` a function's name; a use is a name.
    (": hyp sq swap sq + sqrt ;",
     [(":", DEF), ("hyp", DEF_NAME), ("sq", FN), ("swap", FN), ("sq", FN), ("+", OP), ("sqrt", FN), (";", DEF)]),
    ("3 4 hyp lastx =5 # hyp is a name to the grammar",
     [("3", NUM), ("4", NUM), ("hyp", VAR), ("lastx", FN), ("=", CHECK_EQ), ("5", CHECK_NUM), ("#", COMMENT_MARK),
      (" hyp is a name to the grammar", COMMENT)]),
    ("1 2 :\tw_2 + ; w_2 : é2 ;# c",
     [("1", NUM), ("2", NUM), (":", DEF), ("w_2", DEF_NAME), ("+", OP), (";", DEF), ("w_2", VAR), (":", DEF),
      ("é2", DEF_NAME), (";", DEF), ("#", COMMENT_MARK), (" c", COMMENT)]),
    # Broken definitions (GRAMMAR_ONLY: the server's tokens for them are its own affair). A
    # builtin's name cannot be defined: after `:` it keeps its scope.
    (": dup 2 * ; : PI ; : π ; : Lastx ;",
     [(":", DEF), ("dup", FN), ("2", NUM), ("*", OP), (";", DEF), (":", DEF), ("PI", CONST), (";", DEF), (":", DEF),
      ("π", CONST), (";", DEF), (":", DEF), ("Lastx", FN), (";", DEF)]),
    (": 12 ; : =x ; : ; : 4+ ; :#c",
     [(":", DEF), ("12", NUM), (";", DEF), (":", DEF), ("=", STORE_EQ), ("x", STORE), (";", DEF), (":", DEF), (";", DEF),
      (":", DEF), ("4+", NONE), (";", DEF), (":", DEF), ("#", COMMENT_MARK), ("c", COMMENT)]),
    # `:` and `;` glued to anything are unknown words (as `4+` is); `4:` is a time written wrongly
    # (INVALID_NUMBERS).
    ("x; :x ;x :: ;; :; ::x",
     [("x;", NONE), (":x", NONE), (";x", NONE), ("::", NONE), (";;", NONE), (":;", NONE), ("::x", NONE)]),
    # Units: a quantity `12_km` (meta.quantity, its number constant.numeric, its unit with the `_`
    # support.type.unit), unit words `_km` `>mi` `->mi` `→mi` (support.type.unit), checks of
    # quantities `=9.32_mi`, and uval/ubase among the named operators.
    ("12_km 3_km + >mi =9.32_mi # c",
     [("12", QTY_NUM), ("_km", QTY_UNIT), ("3", QTY_NUM), ("_km", QTY_UNIT), ("+", OP), (">mi", UNIT), ("=", CHECK_EQ),
      ("9.32", CHECK_NUM), ("_mi", CHECK_UNIT), ("#", COMMENT_MARK), (" c", COMMENT)]),
    ("2 _km 1_000_km uval ubase UVAL −40_°C →°F ->mi 9.81_m/s^2 1_J/(kg*K) 5_m² 0.2_s^-1 3_Ω 20_Δ°C _1/s",
     [("2", NUM), ("_km", UNIT), ("1_000", QTY_NUM), ("_km", QTY_UNIT), ("uval", FN), ("ubase", FN), ("UVAL", FN),
      ("−40", QTY_NUM), ("_°C", QTY_UNIT), ("→°F", UNIT), ("->mi", UNIT), ("9.81", QTY_NUM), ("_m/s^2", QTY_UNIT),
      ("1", QTY_NUM), ("_J/(kg*K)", QTY_UNIT), ("5", QTY_NUM), ("_m²", QTY_UNIT), ("0.2", QTY_NUM), ("_s^-1", QTY_UNIT),
      ("3", QTY_NUM), ("_Ω", QTY_UNIT), ("20", QTY_NUM), ("_Δ°C", QTY_UNIT), ("_1/s", UNIT)]),
    ("=12.5_km =-40_°C =1_000_km 2.5_kW*h 12_m²² 1_∆°C",
     [("=", CHECK_EQ), ("12.5", CHECK_NUM), ("_km", CHECK_UNIT), ("=", CHECK_EQ), ("-40", CHECK_NUM), ("_°C", CHECK_UNIT),
      ("=", CHECK_EQ), ("1_000", CHECK_NUM), ("_km", CHECK_UNIT), ("2.5", QTY_NUM), ("_kW*h", QTY_UNIT),
      ("12", QTY_NUM), ("_m²²", QTY_UNIT), ("1", QTY_NUM), ("_∆°C", QTY_UNIT)]),
    # Malformed units are no quantities or unit words (the server says invalid-unit).
    ("0x1F_km 12_ 12__km 12_km/ 12_m/s/s 12_m^0 12_m^100 12_(m/s) _ > -> → >h:m >>mi _km/ 12_1/s",
     [(word, NONE) for word in "0x1F_km 12_ 12__km 12_km/ 12_m/s/s 12_m^0 12_m^100 12_(m/s) _ > -> → >h:m >>mi _km/ 12_1/s".split()]),
    # Times and angles in fields of sixty (digits, then `:` and two digits 00 to 59, once or twice,
    # a fraction only in the last field): numbers, and after `=` checks.
    ("1:30 1:30:15 27:10 -0:30 −0:30 +1:30 1:30:15.5 1:30.5 1:30. 100:59:59 # c",
     [(word, NUM) for word in "1:30 1:30:15 27:10 -0:30 −0:30 +1:30 1:30:15.5 1:30.5 1:30. 100:59:59".split()]
     + [("#", COMMENT_MARK), (" c", COMMENT)]),
    ("=2:15 =1:30:15.5 =-0:30 =−1:30:15",
     [piece for value in ["2:15", "1:30:15.5", "-0:30", "−1:30:15"] for piece in (("=", CHECK_EQ), (value, CHECK_NUM))]),
    # In the unit its first field counts (two fields in h, min, ° or deg, three in h, ° or deg): a
    # quantity, and after `=` a check of one.
    ("4:35_min 48:46:32_° 48:46_deg 1:30_h 1:30:15_h 48:46:32.5_deg −0:30_° 2:15.5_min",
     [piece for number, unit in [("4:35", "_min"), ("48:46:32", "_°"), ("48:46", "_deg"), ("1:30", "_h"),
                                 ("1:30:15", "_h"), ("48:46:32.5", "_deg"), ("−0:30", "_°"), ("2:15.5", "_min")]
      for piece in ((number, QTY_NUM), (unit, QTY_UNIT))]),
    ("=4:35_min =48:46:32_° =-1:30_h",
     [piece for number, unit in [("4:35", "_min"), ("48:46:32", "_°"), ("-1:30", "_h")]
      for piece in (("=", CHECK_EQ), (number, CHECK_NUM), (unit, CHECK_UNIT))]),
    # Formats, converted to as units are: unit words; any other `>x:y` none (invalid-unit).
    (">h:mm >h:mm:ss >min:ss >°:mm >°:mm:ss >deg:mm >deg:mm:ss ->h:mm →min:ss →h:mm:ss ->deg:mm:ss",
     [(word, UNIT) for word in ">h:mm >h:mm:ss >min:ss >°:mm >°:mm:ss >deg:mm >deg:mm:ss ->h:mm →min:ss →h:mm:ss ->deg:mm:ss".split()]),
    (">h:m >hh:mm >min:mm >h:mm:s >°:ss >h:mm:ss:ss _min:ss _h:mm",
     [(word, NONE) for word in ">h:m >hh:mm >min:mm >h:mm:s >°:ss >h:mm:ss:ss _min:ss _h:mm".split()]),
    ("1:30 0:45 + >h:mm =2:15 : half 2 / ; 1:30 half",
     [("1:30", NUM), ("0:45", NUM), ("+", OP), (">h:mm", UNIT), ("=", CHECK_EQ), ("2:15", CHECK_NUM), (":", DEF),
      ("half", DEF_NAME), ("2", NUM), ("/", OP), (";", DEF), ("1:30", NUM), ("half", VAR)]),
    # Times and angles written wrongly (INVALID_NUMBERS): no number, no quantity; as checks,
    # invalid stores.
    ("1:75 1:5 1: :30 1:30: 1::30 1.5:30 1:30_km 1:00:00:00 1:30:15_min 1:60 1:300 1:30.5.5 1:30e3 4:",
     [(word, NONE) for word in "1:75 1:5 1: :30 1:30: 1::30 1.5:30 1:30_km 1:00:00:00 1:30:15_min 1:60 1:300 1:30.5.5 1:30e3 4:".split()]),
    ("1,000:30 0x1:30 1:30_ 1:30__h 1:30_min_ --1:30",
     [(word, NONE) for word in "1,000:30 0x1:30 1:30_ 1:30__h 1:30_min_ --1:30".split()]),
    ("=1:75 =1:30_km =1:30:15_min =:30 =4:",
     [(word, BAD_STORE) for word in "=1:75 =1:30_km =1:30:15_min =:30 =4:".split()]),
    # The grammar knows the unit expression, not the unit table: a name that is no unit is
    # coloured as one (GRAMMAR_ONLY: the server leaves it uncoloured and reports unknown-unit).
    ("1,250.00_EUR _tmp >$",
     [("1,250.00", QTY_NUM), ("_EUR", QTY_UNIT), ("_tmp", UNIT), (">$", UNIT)]),
    # Units a tape defines (a rate, a unit of its own, an empty body) and their uses.
    (": _EUR 1.08_USD ; 100_EUR >USD : _box ; 3_box",
     [(":", DEF), ("_EUR", UNIT), ("1.08", QTY_NUM), ("_USD", QTY_UNIT), (";", DEF), ("100", QTY_NUM),
      ("_EUR", QTY_UNIT), (">USD", UNIT), (":", DEF), ("_box", UNIT), (";", DEF), ("3", QTY_NUM), ("_box", QTY_UNIT)]),
    # Sections: a line that holds only a comment starting with `##` is a heading (a comment and a
    # markup.heading, its title an entity.name.section); after a token `##` starts a plain comment.
    ("12.5 8 subtotal SubTotal", [("12.5", NUM), ("8", NUM), ("subtotal", FN), ("SubTotal", FN)]),
    ("## Groceries", [("##", HEAD_MARK), (" ", HEAD), ("Groceries", HEAD_TITLE)]),
    ("  ### Fruit and veg", [("###", HEAD_MARK), (" ", HEAD), ("Fruit and veg", HEAD_TITLE)]),
    ("##", [("##", HEAD_MARK)]),
    ("\t## Rent # and bills 🎉", [("##", HEAD_MARK), (" ", HEAD), ("Rent # and bills 🎉", HEAD_TITLE)]),
    ("1 2 ## total", [("1", NUM), ("2", NUM), ("#", COMMENT_MARK), ("# total", COMMENT)]),
    ("# a comment that mentions ## is no heading", [("#", COMMENT_MARK), (" a comment that mentions ## is no heading", COMMENT)]),
]
# Lines of numbers written wrongly: the server's semantic tokens colour each as a number (its
# diagnostic says what is wrong), the grammar leaves it uncoloured. Checked against the server's
# diagnostics instead (an error over each token).
INVALID_NUMBERS = [
    "1,5 12,34 1,,000 ,5 1,000,00 1234,567 1,234.5,6 1,_000 1_,000 1, 1,2345 .5,000",
    "0x 0xG 0b102 0x1p3 0o8 0x_FF 0xFF_ 0xF__F 00x1F 0x1F.5 0xFFz 0b1e3 0x1F,000 0x-1",
    "=1,5 =0xG =0x =12,34 =0b102 =,5 =1,000,00 =0x1F.5",
    "1:75 1:5 1: :30 1:30: 1::30 1.5:30 1:30_km 1:00:00:00 1:30:15_min 1:60 1:300 1:30.5.5 1:30e3 4:",
    "1,000:30 0x1:30 1:30_ 1:30__h 1:30_min_ --1:30",
    "=1:75 =1:30_km =1:30:15_min =:30 =4:",
]
# Lines of EXPECTED_LINES left out of the comparison with the server's semantic tokens.
GRAMMAR_ONLY = {": dup 2 * ; : PI ; : π ; : Lastx ;", ": 12 ; : =x ; : ; : 4+ ; :#c", "1,250.00_EUR _tmp >$",
                *INVALID_NUMBERS}


def check_tokenizer(tokenizer, symbolic, constants, named):
    section("tokenizer: exact scopes for sample lines")
    for line, want in EXPECTED_LINES:
        try:
            got = tokenizer.segments(line)
        except AssertionError as error:
            check(False, f"tokenizes {line!r}", str(error))
            continue
        detail = ""
        if got != want:
            rows = []
            for k in range(max(len(got), len(want))):
                g = got[k] if k < len(got) else None
                w = want[k] if k < len(want) else None
                mark = "  " if g == w else "!!"
                rows.append(f"{mark} got {g!r:<55} want {w!r}")
            detail = "\n       ".join(rows)
        check(got == want, f"{line!r}", detail)

    section("tokenizer: every spelling of Builtins.swift, in every ASCII case")
    wrong = []
    for spelling in sorted(symbolic | constants | named):
        variants = {spelling, spelling.upper(), spelling.lower(), spelling.capitalize()} if spelling.isascii() else {spelling}
        scope = OP if spelling in symbolic else CONST if spelling in constants else FN
        for text in sorted(variants):
            for line, expected in ((text, [(text, scope)]), (f"1 {text} # c", [("1", NUM), (text, scope), ("#", COMMENT_MARK), (" c", COMMENT)])):
                got = tokenizer.segments(line)
                if got != expected:
                    wrong.append(f"{line!r}: {got}")
            if is_name_start(text[0]):
                got = tokenizer.segments("=" + text)
                if got != [("=" + text, RESERVED)]:
                    wrong.append(f"{'=' + text!r}: {got}")
    check(not wrong, f"{len(symbolic)} symbolic operators, {len(named)} named operators and {len(constants)} constants get their scopes; =name of each is reserved",
          "; ".join(wrong[:8]))
    bad = [(w, tokenizer.segments(w)) for w in NEAR_MISSES if any(s in (OP, FN, CONST) for _, s in tokenizer.segments(w))]
    check(not bad, "near-misses (Π, ſqrt, Kelvin sign, Pİ, sqr, dupe, pi2, ee, √√, +*) are not builtins", repr(bad))


# ---------------------------------------------------------------------------------------------
# 4. extension.js and its own LSP client

# The initialize parameters extension.js sends, as client-test.js printed them (None until then).
EXTENSION_PARAMS = None


def check_extension_js(server):
    global EXTENSION_PARAMS
    section("extension.js, client.js, features.js: syntax; the client under a stand-in for vscode, against the server")
    node = shutil.which("node")
    if not check(node is not None, "node is installed"):
        return
    for name in ("extension.js", "client.js", "features.js"):
        proc = subprocess.run([node, "--check", os.path.join(EXT, name)], capture_output=True, text=True)
        check(proc.returncode == 0, f"node --check {name}", proc.stderr.strip())
    # The word pattern, as VS Code compiles it (a JavaScript RegExp, global).
    conf = json.load(open(os.path.join(EXT, "language-configuration.json"), encoding="utf-8"))
    words = subprocess.run([node, "-e", "const [p, t] = process.argv.slice(1); "
                            "process.stdout.write(JSON.stringify(t.match(new RegExp(p, 'g'))))",
                            conf.get("wordPattern", ""), "=lunch 12.5\u00a0** 4+ dup#c −3"], capture_output=True, text=True)
    got = json.loads(words.stdout) if words.returncode == 0 else words.stderr.strip()
    check(got == ["lunch", "12.5", "**", "4+", "dup", "c", "−3"],
          "language-configuration wordPattern: a word is a token (a store's name without =)", repr(got))
    if not server:
        print("# the client against the server: skipped (no --server PATH/TO/rpn-lsp)")
        return
    proc = subprocess.run([node, os.path.join(HERE, "client-test.js"), server], capture_output=True, text=True, timeout=300)
    for line in proc.stdout.splitlines():
        if line.startswith("# initialize "):
            EXTENSION_PARAMS = json.loads(line[len("# initialize "):])
        elif line.startswith("ok   - "):
            check(True, "client: " + line[len("ok   - "):])
        elif line.startswith("FAIL - "):
            check(False, "client: " + line[len("FAIL - "):])
        else:
            print(line)
    check(proc.returncode == 0, "client-test.js exits 0", proc.stderr.strip()[-2000:])
    check(EXTENSION_PARAMS is not None, "client-test.js printed the initialize parameters extension.js sends")


DEFAULT_DISPLAY = {"notation": "auto", "decimals": 2, "grouping": False}
DEFAULT_HINTS = {"enabled": True, "maxItems": 8, "sections": True, "position": "afterTokens"}
DEFAULT_INIT = {"rpn": {"precision": 15, "angleUnit": "radians", "display": DEFAULT_DISPLAY,
                        "inlayHints": DEFAULT_HINTS}}


# ---------------------------------------------------------------------------------------------
# 5. The real server, started as the client starts it


class LspSession:
    """A minimal LSP client over stdio that answers the server's requests as VS Code would."""

    def __init__(self, argv, settings_section):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.settings_section = settings_section
        self.inbox = queue.Queue()
        self.notifications = []
        self.server_requests = []
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self.proc.stderr.read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            self.inbox.put(json.loads(out.read(length)))

    def send(self, message):
        body = json.dumps(dict(jsonrpc="2.0", **message)).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        # Like vscode-jsonrpc, no `params` at all when there are none (`exit`).
        self.send({"method": method} if params is None else {"method": method, "params": params})

    def request(self, method, params, timeout=20):
        ident = self.next_id
        self.next_id += 1
        self.send({"id": ident, "method": method} if params is None else {"id": ident, "method": method, "params": params})
        while True:
            message = self.inbox.get(timeout=timeout)
            if message is None:
                raise AssertionError(f"rpn-lsp closed its output while {method} was pending")
            if "method" in message and "id" in message:
                self.server_requests.append(message["method"])
                result = None
                if message["method"] == "workspace/configuration":
                    result = [self.settings_section if item.get("section") == "rpn" else None
                              for item in message.get("params", {}).get("items", [])]
                self.send({"id": message["id"], "result": result})
            elif "method" in message:
                self.notifications.append(message)
            elif message.get("id") == ident:
                if "error" in message:
                    raise AssertionError(f"{method} failed: {message['error']}")
                return message.get("result")

    def close(self):
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001 - the process is killed below anyway
            pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
            return None  # it did not exit by itself
        return self.proc.returncode


# What the parts of the server's semantic tokens and the grammar's scopes mean, side by side.
GRAMMAR_CLASS = {NUM: "number", OP: "operator", FN: "function", CONST: "constant", STORE: "store", VAR: "variable",
                 COMMENT: "comment", RESERVED: None, BAD_STORE: None, DEF: "keyword"}
# A check and a definition are one semantic token per capture: a check's `=` an operator and
# its value a number; a definition's `:` a keyword and its name a function's declaration.
CAPTURE_CLASS = {CHECK_SIGN: "operator", NUM: "number", DEF: "keyword", DEF_NAME: "definition", UNIT: "type"}
# A unit is a `type` to both; a unit word (`_km`, `>mi`) is one with its mark, a quantity's `_`
# is left out by the server (its number a `number`, its unit a `type`).


def server_class(kind, modifiers):
    if kind == "variable":
        return "constant" if "readonly" in modifiers else "store" if "declaration" in modifiers else "variable"
    if kind == "function" and "declaration" in modifiers:
        return "definition"
    if kind == "function" and "defaultLibrary" not in modifiers:
        # A use of a defined word: to a grammar, which cannot know what a name is bound to, it is
        # a name like a variable's.
        return "variable"
    return kind


def utf16(text, index):
    return len(text[:index].encode("utf-16-le")) // 2


def vscode_initialize_params(initialization_options):
    """What extension.js sends in initialize (as client-test.js printed it), with these
    initializationOptions; without it, the parts of VS Code's initialize that matter here:
    utf-16 only, no root (a lone file)."""
    if EXTENSION_PARAMS is not None:
        return dict(EXTENSION_PARAMS, processId=os.getpid(), rootPath=None, rootUri=None, workspaceFolders=None,
                    initializationOptions=initialization_options)
    return {
        "processId": os.getpid(),
        "clientInfo": {"name": "Visual Studio Code (stand-in)", "version": "1.82.0"},
        "rootPath": None,
        "rootUri": None,
        "workspaceFolders": None,
        "initializationOptions": initialization_options,
        "capabilities": {
            "general": {"positionEncodings": ["utf-16"]},
            "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": True},
                          "inlayHint": {"refreshSupport": True}, "semanticTokens": {"refreshSupport": True},
                          "codeLens": {"refreshSupport": True}, "symbol": {"dynamicRegistration": True}},
            "textDocument": {
                "synchronization": {"dynamicRegistration": True, "didSave": True},
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "inlayHint": {"dynamicRegistration": True},
                "codeLens": {"dynamicRegistration": True},
                "foldingRange": {"dynamicRegistration": True, "rangeLimit": 5000, "lineFoldingOnly": True,
                                 "foldingRangeKind": {"valueSet": ["comment", "imports", "region"]}},
                "selectionRange": {"dynamicRegistration": True},
                "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
                "publishDiagnostics": {"relatedInformation": True},
                "semanticTokens": {"dynamicRegistration": True, "requests": {"range": True, "full": {"delta": True}},
                                   "tokenTypes": ["number", "operator", "function", "variable", "comment", "keyword"],
                                   "tokenModifiers": ["declaration", "readonly", "defaultLibrary"],
                                   "formats": ["relative"]},
            },
        },
        "trace": "off",
    }


def with_stores(lines):
    """The lines after `0` and a store of every token, so that the server knows every name. Not of
    a quantity, a unit word or a format: no name, and `=->h:mm` would be a check of a number written wrongly
    to the server (`=-` starts one), which the grammar leaves uncoloured as it does `1:75`."""
    words = []
    for line in lines:
        for word in re.split("[" + WHITE_SPACE + "]+", line.split("#", 1)[0]):
            # A quantity (`3_box`) names nothing: `=3_box` would be a check, of a unit that a
            # line below may define.
            quantity = re.match(r"[0-9.,]+_[^0-9_]", word)
            if word and not word.startswith(("=", "_", ">", "->", "→")) and not quantity and word not in words:
                words.append(word)
    return ["0"] + ["=" + w for w in words] + lines


def compare_semantic_tokens(session, tokenizer, legend, uri, lines, what):
    text = "\n".join(lines) + "\n"
    session.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rpn", "version": 1, "text": text}})
    data = session.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})["data"]
    server = {}
    line = col = 0
    for k in range(0, len(data), 5):
        d_line, d_col, length, kind, mods = data[k:k + 5]
        line += d_line
        col = col + d_col if d_line == 0 else d_col
        modifiers = {m for b, m in enumerate(legend["tokenModifiers"]) if mods >> b & 1}
        server.setdefault(line, []).append((col, col + length, server_class(legend["tokenTypes"][kind], modifiers)))
    mismatches = []
    for n, source in enumerate(lines):
        grammar = []
        for start, end, rule, scopes in tokenizer.spans(source):
            if rule.key == "heading":
                # A heading is a comment to the server: one token from its first `#` to the line's end.
                grammar.append((utf16(source, source.index("#", start)), utf16(source, end), "comment"))
                continue
            if rule.name == UNIT:
                # A unit word, its mark with it, is one `type` to both.
                grammar.append((utf16(source, start), utf16(source, end), "type"))
                continue
            if rule.name not in GRAMMAR_CLASS:
                # A check or a definition: runs of characters by their innermost scope, one run
                # per capture (the white space between a definition's `:` and its name has none).
                k = start
                while k < end:
                    j = k
                    while j < end and scopes[j - start][-1:] == scopes[k - start][-1:]:
                        j += 1
                    if scopes[k - start]:
                        if scopes[k - start][-1] == UNIT:
                            k += 1  # a quantity's `_`: no token of the server's
                        grammar.append((utf16(source, k), utf16(source, j),
                                        CAPTURE_CLASS.get(scopes[k - start][-1], "?")))
                    k = j
                continue
            cls = GRAMMAR_CLASS.get(rule.name, "?" + str(rule.name))
            if cls:
                grammar.append((utf16(source, start), utf16(source, end), cls))
        if grammar != server.get(n, []):
            mismatches.append(f"line {n + 1} {source!r}: grammar {grammar} server {server.get(n, [])}")
    check(not mismatches, f"{what}: the grammar classifies every token as the server's semantic tokens do ({len(lines)} lines)",
          "\n       ".join(mismatches[:6]))
    session.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


def check_invalid_numbers(session):
    """Every token of INVALID_NUMBERS, which the grammar leaves uncoloured (or an invalid store),
    is an error to the server: a diagnostic over exactly that token."""
    uri = "file:///tmp/vscode-invalid-numbers.rpn"
    session.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rpn", "version": 1,
                                                             "text": "\n".join(INVALID_NUMBERS) + "\n"}})
    published = None
    for _ in range(20):
        # A request in between: the server publishes what it evaluated before answering.
        session.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})
        found = [n["params"]["diagnostics"] for n in session.notifications
                 if n.get("method") == "textDocument/publishDiagnostics" and dig(n, "params", "uri") == uri]
        if found:
            published = found[-1]
            break
        time.sleep(0.1)
    missing, codes = [], set()
    for n, line in enumerate(INVALID_NUMBERS):
        for token in re.finditer("[^" + WHITE_SPACE + "]+", line):
            span = (n, utf16(line, token.start()), n, utf16(line, token.end()))
            errors = [d for d in published or [] if d.get("severity") == 1 and span == (
                d["range"]["start"]["line"], d["range"]["start"]["character"],
                d["range"]["end"]["line"], d["range"]["end"]["character"])]
            codes.update(d.get("code") for d in errors)
            if not errors:
                missing.append(token.group())
    check(published is not None and not missing,
          f"numbers written wrongly, uncoloured by the grammar, are each an error to the server ({sorted(map(str, codes))})",
          f"no error over {missing}" if published is not None else "no publishDiagnostics for the document")
    session.notify("textDocument/didClose", {"textDocument": {"uri": uri}})


HINT_TAPE = ["2 3 /", "1 2 3 4 5 6 7 8 9 10", "90 sin"]


def inlay_hints(session, uri):
    result = session.request("textDocument/inlayHint", {"textDocument": {"uri": uri},
                                                       "range": {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 0}}})
    labels = {}
    for hint in result or []:
        label = hint["label"]
        labels[hint["position"]["line"]] = label if isinstance(label, str) else "".join(part["value"] for part in label)
    return [labels.get(n) for n in range(len(HINT_TAPE))]


def check_server(server, tokenizer):
    section(f"server: {server}, started as the extension starts it")
    # The extension runs the binary with --stdio, and sends its settings as initializationOptions.
    args = ["--stdio"]
    init = EXTENSION_PARAMS["initializationOptions"] if EXTENSION_PARAMS else DEFAULT_INIT
    section_value = {"precision": 3, "angleUnit": "degrees", "display": dict(DEFAULT_DISPLAY),
                     "inlayHints": {"enabled": True, "maxItems": 3}}
    session = LspSession([server] + args, section_value)
    try:
        result = session.request("initialize", vscode_initialize_params(init))
        caps = result.get("capabilities", {})
        encoding = caps.get("positionEncoding")
        check(encoding in (None, "utf-16"), "the server answers positionEncoding utf-16 (the only one the extension declares)",
              repr(encoding))
        check("inlayHintProvider" in caps and "hoverProvider" in caps and "completionProvider" in caps,
              "the server offers inlay hints, hover and completion", sorted(caps))
        legend = dig(caps, "semanticTokensProvider", "legend")
        check(legend is not None and dig(caps, "semanticTokensProvider", "full"), "the server offers full semantic tokens")
        session.notify("initialized", {})
        # The extension sends the settings again when one changes; unchanged here.
        session.notify("workspace/didChangeConfiguration", {"settings": DEFAULT_INIT})

        if legend:
            corpus = [line for line, _ in EXPECTED_LINES if line not in GRAMMAR_ONLY]
            builtins = [s for s, _ in builtins_from_swift()]
            corpus.append(" ".join(builtins))
            corpus.append(" ".join(b.upper() for b in builtins if b.isascii()))
            corpus.append(" ".join("=" + b for b in builtins))
            corpus.append(" ".join(NEAR_MISSES))
            corpus.append("🎉 1 # emoji before a token: UTF-16 columns differ from code points é")
            compare_semantic_tokens(session, tokenizer, legend, "file:///tmp/vscode-corpus.rpn", with_stores(corpus),
                                    "tricky lines and every builtin")
            sample = open(SAMPLE, encoding="utf-8").read().splitlines()
            compare_semantic_tokens(session, tokenizer, legend, "file:///tmp/vscode-sample.rpn", with_stores(sample),
                                    "EditorConfigs/sample.rpn")
        check_invalid_numbers(session)

        uri = "untitled:Untitled-1"
        session.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rpn", "version": 1,
                                                                 "text": "\n".join(HINT_TAPE) + "\n"}})
        got = inlay_hints(session, uri)
        want = ["[0.666666666666667]", "[… 3 4 5 6 7 8 9 10]", "[… 4 5 6 7 8 9 10 0.893996663600558]"]
        check(got == want, "inlay hints with extension.js's default initializationOptions (an untitled document)", f"{got}")
        session.notify("workspace/didChangeConfiguration", {"settings": {"rpn": section_value}})
        got = inlay_hints(session, uri)
        want = ["[0.667]", "[… 8 9 10]", "[… 9 10 1]"]
        check(got == want, "didChangeConfiguration {settings: {rpn: {precision 3, degrees, maxItems 3, …}}} changes the hints",
              f"{got}")
        check("workspace/inlayHint/refresh" in session.server_requests, "the server asks VS Code to refresh inlay hints",
              repr(session.server_requests))
        section_value["inlayHints"]["enabled"] = False
        session.notify("workspace/didChangeConfiguration", {"settings": {"rpn": section_value}})
        got = inlay_hints(session, uri)
        check(got == [None, None, None], "rpn.inlayHints.enabled false: no hints", f"{got}")
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        check(False, "an LSP session with rpn-lsp", f"{type(error).__name__}: {error}")
    finally:
        status = session.close()
    check(status == 0, "the server exits with status 0 after shutdown and exit", f"status {status}")

    # A second start, with user settings in initializationOptions.
    init = {"rpn": {"precision": 4, "angleUnit": "degrees", "inlayHints": {"enabled": True, "maxItems": 3}}}
    session = LspSession([server, "--stdio"], None)
    try:
        session.request("initialize", vscode_initialize_params(init))
        session.notify("initialized", {})
        uri = "file:///tmp/vscode-hints.rpn"
        session.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rpn", "version": 1,
                                                                 "text": "\n".join(HINT_TAPE) + "\n"}})
        got = inlay_hints(session, uri)
        check(got == ["[0.6667]", "[… 8 9 10]", "[… 9 10 1]"],
              "initializationOptions {rpn: {precision 4, degrees, maxItems 3}} apply from the start", f"{got}")
    except Exception as error:  # noqa: BLE001
        check(False, "a second LSP session with rpn-lsp", f"{type(error).__name__}: {error}")
    finally:
        session.close()


# A tape in sections: three comment lines (the first mentions `##` after `#`: no heading), then
# two sections. Each heading's summary, from the values above the section's base at its last line.
SECTIONS_TAPE = ["# A tape in sections: each ## heading starts one,", "# which runs to the next, and",
                 "# subtotal adds up what the section pushed.", "## Groceries", "12.5", "8", "## Rent", "900 45.50",
                 "subtotal"]
SECTIONS_SUMMARIES = {3: "Σ 20.5 · 2 values · avg 10.25", 6: "Σ 945.5 · 1 value · avg 945.5"}


def lens_rows(lenses):
    """Code lenses as (line, start, end, title, command), in line order."""
    return sorted((l["range"]["start"]["line"], l["range"]["start"]["character"], l["range"]["end"]["character"],
                   dig(l, "command", "title"), dig(l, "command", "command")) for l in lenses or [])


def heading_hints(session, uri):
    result = session.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": len(SECTIONS_TAPE), "character": 0}}})
    return {h["position"]["line"]: (h["label"] if isinstance(h["label"], str) else "".join(p["value"] for p in h["label"]),
                                    h["position"]["character"], h.get("paddingLeft"))
            for h in result or [] if h["position"]["line"] in SECTIONS_SUMMARIES}


def check_sections(server):
    """What VS Code shows of sections: the summaries as code lenses above the headings (refreshed
    when the server asks), as inlay hints at the headings' ends (rpn.inlayHints.sections), and the
    folding ranges."""
    section("server: sections, as VS Code asks for them (code lenses, folding ranges, inlay hints)")
    session = LspSession([server, "--stdio"], None)
    try:
        caps = session.request("initialize", vscode_initialize_params(DEFAULT_INIT)).get("capabilities", {})
        check("codeLensProvider" in caps and "foldingRangeProvider" in caps,
              "the server offers code lenses and folding ranges", sorted(caps))
        session.notify("initialized", {})
        uri = "file:///tmp/vscode-sections.rpn"
        session.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rpn", "version": 1,
                                                                 "text": "\n".join(SECTIONS_TAPE) + "\n"}})

        def want_lenses(summaries):
            return [(line, 0, len(SECTIONS_TAPE[line]), title, "") for line, title in sorted(summaries.items())]

        got = lens_rows(session.request("textDocument/codeLens", {"textDocument": {"uri": uri}}))
        check(got == want_lenses(SECTIONS_SUMMARIES),
              "textDocument/codeLens: one lens per heading, over it from its `#`, its summary the title, command \"\"",
              f"{got}")
        got = sorted((r["startLine"], r["endLine"], r.get("kind"))
                     for r in session.request("textDocument/foldingRange", {"textDocument": {"uri": uri}}) or [])
        check(got == [(0, 2, "comment"), (3, 5, "region"), (6, 8, "region")],
              "textDocument/foldingRange: the three comment lines, each section from its heading to its last line",
              f"{got}")
        want = {line: (title, len(SECTIONS_TAPE[line]), True) for line, title in SECTIONS_SUMMARIES.items()}
        got = heading_hints(session, uri)
        check(got == want, "rpn.inlayHints.sections true (the default): each summary is an inlay hint at its heading's end",
              f"{got}")

        # `8` becomes `18`: the server asks VS Code (which declares refreshSupport) for fresh lenses.
        session.server_requests.clear()
        session.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}}, "text": "1"}]})
        got = lens_rows(session.request("textDocument/codeLens", {"textDocument": {"uri": uri}}))
        edited = {**SECTIONS_SUMMARIES, 3: "Σ 30.5 · 2 values · avg 15.25"}
        check(got == want_lenses(edited), "after `8` became `18`: the Groceries lens says Σ 30.5 · 2 values · avg 15.25",
              f"{got}")
        check("workspace/codeLens/refresh" in session.server_requests,
              "the server asked VS Code to refresh the code lenses (workspace/codeLens/refresh)",
              repr(session.server_requests))

        section_value = {"precision": 15, "angleUnit": "radians",
                         "inlayHints": {"enabled": True, "maxItems": 8, "sections": False}}
        session.notify("workspace/didChangeConfiguration", {"settings": {"rpn": section_value}})
        got = heading_hints(session, uri)
        check(got == {}, "rpn.inlayHints.sections false: no inlay hint on the headings (the lenses stay)", f"{got}")
        got = lens_rows(session.request("textDocument/codeLens", {"textDocument": {"uri": uri}}))
        check(got == want_lenses(edited), "the lenses are still there", f"{got}")
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        check(False, "an LSP session with sections", f"{type(error).__name__}: {error}")
    finally:
        session.close()


# Comments aligned in a column, as people write them in a tape; the first line's column (after
# `=lunch`, before the comment) and the line's end.
ALIGNED_TAPE = ["12.50 =lunch  # sandwich", "8 =coffee     # espresso", "+             # total"]
AFTER_TOKENS = [(0, 12, "[12.5]"), (1, 9, "[12.5 8]"), (2, 1, "[20.5]")]
END_OF_LINE = [(n, len(line), label) for (n, _, label), line in zip(AFTER_TOKENS, ALIGNED_TAPE)]


def hint_places(session, uri, lines):
    """(line, character, label) of each hint on the tape's last len(ALIGNED_TAPE) lines, numbered
    from the first of them (a `# rpn:` line above shifts them)."""
    first = len(lines) - len(ALIGNED_TAPE)
    result = session.request("textDocument/inlayHint", {"textDocument": {"uri": uri}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": len(lines), "character": 0}}})
    return sorted((h["position"]["line"] - first, h["position"]["character"],
                   h["label"] if isinstance(h["label"], str) else "".join(p["value"] for p in h["label"]))
                  for h in result or [] if h["position"]["line"] >= first)


def check_position(server):
    """rpn.inlayHints.position, as extension.js sends it: where VS Code draws each line's stack hint
    on a tape with aligned comments, and a tape's own `# rpn: hints=`, which wins over it."""
    section("server: rpn.inlayHints.position (afterTokens, endOfLine) and a tape's # rpn: hints=")
    session = LspSession([server, "--stdio"], None)
    try:
        session.request("initialize", vscode_initialize_params(DEFAULT_INIT))
        session.notify("initialized", {})
        uri = "file:///tmp/vscode-aligned.rpn"
        session.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rpn", "version": 1,
                                                                 "text": "\n".join(ALIGNED_TAPE) + "\n"}})
        got = hint_places(session, uri, ALIGNED_TAPE)
        check(got == AFTER_TOKENS, "position afterTokens (the default): each hint right after the line's last token",
              f"{got}")
        session.server_requests.clear()
        session.notify("workspace/didChangeConfiguration",
                       {"settings": {"rpn": dict(DEFAULT_INIT["rpn"], inlayHints=dict(DEFAULT_HINTS, position="endOfLine"))}})
        got = hint_places(session, uri, ALIGNED_TAPE)
        check(got == END_OF_LINE, "position endOfLine: each hint at the line's end, after its comment", f"{got}")
        check("workspace/inlayHint/refresh" in session.server_requests,
              "the server asks VS Code to refresh inlay hints when the position changes", repr(session.server_requests))

        # A tape's own choice wins over the setting, either way.
        own = ["# rpn: hints=afterTokens"] + ALIGNED_TAPE
        uri = "file:///tmp/vscode-aligned-own.rpn"
        session.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rpn", "version": 1,
                                                                 "text": "\n".join(own) + "\n"}})
        got = hint_places(session, uri, own)
        check(got == AFTER_TOKENS, "# rpn: hints=afterTokens wins over rpn.inlayHints.position endOfLine", f"{got}")
        session.notify("workspace/didChangeConfiguration", {"settings": {"rpn": DEFAULT_INIT["rpn"]}})
        own[0] = "# rpn: hints=endOfLine"
        session.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                  "contentChanges": [{"text": "\n".join(own) + "\n"}]})
        got = hint_places(session, uri, own)
        check(got == END_OF_LINE, "# rpn: hints=endOfLine wins over rpn.inlayHints.position afterTokens", f"{got}")
    except Exception as error:  # noqa: BLE001 - reported as a failed check
        check(False, "an LSP session with rpn.inlayHints.position", f"{type(error).__name__}: {error}")
    finally:
        session.close()


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", help="an rpn-lsp binary: also run the LSP checks")
    parser.add_argument("--engine", choices=["onig", "re"], help="regex engine (default: onig if importable)")
    options = parser.parse_args()

    engine_name = options.engine
    if engine_name is None:
        try:
            import onigurumacffi  # noqa: F401
            engine_name = "onig"
        except ImportError:
            engine_name = "re"
    engine = Engine(engine_name)
    if engine_name == "onig":
        print(f"# regex engine: Oniguruma {engine.onig.__onig_version__} through onigurumacffi (as VS Code's vscode-oniguruma)")
    else:
        print("# regex engine: Python re, with \\p{L} and \\s translated exactly (onigurumacffi is not available)")

    check_manifest()
    grammar = load_json(os.path.join(EXT, "syntaxes", "rpn.tmLanguage.json"), "syntaxes/rpn.tmLanguage.json")
    tokenizer = None
    if grammar is not None:
        rules, symbolic, constants, named = check_grammar_structure(grammar, engine)
        tokenizer = Tokenizer(rules, engine)
        check_tokenizer(tokenizer, symbolic, constants, named)
    check_extension_js(os.path.abspath(options.server) if options.server else None)
    if options.server:
        if tokenizer is None:
            check(False, "the server checks need the grammar")
        else:
            check_server(os.path.abspath(options.server), tokenizer)
            check_sections(os.path.abspath(options.server))
            check_position(os.path.abspath(options.server))
    else:
        print("# server: skipped (no --server PATH/TO/rpn-lsp)")

    if failures:
        print(f"VS Code extension (EditorConfigs/vscode): {len(failures)} check(s) FAILED:")
        for what in failures:
            print(f"  - {what}")
        return 1
    print("VS Code extension (EditorConfigs/vscode): all checks passed "
          "(written and statically checked; not run in VS Code itself)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
