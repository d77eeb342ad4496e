# rpn-lsp for Kakoune with kakoune-lsp 18 or later (https://github.com/kakoune-lsp/kakoune-lsp;
# 18.0.0 brought in the `lsp_servers` option used below): `.rpn` calculator tapes get a filetype,
# comment settings, a small highlighter, and rpn-lsp (diagnostics, hover, completion, each line's
# stack as an inlay hint). Put this file in ~/.config/kak/autoload/ (with a symlink there to
# Kakoune's own autoload folder, /usr/share/kak/autoload with Debian's kakoune, as Kakoune's
# README says), or in /usr/share/kak/autoload/ itself for every user without their own autoload
# folder, or `source` it from your kakrc. kakoune-lsp itself is enabled in your kakrc as its
# README says, e.g.:
#   eval %sh{kak-lsp}
#   lsp-enable

# Filetype detection.
hook global BufCreate .*\.rpn %{
    set-option buffer filetype rpn
}

# The language server. `command` defaults to the table's name (`rpn-lsp`, found on PATH); set
# `command = "/path/to/rpn-lsp"` to use another binary. kakoune-lsp sends the `rpn` settings
# section as initializationOptions and on workspace/didChangeConfiguration.
# (Without kakoune-lsp loaded the option does not exist, and the `try` keeps that quiet.)
hook -group lsp-filetype-rpn global BufSetOption filetype=rpn %{
    try %{
        set-option buffer lsp_servers %{
            [rpn-lsp]
            args = ["--stdio"]
            root_globs = [".git", ".hg"]
            settings_section = "rpn"
            [rpn-lsp.settings.rpn]
            precision = 15
            angleUnit = "radians"
            display.notation = "auto"
            display.decimals = 2
            display.grouping = false
            inlayHints.enabled = true
            inlayHints.maxItems = 8
            inlayHints.position = "afterTokens"
        }
    }
}

# Comments, highlighting, and inlay hints (off by default in kakoune-lsp) for .rpn windows.
hook global WinSetOption filetype=rpn %{
    set-option window comment_line '#'
    add-highlighter window/rpn ref rpn
    # Only when kakoune-lsp is loaded; without it this does nothing.
    try %{ lsp-inlay-hints-enable window }
    hook -once -always window WinSetOption filetype=.* %{
        remove-highlighter window/rpn
        try %{ lsp-inlay-hints-disable window }
    }
}

# A token is what lies between white space and `#`, so each pattern must match a whole token:
# `4+` is one unknown word. rpn-lsp's diagnostics mark the mistakes.
add-highlighter shared/rpn regions
add-highlighter shared/rpn/code default-region group
# A line that holds only a comment starting with `##` is a heading (`## Groceries`): it starts a
# section, and gets the `title` face. Defined before the comment region, which starts at the same
# `#` on such a line: of two regions that start together, Kakoune takes the first defined. After a
# token (`1 2 ## x`) `##` starts a plain comment.
add-highlighter shared/rpn/heading region '^\h*##' '$' fill title
add-highlighter shared/rpn/comment region '#' '$' fill comment
# Names (a variable's or a defined word's: regexes cannot tell them apart), stores, the name a
# definition `: hyp sq swap sq + sqrt ;` defines, then the builtins over them (ASCII
# case-insensitive: `: dup` keeps `dup` a builtin, which cannot be defined), numbers and checks,
# and a definition's `:` and `;` (tokens of their own: `4:` is a time written wrongly, `x;` an
# unknown word).
add-highlighter shared/rpn/code/variable regex %{(?<!\S)[^\W\d_]\w*(?=[\s#])} 0:variable
add-highlighter shared/rpn/code/store regex %{(?<!\S)=[^\W\d_]\w*(?=[\s#])} 0:variable
add-highlighter shared/rpn/code/definition regex %{(?<!\S):[^\S\n]+([^\W\d_]\w*)(?=[\s#])} 1:function
add-highlighter shared/rpn/code/function regex %{(?i)(?<!\S)(?:pow|mod|min|max|neg|chs|abs|inv|sqrt|sq|exp|ln|log10|log2|log|asinh|acosh|atanh|atan2|asin|acos|atan|sinh|cosh|tanh|sin|cos|tan|floor|ceil|round|trunc|fact|dup|drop|swap|over|rot|clear|depth|pick|roll|lastx|sum|avg|mean|sdev|subtotal|uval|ubase)(?=[\s#])} 0:function
add-highlighter shared/rpn/code/constant regex %{(?i)(?<!\S)(?:pi|π|e)(?=[\s#])} 0:value
add-highlighter shared/rpn/code/operator regex %{(?<!\S)(?:\*\*|[-+*/^%×÷−√]|%(?:[cC][hH]|[tT]))(?=[\s#])} 0:operator
# A number: an optional sign (`+`, `-`, U+2212), then an integer in hex, octal or binary (`0x1F`,
# `0o17`, `0b1010`, any case, `_` between two digits), a time or angle in fields of sixty
# (`1:30`, `1:30:15`, `1:30:15.5`: digits, then `:` and two digits 00 to 59, once or twice, a
# fraction only in the last field), or digits with an optional fraction and exponent whose whole
# part may be grouped in thousands (`1,234,567.89`: one to three digits, then `,` and exactly
# three, again and again). Other commas (`1,5`, `12,34`) and colons (`1:75`, `1:5`, `4:`, `:30`,
# `1::30`, `1.5:30`, `1:00:00:00`) make no number.
add-highlighter shared/rpn/code/number regex %{(?<!\S)[-+−]?(?:0(?:[xX][0-9A-Fa-f](?:_?[0-9A-Fa-f])*|[oO][0-7](?:_?[0-7])*|[bB][01](?:_?[01])*)|\d+:[0-5]\d(?::[0-5]\d)?(?:\.\d*)?|(?:(?:\d(?:_?\d){0,2}(?:,\d(?:_?\d){2})+|\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][-+]?\d+)?)(?=[\s#])} 0:value
# A check `=20.5` (`=1,234.50`, `=0xFF`, `=2:15`): the `=` as an operator, the number after it as
# a value; the whole token only.
add-highlighter shared/rpn/code/check regex %{(?<!\S)(=)([-+−]?(?:0(?:[xX][0-9A-Fa-f](?:_?[0-9A-Fa-f])*|[oO][0-7](?:_?[0-7])*|[bB][01](?:_?[01])*)|\d+:[0-5]\d(?::[0-5]\d)?(?:\.\d*)?|(?:(?:\d(?:_?\d){0,2}(?:,\d(?:_?\d){2})+|\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][-+]?\d+)?))(?=[\s#])} 1:operator 2:value
# A quantity `12_km` (`9.81_m/s^2`, `-40_°C`, `1,250.00_EUR`): a decimal number (no `0x`, `0o`
# or `0b` integer), `_` and a unit expression, one token: the number a `value`, the unit (with
# its `_`, as the unit word `_km`) a `type`. A unit expression is unit names (letters and
# marks, and $ ° ′ ″ ∆ £ ¥ €), each with an optional power of 1 to 99 in size (`^2`, `^-1`, `²`,
# `⁻¹`), joined by `*` or `·`, then at most one `/` and a name or a product in parentheses
# (`J/(kg*K)`). After a number an `_` before a digit separates digits (`1_000_km` is 1000 km), so
# a quantity's unit starts with a name. Whether a name is in the unit table is the server's to
# say (`unknown-unit`): any well-formed unit is coloured.
add-highlighter shared/rpn/code/quantity regex %{(?<!\S)([-+−]?(?:(?:(?:\d(?:_?\d){0,2}(?:,\d(?:_?\d){2})+|\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][-+]?\d+)?))(_(?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?(?:[*·](?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*(?:/(?:(?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?|\((?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?(?:[*·](?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*\)))?)(?=[\s#])} 1:value 2:type
# A check of a quantity `=12.5_km`: the `=` an operator, the number a value, the unit a type.
add-highlighter shared/rpn/code/quantity_check regex %{(?<!\S)(=)([-+−]?(?:(?:(?:\d(?:_?\d){0,2}(?:,\d(?:_?\d){2})+|\d(?:_?\d)*)(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][-+]?\d+)?))(_(?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?(?:[*·](?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*(?:/(?:(?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?|\((?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?(?:[*·](?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*\)))?)(?=[\s#])} 1:operator 2:value 3:type
# A time or angle in a unit (`4:35_min`, `48:46:32_°`, `1:30_h`): two fields in `h`, `min`, `°` or
# `deg`, or three in `h`, `°` or `deg` (minutes have `min:ss` only: `1:30:15_min` is none); its
# fields a `value`, its unit with the `_` a `type`, as a quantity's. A unit other than these
# (`1:30_km`) makes none. Then a check of one, `=4:35_min`.
add-highlighter shared/rpn/code/sexagesimal_quantity regex %{(?<!\S)(?:([-+−]?\d+:[0-5]\d(?:\.\d*)?)(_(?:h|min|°|deg))|([-+−]?\d+:[0-5]\d:[0-5]\d(?:\.\d*)?)(_(?:h|°|deg)))(?=[\s#])} 1:value 2:type 3:value 4:type
add-highlighter shared/rpn/code/sexagesimal_quantity_check regex %{(?<!\S)(=)(?:([-+−]?\d+:[0-5]\d(?:\.\d*)?)(_(?:h|min|°|deg))|([-+−]?\d+:[0-5]\d:[0-5]\d(?:\.\d*)?)(_(?:h|°|deg)))(?=[\s#])} 1:operator 2:value 3:type 4:value 5:type
# Unit words, tokens of their own, in `type`: `_km` gives the number before it a unit (`_1/s`
# too), `>mi`, `->mi` and `→mi` convert to another unit (`>km/h`, `>°F`).
add-highlighter shared/rpn/code/unit regex %{(?<!\S)(?:_|>|->|→)(?:(?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?(?:[*·](?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*(?:/(?:(?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?|\((?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?(?:[*·](?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*\)))?|1/(?:(?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?|\((?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?(?:[*·](?:[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹⁻]|[$°′″∆£¥€])+(?:\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*\)))(?=[\s#])} 0:type
# A format that `>` converts to, as it does to a unit (`>h:mm`, `->h:mm:ss`, `→min:ss`, `>°:mm`,
# `>deg:mm:ss`), in `type`; any other `>x:y` (`>h:m`, `>hh:mm`) is none.
add-highlighter shared/rpn/code/format regex %{(?<!\S)(?:>|->|→)(?:h:mm(?::ss)?|min:ss|(?:°|deg):mm(?::ss)?)(?=[\s#])} 0:type
# A definition's `:` and `;` as keywords.
add-highlighter shared/rpn/code/keyword regex %{(?<!\S)[:;](?=[\s#])} 0:keyword
