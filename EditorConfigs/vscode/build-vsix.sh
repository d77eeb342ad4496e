#!/usr/bin/env bash
# Packs this folder into a .vsix without npm or vsce, in the layout `vsce package` writes:
#   extension.vsixmanifest   the package manifest (PackageManifest 2.0.0: Identity, DisplayName,
#                            Description, Tags, Categories, Properties, Assets), as vsce fills it in
#   [Content_Types].xml      one content type per file extension in the package
#   extension/…              package.json, extension.js, client.js, features.js,
#                            language-configuration.json, syntaxes/, README.md (as
#                            extension/readme.md, where vsce puts it), and a LICENSE if the
#                            folder has one
# Files are chosen as vsce chooses them: everything here but what .vscodeignore and vsce's own
# defaults leave out, and node_modules/ (the extension has no dependencies, and this script
# refuses a package.json that lists some: `npx @vscode/vsce package` packs those).
#
#   EditorConfigs/vscode/build-vsix.sh [-o OUT.vsix]
#
# Writes rpn-lsp-VERSION.vsix in this folder unless -o says otherwise, and prints its path.
# Reproducible: the same files give the same bytes (entries sorted, dated SOURCE_DATE_EPOCH or
# 1980-01-01).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
exec python3 - "$here" "$@" <<'PY'
import fnmatch, json, os, re, sys, time, zipfile
from xml.sax.saxutils import escape as xml_escape

ext_dir = sys.argv[1]
args = sys.argv[2:]
out = None
while args:
    arg = args.pop(0)
    if arg == "-o" and args:
        out = os.path.abspath(args.pop(0))
    else:
        sys.exit("usage: build-vsix.sh [-o OUT.vsix]")


def fail(message):
    sys.exit(f"build-vsix.sh: {message}")


with open(os.path.join(ext_dir, "package.json"), encoding="utf-8") as f:
    manifest = json.load(f)

# What vsce checks before it packs (validateManifestForPackaging and the processors).
NAME = re.compile(r"[a-z0-9][a-z0-9\-]*", re.I)
for field in ("name", "publisher"):
    if not NAME.fullmatch(manifest.get(field) or ""):
        fail(f'package.json: "{field}" must be an identifier (letters, digits, -), not {manifest.get(field)!r}')
version = manifest.get("version") or ""
if not re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?", version):
    fail(f'package.json: "version" must be semver, not {version!r}')
engine = (manifest.get("engines") or {}).get("vscode") or ""
if not re.fullmatch(r"\*|(\^|>=)?(\d+|x)\.(\d+|x)\.(\d+|x)(-.*)?", engine):
    fail(f'package.json: "engines.vscode" must be a version range like ^1.82.0, not {engine!r}')
if manifest.get("main") and not manifest.get("activationEvents"):
    fail('package.json has "main" but no "activationEvents"')
if manifest.get("dependencies") or manifest.get("optionalDependencies"):
    fail('package.json has "dependencies": this script packs no node_modules/ (the extension needs only '
         "VS Code's API and Node.js); use `npx @vscode/vsce package` for an extension with dependencies")
if re.search(r"\.svg$", manifest.get("icon") or "", re.I):
    fail("package.json: the icon cannot be an SVG")


def glob_regex(pattern):
    """A minimatch pattern ({dot: true}, no matchBase) as a regex over a path relative to here."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


# vsce's defaultIgnore, then .vscodeignore; a pattern whose last part has no `*` also leaves out
# everything under it (a folder), as vsce reads it.
ignore = [".vscodeignore", "package-lock.json", "npm-debug.log", "yarn.lock", "yarn-error.log",
          "npm-shrinkwrap.json", ".editorconfig", ".npmrc", ".yarnrc", ".gitattributes", "*.todo",
          "tslint.yaml", ".eslintrc*", ".babelrc*", ".prettierrc*", ".cz-config.js", ".commitlintrc*",
          "webpack.config.js", "ISSUE_TEMPLATE.md", "CONTRIBUTING.md", "PULL_REQUEST_TEMPLATE.md",
          "CODE_OF_CONDUCT.md", ".github", ".travis.yml", "appveyor.yml", "**/.git", "**/.git/**",
          "**/*.vsix", "**/.DS_Store", "**/*.vsixmanifest", "**/.vscode-test/**", "**/.vscode-test-web/**"]
try:
    with open(os.path.join(ext_dir, ".vscodeignore"), encoding="utf-8") as f:
        ignore += [line.strip() for line in f if line.strip() and not line.lstrip().startswith("#")]
except FileNotFoundError:
    pass
keep = ["package.json", "README.md"]
negated = [p[1:] for p in ignore if p.startswith("!")] + keep
ignore = [p for p in ignore if not p.startswith("!")]
ignore += [p.rstrip("/") + "/**" for p in ignore if "*" not in p.split("/")[-1]]
ignored_res = [glob_regex(p) for p in ignore]
negated_res = [glob_regex(p) for p in negated]


def ignored(rel):
    return any(r.match(rel) for r in ignored_res) and not any(r.match(rel) for r in negated_res)


def files_under(root):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if "node_modules" in dirnames:
            dirnames.remove("node_modules")
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, ext_dir).replace(os.sep, "/")
            if os.path.isfile(full) and not ignored(rel):
                found.append(rel)
    return found


files = files_under(ext_dir)


main = manifest.get("main")
if main:
    main_rel = os.path.normpath(main).replace(os.sep, "/")
    if main_rel not in files and main_rel + ".js" not in files:
        fail(f"the entry point {main} is missing, or left out by .vscodeignore")

lowered = {}
for rel in files:
    lowered.setdefault(rel.lower(), []).append(rel)
clashes = [paths for paths in lowered.values() if len(paths) > 1]
if clashes:
    fail(f"files whose paths differ only in case, which a VSIX cannot hold: {clashes}")

# Paths in the package; README, CHANGELOG and LICENSE are renamed as vsce renames them.
entries, assets, license_path = {}, [("Microsoft.VisualStudio.Code.Manifest", "extension/package.json")], None
for rel in files:
    target = "extension/" + rel
    lower = rel.lower()
    if lower == "readme.md":
        target = "extension/readme.md"
        assets.append(("Microsoft.VisualStudio.Services.Content.Details", target))
    elif lower == "changelog.md":
        target = "extension/changelog.md"
        assets.append(("Microsoft.VisualStudio.Services.Content.Changelog", target))
    elif license_path is None and re.fullmatch(r"licen[cs]e(\.(md|txt))?", lower):
        if "." not in rel:
            target += ".txt"
        license_path = target
        assets.append(("Microsoft.VisualStudio.Services.Content.License", target))
    entries[target] = os.path.join(ext_dir, rel)
if license_path is None:
    print(f"build-vsix.sh: note: no LICENSE in {ext_dir}: the package names no license "
          "(as `vsce package --skip-license`)", file=sys.stderr)


def sanitize_tag(tag):
    return re.sub(r"[^\w.-]", "", tag)


# Tags as vsce's TagsProcessor makes them (keywords, then what the manifest contributes).
contributes = manifest.get("contributes") or {}
tags = list(manifest.get("keywords") or [])
for language in contributes.get("languages") or []:
    tags.append(language.get("id"))
    tags += [sanitize_tag(alias) for alias in language.get("aliases") or []]
    tags += ["__ext_" + sanitize_tag(e).replace(".", "", 1) for e in language.get("extensions") or []
             if sanitize_tag(e).replace(".", "", 1)]
tags += [m[1] for m in (re.fullmatch(r"onLanguage:(.*)", e) for e in manifest.get("activationEvents") or []) if m]
tags += [g.get("language") for g in contributes.get("grammars") or []]
if contributes.get("snippets"):
    tags.append("snippet")
if contributes.get("keybindings"):
    tags.append("keybindings")
tags = list(dict.fromkeys(t for t in tags if t))

kind = manifest.get("extensionKind")
if kind is None:
    kind = ["workspace", "web"] if manifest.get("main") and manifest.get("browser") else \
        ["workspace"] if manifest.get("main") else ["web"] if manifest.get("browser") else ["ui", "workspace", "web"]
elif isinstance(kind, str):
    kind = ["ui", "workspace"] if kind == "ui" else [kind]

repository = manifest.get("repository")
repository = repository.get("url") if isinstance(repository, dict) else repository
homepage = manifest.get("homepage")
bugs = manifest.get("bugs")
bugs = bugs.get("url") if isinstance(bugs, dict) else bugs


def attr(value):
    return xml_escape(str(value), {'"': "&quot;", "'": "&apos;"})


def prop(key, value):
    return f'      <Property Id="{key}" Value="{attr(value)}" />'


properties = [
    prop("Microsoft.VisualStudio.Code.Engine", engine),
    prop("Microsoft.VisualStudio.Code.ExtensionDependencies", ",".join(dict.fromkeys(manifest.get("extensionDependencies") or []))),
    prop("Microsoft.VisualStudio.Code.ExtensionPack", ",".join(dict.fromkeys(manifest.get("extensionPack") or []))),
    prop("Microsoft.VisualStudio.Code.ExtensionKind", ",".join(kind)),
    prop("Microsoft.VisualStudio.Code.LocalizedLanguages", ""),
    prop("Microsoft.VisualStudio.Code.EnabledApiProposals", ",".join(manifest.get("enabledApiProposals") or [])),
]
if manifest.get("main") or manifest.get("browser"):
    properties.append(prop("Microsoft.VisualStudio.Code.ExecutesCode", "true"))
if repository:
    properties += [prop("Microsoft.VisualStudio.Services.Links.Source", repository),
                   prop("Microsoft.VisualStudio.Services.Links.Getstarted", repository),
                   prop("Microsoft.VisualStudio.Services.Links.GitHub" if "github.com" in repository
                        else "Microsoft.VisualStudio.Services.Links.Repository", repository)]
if bugs:
    properties.append(prop("Microsoft.VisualStudio.Services.Links.Support", bugs))
if homepage:
    properties.append(prop("Microsoft.VisualStudio.Services.Links.Learn", homepage))
properties += [
    prop("Microsoft.VisualStudio.Services.GitHubFlavoredMarkdown", "false" if manifest.get("markdown") == "standard" else "true"),
    prop("Microsoft.VisualStudio.Services.Content.Pricing", manifest.get("pricing") or "Free"),
]
flags = "Public" + (" Preview" if manifest.get("preview") else "")
metadata_tail = [f"    <License>{xml_escape(license_path)}</License>"] if license_path else []

vsixmanifest = "\n".join([
    '<?xml version="1.0" encoding="utf-8"?>',
    '<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011" '
    'xmlns:d="http://schemas.microsoft.com/developer/vsx-schema-design/2011">',
    "  <Metadata>",
    f'    <Identity Language="en-US" Id="{attr(manifest["name"])}" Version="{attr(version)}" '
    f'Publisher="{attr(manifest["publisher"])}" />',
    f"    <DisplayName>{xml_escape(manifest.get('displayName') or manifest['name'])}</DisplayName>",
    f'    <Description xml:space="preserve">{xml_escape(manifest.get("description") or "")}</Description>',
    f"    <Tags>{xml_escape(','.join(tags))}</Tags>",
    f"    <Categories>{xml_escape(','.join(manifest.get('categories') or []))}</Categories>",
    f"    <GalleryFlags>{flags}</GalleryFlags>",
    "    <Properties>",
    *properties,
    "    </Properties>",
    *metadata_tail,
    "  </Metadata>",
    "  <Installation>",
    '    <InstallationTarget Id="Microsoft.VisualStudio.Code" />',
    "  </Installation>",
    "  <Dependencies />",
    "  <Assets>",
    *[f'    <Asset Type="{attr(t)}" Path="{attr(p)}" Addressable="true" />' for t, p in assets],
    "  </Assets>",
    "</PackageManifest>",
    "",
])

# The content types vsce writes (its defaults, then the `mime` package's type of each extension).
MIME = {".json": "application/json", ".vsixmanifest": "text/xml", ".js": "application/javascript",
        ".mjs": "application/javascript", ".md": "text/markdown",
        ".txt": "text/plain", ".png": "image/png", ".svg": "image/svg+xml", ".ts": "video/mp2t",
        ".yml": "text/yaml", ".yaml": "text/yaml", ".html": "text/html",
        ".css": "text/css", ".xml": "application/xml"}
extensions = {".json", ".vsixmanifest"} | {os.path.splitext(p)[1].lower() for p in entries if os.path.splitext(p)[1]}
content_types = ('<?xml version="1.0" encoding="utf-8"?>\n'
                 '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                 + "".join(sorted(f'<Default Extension="{attr(e)}" ContentType="{MIME.get(e, "application/octet-stream")}"/>'
                                  for e in extensions))
                 + "</Types>\n")

out = out or os.path.join(ext_dir, f"{manifest['name']}-{version}.vsix")
stamp = time.gmtime(max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800))[:6]


def add(zf, name, data):
    info = zipfile.ZipInfo(name, stamp)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o100644 << 16
    zf.writestr(info, data)


tmp = out + ".part"
with zipfile.ZipFile(tmp, "w") as zf:
    add(zf, "extension.vsixmanifest", vsixmanifest.encode("utf-8"))
    add(zf, "[Content_Types].xml", content_types.encode("utf-8"))
    for name in sorted(entries):
        with open(entries[name], "rb") as f:
            add(zf, name, f.read())
os.replace(tmp, out)
print(out)
PY
