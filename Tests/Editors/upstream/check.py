"""Checks the files rpn-lsp sends to editors' package managers (run.sh runs this, then Neovim):

  mason      EditorConfigs/neovim/upstream/mason/package.yaml: YAML with the `---` header, no CR,
             valid against mason-org/registry-schema's package schema (JSON Schema 2020-12, with
             formats, as the registry's lint validates it with ajv), what the registry's lint
             checks besides, and our own facts: the release assets, the version rpn-lsp reports,
             the nvim-lspconfig name, the license and the OWNER placeholder marked.
  lspconfig  EditorConfigs/neovim/upstream/lsp/rpn_lsp.lua, read as nvim-lspconfig's lint reads
             lsp/*.lua (@brief first, ---@type vim.lsp.Config, no user commands, no deprecated
             helpers) and in its StyLua style (2 spaces, 120 columns, single quotes). run.sh then
             runs it in Neovim 0.11 (nvim-test.lua).
  helix      EditorConfigs/helix/upstream/languages.toml: TOML, the keys check.py requires of
             EditorConfigs/helix/languages.toml for the server and the language, the same values
             as that file, and no grammar (rpn has none); merged into a copy of Helix's own
             languages.toml when one is given, that it still parses and nothing else claims rpn.
  vsix       EditorConfigs/vscode/build-vsix.sh, run on a copy of EditorConfigs/vscode: a package
             in vsce's layout whose extension.vsixmanifest has the shape vsce's XMLManifest type
             reads (src/xml.ts) and the values vsce writes, [Content_Types].xml covering every
             file, the same bytes twice, no node_modules; a package.json with dependencies is
             refused. Then the extension unpacked from the .vsix is activated under node with the
             stand-in for `vscode` (Tests/Editors/vscode/vscode-standin.js) and, with --server,
             talks to the real server: a diagnostic and the inlay hints of a tape.

    python3 check.py REPO [--server RPN_LSP] [--mason-schema DIR] [--helix-languages FILE]

DIR is a checkout of mason-org/registry-schema (its schemas/ folder); without it the schema check
fails. One line per check; exits 1 when one failed.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import yaml

passed = failed = 0


def check(condition, what, detail=None):
    global passed, failed
    if condition:
        passed += 1
        print(f"  ok    {what}", flush=True)
    else:
        failed += 1
        print(f"  FAIL  {what}" + (f": {detail}" if detail is not None else ""), flush=True)
    return bool(condition)


def skip(what, why):
    print(f"  skip  {what}: {why}", flush=True)


args = sys.argv[1:]
REPO = Path(args.pop(0)).resolve()
options = dict(zip(args[::2], args[1::2]))
SERVER = options.get("--server")
SCHEMA_DIR = options.get("--mason-schema")
HELIX_LANGUAGES = options.get("--helix-languages")

CONFIGS = REPO / "EditorConfigs"
MASON = CONFIGS / "neovim/upstream/mason/package.yaml"
LSPCONFIG = CONFIGS / "neovim/upstream/lsp/rpn_lsp.lua"
HELIX = CONFIGS / "helix/upstream/languages.toml"
VSCODE = CONFIGS / "vscode"

server_version = None
if SERVER:
    run = subprocess.run([SERVER, "--version"], capture_output=True, text=True, timeout=30)
    match = re.fullmatch(r"rpn-lsp (\S+)\s*", run.stdout)
    server_version = match[1] if match else None
has_license = any(p.is_file() and re.fullmatch(r"(?i)(licen[cs]e|copying)(\.\w+)?", p.name) for p in REPO.iterdir())


# --- Mason ------------------------------------------------------------------------------------

def mason_schema_validator(schema_dir):
    """The package schema with every component it references, each under its $id."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    resources, root = [], None
    for path in sorted(Path(schema_dir, "schemas").rglob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
        if path.name == "package.schema.json":
            root = schema
    if root is None:
        raise FileNotFoundError(f"{schema_dir}/schemas/package.schema.json")
    registry = Registry().with_resources(resources)
    return Draft202012Validator(root, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)


raw = MASON.read_bytes() if MASON.is_file() else b""
check(raw, f"mason: {MASON.relative_to(REPO)} exists")
text = raw.decode("utf-8", errors="replace")
check(b"\r" not in raw, "mason: no CR characters (the registry's lint)")
check(text.startswith("---\n"), "mason: starts with the YAML header `---` (the registry's CONTRIBUTING)")
long_lines = [n for n, line in enumerate(text.split("\n"), 1) if len(line) > 120]
check(not long_lines, "mason: no line longer than 120 columns (the registry's CONTRIBUTING)", f"lines {long_lines}")
try:
    package = yaml.safe_load(text)
    check(isinstance(package, dict), "mason: parses as YAML (a mapping)")
except yaml.YAMLError as error:
    package = None
    check(False, "mason: parses as YAML (a mapping)", error)
package = package if isinstance(package, dict) else {}

if SCHEMA_DIR and Path(SCHEMA_DIR, "schemas/package.schema.json").is_file():
    commit = subprocess.run(["git", "-C", SCHEMA_DIR, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "no git"
    try:
        validator = mason_schema_validator(SCHEMA_DIR)
        errors = sorted(validator.iter_errors(package), key=lambda e: list(e.absolute_path))
        check(not errors, f"mason: valid against mason-org/registry-schema ({commit}), formats included",
              "; ".join(f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:200]}" for e in errors))
        check(not validator.is_valid(dict(package, licenses=[])) and
              not validator.is_valid(dict(package, homepage="https://bad host/rpn-lsp")),
              "mason: the schema check can fail (no license, and a homepage that is no URI, are refused)")
    except Exception as error:  # a schema that does not load is a failed check, not a crash
        check(False, f"mason: valid against mason-org/registry-schema ({commit})", repr(error))
else:
    # GitHub is out of reach on some machines (CI's reaches only Debian's packages and PyPI):
    # the keys below are still checked, and the skip is said.
    skip("mason: valid against mason-org/registry-schema",
         f"no schema at {SCHEMA_DIR or '(none given)'} (GitHub out of reach?): clone "
         "https://github.com/mason-org/registry-schema there, or pass --mason-schema DIR")

check(package.get("name") == "rpn-lsp", "mason: name is rpn-lsp (so it goes to packages/rpn-lsp/package.yaml)",
      repr(package.get("name")))
check(package.get("categories") == ["LSP"], "mason: categories [LSP]", repr(package.get("categories")))
check(package.get("languages") == ["RPN"], "mason: languages [RPN]", repr(package.get("languages")))
source = package.get("source") or {}
assets = source.get("asset") or []
targets = {a.get("target"): a.get("file") for a in assets if isinstance(a, dict)}
check(targets == {"linux_x64_gnu": "rpn-lsp-linux-x86_64", "linux_arm64_gnu": "rpn-lsp-linux-aarch64"},
      "mason: the release assets rpn-lsp-linux-x86_64 and -aarch64, for glibc Linux (_gnu targets)", repr(targets))
check(package.get("bin") == {"rpn-lsp": "{{source.asset.file}}"}, "mason: bin rpn-lsp is the downloaded asset",
      repr(package.get("bin")))
match = re.fullmatch(r"pkg:github/([^/]+)/([^/@]+)@v(\d+\.\d+\.\d+)", source.get("id") or "")
check(match, "mason: source.id is pkg:github/OWNER/REPO@vX.Y.Z", repr(source.get("id")))
if match:
    check(package.get("homepage") == f"https://github.com/{match[1]}/{match[2]}",
          "mason: homepage is the repository of source.id", repr(package.get("homepage")))
    if server_version:
        check(match[3] == server_version, f"mason: source.id's version is rpn-lsp --version's ({server_version})",
              match[3])
    else:
        skip("mason: source.id's version is rpn-lsp --version's", "no --server given")
    if match[1] == "OWNER":
        check("OWNER is a placeholder" in text, "mason: the OWNER placeholder is marked as one in a comment")
check((package.get("neovim") or {}).get("lspconfig") == "rpn_lsp" and LSPCONFIG.is_file(),
      "mason: neovim.lspconfig is rpn_lsp, the name of lsp/rpn_lsp.lua beside it")
licenses = package.get("licenses")
if has_license:
    check(licenses and "proprietary" not in licenses, "mason: licenses name the repository's license", repr(licenses))
else:
    check(licenses == ["proprietary"] and "until the repository has a license" in text,
          "mason: no LICENSE file in the repository, so `proprietary`, said in a comment", repr(licenses))


# --- nvim-lspconfig ---------------------------------------------------------------------------

lua = LSPCONFIG.read_text(encoding="utf-8") if LSPCONFIG.is_file() else ""
lines = lua.split("\n")
check("brief" in lines[0], "lspconfig: `@brief` is on the first line (its lint: _check_brief_placement)", lines[0])
check(re.search(r"^---@type vim\.lsp\.Config\nreturn \{$", lua, re.M),
      "lspconfig: `---@type vim.lsp.Config` right above `return {` (its lint: _check_type)")
banned = [w for w in ("nvim_create_user_command", "workspace/executeCommand", "single_file_support",
                      "is_descendant", "search_ancestors", "validate_bufnr", "fn.cwd", "path.dirname") if w in lua]
check(not banned, "lspconfig: none of what its lint refuses (global commands, executeCommand, old util helpers)",
      repr(banned))
code = [line for line in lines if line and not line.startswith("--")]
check(code and code[0] == "return {" and code[-1] == "}",
      "lspconfig: the file only returns a config (nothing runs when it is loaded)", repr(code[:1] + code[-1:]))
check(not [l for l in code if "vim.lsp.enable" in l or "vim.filetype.add" in l],
      "lspconfig: the config enables nothing and adds no filetype itself (a user's call, per its CONTRIBUTING)")
style = []
for n, line in enumerate(lines, 1):
    if "\t" in line or "\r" in line:
        style.append(f"{n}: tab or CR")
    if len(line) > 120:
        style.append(f"{n}: {len(line)} columns")
    indent = len(line) - len(line.lstrip(" "))
    if not line.startswith("--") and indent % 2:
        style.append(f"{n}: indent {indent}")
    if not line.lstrip().startswith("--") and '"' in line:
        style.append(f"{n}: double quotes")
check(not style and lua.endswith("}\n"),
      "lspconfig: its StyLua style (2-space indents, 120 columns, single quotes, LF, a final newline)", style)
match = re.search(r"^--- (https://\S+)$", lua, re.M)
check(match and match[1] == package.get("homepage"), "lspconfig: the brief's link is Mason's homepage",
      repr(match and match[1]))
check(re.search(r"cmd = \{ 'rpn-lsp', '--stdio' \}", lua) and re.search(r"filetypes = \{ 'rpn' \}", lua),
      "lspconfig: cmd { 'rpn-lsp', '--stdio' }, filetypes { 'rpn' }")


# --- Helix ------------------------------------------------------------------------------------

def dig(value, *keys):
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


try:
    helix = tomllib.loads(HELIX.read_text(encoding="utf-8"))
    check(True, "helix: languages.toml parses (tomllib)")
except (OSError, tomllib.TOMLDecodeError) as error:
    helix = {}
    check(False, "helix: languages.toml parses (tomllib)", error)
local = tomllib.loads((CONFIGS / "helix/languages.toml").read_text(encoding="utf-8"))
server = dig(helix, "language-server", "rpn-lsp") or {}
check(server.get("command") == "rpn-lsp" and server.get("args") == ["--stdio"],
      "helix: [language-server] rpn-lsp is `rpn-lsp --stdio`", repr(server))
check(list(helix.get("language-server") or {}) == ["rpn-lsp"] and set(server) <= {"command", "args"},
      "helix: one server, with no settings (rpn-lsp's defaults; users add `config`)", repr(helix.get("language-server")))
languages = [lang for lang in helix.get("language", []) if lang.get("name") == "rpn"]
if check(len(languages) == 1 and len(helix.get("language", [])) == 1, "helix: one [[language]], named rpn"):
    language = languages[0]
    check(language.get("scope") == "source.rpn", "helix: scope is source.rpn (required)")
    check(language.get("file-types") == ["rpn"], 'helix: file-types is ["rpn"] (required)')
    check(language.get("comment-token") == "#", "helix: comment-token is #")
    check(language.get("roots", []) == [], "helix: roots is [] or left out (its default: single files work)")
    check(language.get("language-servers") == ["rpn-lsp"], 'helix: language-servers is ["rpn-lsp"]')
    check("grammar" not in language and "grammar" not in helix,
          "helix: no grammar (rpn has no tree-sitter grammar; Helix then gives no colours)")
    mine = next((lang for lang in local.get("language", []) if lang.get("name") == "rpn"), {})
    differ = [k for k in language if k != "roots" and language[k] != mine.get(k)]
    differ += [k for k in server if server[k] != dig(local, "language-server", "rpn-lsp", k)]
    check(not differ, "helix: the same values as EditorConfigs/helix/languages.toml (which adds settings)", differ)
if HELIX_LANGUAGES and Path(HELIX_LANGUAGES).is_file():
    theirs = Path(HELIX_LANGUAGES).read_text(encoding="utf-8")
    ours = HELIX.read_text(encoding="utf-8")
    server_line = re.search(r"^rpn-lsp = .*$", ours, re.M)[0]
    merged = re.sub(r"^\[language-server\]\n", lambda m: m[0] + server_line + "\n", theirs, count=1, flags=re.M)
    merged += "\n" + ours[re.search(r"^\[\[language\]\]$", ours, re.M).start():]
    try:
        upstream = tomllib.loads(merged)
        clash = [lang["name"] for lang in tomllib.loads(theirs).get("language", [])
                 if lang.get("name") == "rpn" or "rpn" in lang.get("file-types", [])]
        check(not clash and "rpn-lsp" not in tomllib.loads(theirs).get("language-server", {})
              and dig(upstream, "language-server", "rpn-lsp") == server,
              f"helix: merged into Helix's languages.toml ({HELIX_LANGUAGES}) it parses, and nothing there "
              "claims rpn or rpn-lsp", clash)
    except tomllib.TOMLDecodeError as error:
        check(False, "helix: merged into Helix's languages.toml, it parses", error)
else:
    skip("helix: merged into Helix's own languages.toml", "no copy given (--helix-languages FILE)")


# --- VS Code ----------------------------------------------------------------------------------

# vsce's XMLManifest (src/xml.ts): the elements and attributes it reads from extension.vsixmanifest.
NS = "{http://schemas.microsoft.com/developer/vsx-schema/2011}"
METADATA = {"Identity", "DisplayName", "Description", "Tags", "GalleryFlags", "License", "Icon", "Properties",
            "Categories", "Badges"}


def manifest_problems(root, pkg, names):
    problems = []
    if root.tag != NS + "PackageManifest" or root.get("Version") != "2.0.0":
        return [f"root {root.tag} Version={root.get('Version')}"]
    children = [c.tag.removeprefix(NS) for c in root]
    if children != ["Metadata", "Installation", "Dependencies", "Assets"]:
        problems.append(f"PackageManifest holds {children}")
    meta = root.find(NS + "Metadata")
    extra = {c.tag.removeprefix(NS) for c in meta} - METADATA if meta is not None else {"no Metadata"}
    if extra:
        problems.append(f"Metadata holds {sorted(extra)}")
    identity = root.find(f"{NS}Metadata/{NS}Identity")
    want = {"Language": "en-US", "Id": pkg["name"], "Version": pkg["version"], "Publisher": pkg["publisher"]}
    if identity is None or dict(identity.attrib) != want:
        problems.append(f"Identity {identity.attrib if identity is not None else None} != {want}")
    texts = {"DisplayName": pkg.get("displayName", pkg["name"]), "Description": pkg.get("description", ""),
             "Categories": ",".join(pkg.get("categories", [])), "GalleryFlags": "Public"}
    for tag, value in texts.items():
        if root.findtext(f"{NS}Metadata/{NS}{tag}") != value:
            problems.append(f"{tag} is {root.findtext(f'{NS}Metadata/{NS}{tag}')!r}, not {value!r}")
    description = root.find(f"{NS}Metadata/{NS}Description")
    if description is None or description.get("{http://www.w3.org/XML/1998/namespace}space") != "preserve":
        problems.append('Description lacks xml:space="preserve"')
    tags = (root.findtext(f"{NS}Metadata/{NS}Tags") or "").split(",")
    for tag in pkg.get("keywords", []) + ["rpn", "__ext_rpn"]:
        if tag not in tags:
            problems.append(f"Tags lack {tag}")
    props = {}
    for p in root.findall(f"{NS}Metadata/{NS}Properties/{NS}Property"):
        if set(p.attrib) != {"Id", "Value"}:
            problems.append(f"Property {p.attrib}")
        props[p.get("Id")] = p.get("Value")
    want_props = {"Microsoft.VisualStudio.Code.Engine": pkg["engines"]["vscode"],
                  "Microsoft.VisualStudio.Code.ExtensionKind": "workspace",
                  "Microsoft.VisualStudio.Code.ExecutesCode": "true",
                  "Microsoft.VisualStudio.Services.Content.Pricing": "Free"}
    for key, value in want_props.items():
        if props.get(key) != value:
            problems.append(f"Property {key} is {props.get(key)!r}, not {value!r}")
    targets = [t.get("Id") for t in root.findall(f"{NS}Installation/{NS}InstallationTarget")]
    if targets != ["Microsoft.VisualStudio.Code"]:
        problems.append(f"InstallationTarget {targets}")
    assets = {a.get("Type"): a.get("Path") for a in root.findall(f"{NS}Assets/{NS}Asset")}
    if assets.get("Microsoft.VisualStudio.Code.Manifest") != "extension/package.json":
        problems.append("no Manifest asset extension/package.json")
    if assets.get("Microsoft.VisualStudio.Services.Content.Details") != "extension/readme.md":
        problems.append("no Details asset extension/readme.md")
    problems += [f"asset {path} is not in the package" for path in assets.values() if path not in names]
    return problems


def build(ext, out, *flags):
    return subprocess.run(["bash", str(ext / "build-vsix.sh"), "-o", str(out), *flags],
                          capture_output=True, text=True, timeout=120)


ACTIVATE = r"""
// Activates the extension unpacked from a .vsix, with the stand-in for `vscode` (what VS Code
// itself provides): everything else it requires must come from the package. With a server, opens
// a tape and reports its diagnostics and inlay hints. Prints a JSON line.
const [standin, dir, server] = process.argv.slice(2);
const { makeVscode, install } = require(standin);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
(async () => {
  const extensionDir = dir + '/extension';
  const { vscode, host } = makeVscode({ extensionDir, settings: server ? { 'rpn.server.path': server } : {} });
  install(vscode);
  const result = { activated: false };
  try {
    const extension = require(extensionDir + '/' + require(extensionDir + '/package.json').main);
    const tape = host.open('/tmp/rpn-vsix-lunch.rpn', '12.50 =lunch\n8 =coffee\n+\n3 /\nsqr\n');
    await extension.activate({ subscriptions: [] });
    result.activated = true;
    result.errors = host.record.events.filter((e) => e[0] === 'error').map((e) => e[1]);
    if (server) {
      for (let i = 0; i < 500 && !host.record.diagnostics.has(tape.uri.toString()); i++) await sleep(20);
      result.diagnostics = (host.record.diagnostics.get(tape.uri.toString()) || []).map((d) => d.code);
      const token = new vscode.CancellationTokenSource().token;
      const hints = await host.provider('InlayHints', tape).provider.provideInlayHints(tape, new vscode.Range(0, 0, 6, 0), token);
      result.hints = (hints || []).map((h) => h.label);
    }
    await extension.deactivate();
  } catch (error) {
    result.error = String(error && error.stack || error).split('\n').slice(0, 3).join(' | ');
  }
  console.log(JSON.stringify(result));
  process.exit(0);
})();
"""


def activate(vsix, scratch):
    unpacked = Path(tempfile.mkdtemp(dir=scratch))
    with zipfile.ZipFile(vsix) as zf:
        zf.extractall(unpacked)
    script = scratch / "activate.js"
    script.write_text(ACTIVATE)
    standin = REPO / "Tests" / "Editors" / "vscode" / "vscode-standin.js"
    argv = ["node", str(script), str(standin), str(unpacked)] + ([str(Path(SERVER).resolve())] if SERVER else [])
    run = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=dict(os.environ, NODE_PATH=""))
    try:
        return json.loads(run.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {"activated": False, "error": (run.stdout + run.stderr)[-300:]}


pkg = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
source_files = {"package.json": "extension/package.json", pkg["main"].removeprefix("./"): None,
                "client.js": None, "features.js": None, "README.md": "extension/readme.md"}
for language in dig(pkg, "contributes", "languages") or []:
    source_files[language["configuration"].removeprefix("./")] = None
for grammar in dig(pkg, "contributes", "grammars") or []:
    source_files[grammar["path"].removeprefix("./")] = None
expected = {v or f"extension/{k}" for k, v in source_files.items()}
expected |= {f"extension/{p.name}" + ("" if p.suffix else ".txt") for p in VSCODE.iterdir()
             if re.fullmatch(r"(?i)licen[cs]e(\.(md|txt))?", p.name)}

with tempfile.TemporaryDirectory(prefix="rpn-vsix-") as scratch:
    scratch = Path(scratch)
    ext = scratch / "vscode"
    shutil.copytree(VSCODE, ext, ignore=shutil.ignore_patterns("node_modules", "*.vsix"))
    (ext / "node_modules" / "left-over").mkdir(parents=True)
    (ext / "node_modules" / "left-over" / "index.js").write_text("module.exports = {};\n")
    bare = build(ext, scratch / "bare.vsix")
    if check(bare.returncode == 0 and (scratch / "bare.vsix").is_file(),
             "vsix: build-vsix.sh builds it (no npm, no flags)", bare.stderr.strip()[-300:]):
        with zipfile.ZipFile(scratch / "bare.vsix") as zf:
            names = zf.namelist()
            check(zf.testzip() is None, "vsix: a sound zip (every entry's CRC checks)")
            check(names[:2] == ["extension.vsixmanifest", "[Content_Types].xml"]
                  and all(n.startswith("extension/") for n in names[2:]),
                  "vsix: extension.vsixmanifest, [Content_Types].xml, then everything under extension/", names[:3])
            lowered = [n.lower() for n in names]
            check(len(set(lowered)) == len(lowered) and not [n for n in names if ".." in n.split("/")],
                  "vsix: no two paths differing only in case, no `..`")
            check(set(names[2:]) == expected, "vsix: exactly the extension's files (package.json, "
                  f"{pkg['main']}, client.js, features.js, language configuration, grammar, readme.md; no script, "
                  "no .vscodeignore, no node_modules)",
                  f"extra {sorted(set(names[2:]) - expected)}, missing {sorted(expected - set(names[2:]))}")
            check(zf.read("extension/package.json") == (VSCODE / "package.json").read_bytes(),
                  "vsix: extension/package.json is package.json, unchanged")
            packed = json.loads(zf.read("extension/package.json"))
            semver_ok = re.fullmatch(r"\d+\.\d+\.\d+", packed.get("version", ""))
            engine_ok = re.fullmatch(r"(\^|>=)?\d+\.\d+\.\d+", dig(packed, "engines", "vscode") or "")
            check(re.fullmatch(r"[a-z0-9][a-z0-9-]*", packed.get("name", ""), re.I)
                  and re.fullmatch(r"[a-z0-9][a-z0-9-]*", packed.get("publisher", ""), re.I)
                  and semver_ok and engine_ok and packed.get("activationEvents") and packed.get("main"),
                  "vsix: its package.json passes vsce's validateManifestForPackaging rules "
                  "(name, publisher, semver, engines.vscode, main with activationEvents)")
            try:
                root = ET.fromstring(zf.read("extension.vsixmanifest"))
                problems = manifest_problems(root, pkg, names)
            except ET.ParseError as error:
                problems = [f"not XML: {error}"]
            check(not problems, "vsix: extension.vsixmanifest has the shape of vsce's XMLManifest and vsce's "
                  "values (Identity, DisplayName, Description, Tags, Categories, Engine, ExtensionKind, Assets)",
                  problems)
            try:
                types = ET.fromstring(zf.read("[Content_Types].xml"))
                ct_ns = "{http://schemas.openxmlformats.org/package/2006/content-types}"
                defaults = {d.get("Extension"): d.get("ContentType") for d in types.findall(ct_ns + "Default")}
                exts = {os.path.splitext(n)[1].lower() for n in names[2:] if os.path.splitext(n)[1]}
                ok = (types.tag == ct_ns + "Types" and exts <= set(defaults)
                      and defaults.get(".json") == "application/json" and defaults.get(".vsixmanifest") == "text/xml"
                      and defaults.get(".js") == "application/javascript" and all(defaults.values()))
                check(ok, "vsix: [Content_Types].xml gives every file extension a content type", defaults)
            except ET.ParseError as error:
                check(False, "vsix: [Content_Types].xml parses", error)
        again = build(ext, scratch / "again.vsix")
        check(again.returncode == 0 and (scratch / "again.vsix").read_bytes() == (scratch / "bare.vsix").read_bytes(),
              "vsix: reproducible (a second build gives the same bytes)")
        result = activate(scratch / "bare.vsix", scratch)
        check(result["activated"] and not result.get("error") and not result.get("errors"),
              "vsix: unpacked, the extension activates under node with only `vscode` stood in "
              "(it requires nothing from npm)", result)
        if SERVER:
            check(result.get("diagnostics") == ["unknown-word"]
                  and result.get("hints") == ["[12.5]", "[12.5 8]", "[20.5]", "[6.83333333333333]", "[6.83333333333333]"],
                  "vsix: unpacked, it runs the real server: the tape's diagnostic (`sqr`) and its inlay hints", result)
        else:
            skip("vsix: unpacked, it runs the real server", "no --server given")

    manifest = json.loads((ext / "package.json").read_text(encoding="utf-8"))
    manifest["dependencies"] = {"left-pad": "^1.3.0"}
    (ext / "package.json").write_text(json.dumps(manifest))
    refused = build(ext, scratch / "refused.vsix")
    check(refused.returncode != 0 and "dependencies" in refused.stderr and not (scratch / "refused.vsix").exists(),
          "vsix: a package.json with dependencies is refused, saying why (the script packs no node_modules)",
          f"exit {refused.returncode}: {refused.stderr.strip()[-300:]}")

print(f"check.py: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
