;;; rpn-mode.el --- Major mode for .rpn calculator tapes -*- lexical-binding: t -*-

;; Keywords: languages
;; Package-Requires: ((emacs "27.1"))

;;; Commentary:

;; `rpn-mode' edits `.rpn' calculator tapes: `#' comments,
;; and font-lock for numbers, operators, constants, `=name' stores,
;; `=20.5' checks, definitions `: hyp sq swap sq + sqrt ;' and headings
;; `## Groceries', which start sections (`imenu' lists them, and
;; `outline-minor-mode' folds them).  It derives from `prog-mode'.
;;
;; The language server rpn-lsp adds diagnostics, hover, completion and
;; each line's stack as an inlay hint.  Connect it with eglot
;; (rpn-eglot.el) or lsp-mode (rpn-lsp-mode.el).  Where eglot has no
;; inlay hints (before 1.12: Emacs 28), rpn-mode draws each line's stack,
;; and its diagnostics' messages, at the line's end itself
;; (`rpn-line-end-stacks').  Both start the command
;; `rpn-lsp-server-command' returns: `rpn-lsp-command' (by default
;; ("rpn-lsp" "--stdio")), or $RPN_LSP while that is left at its default.
;;
;; Install: put this folder on `load-path', then
;;   (require 'rpn-eglot)        ; or (require 'rpn-lsp-mode) for lsp-mode
;; README.md beside this file says more.

;;; Code:

(defgroup rpn nil
  "Calculator tapes in reverse Polish notation, and the rpn-lsp server."
  :group 'languages
  :prefix "rpn-")

(defconst rpn-lsp-default-command '("rpn-lsp" "--stdio")
  "The default value of `rpn-lsp-command'.")

(defcustom rpn-lsp-command rpn-lsp-default-command
  "How to start the rpn-lsp language server: a program and its arguments.
A list of strings, e.g. (\"/opt/rpn/bin/rpn-lsp\" \"--stdio\"), or a
string naming the program alone (\"--stdio\" is then added).  While this
is left at its default, the environment variable RPN_LSP, when set,
names the program instead of \"rpn-lsp\"."
  :type '(choice (string :tag "Program")
                 (repeat :tag "Program and arguments" string))
  :group 'rpn)

(defcustom rpn-lsp-settings nil
  "Settings for rpn-lsp, sent as initializationOptions.
A plist, e.g. (:angleUnit \"degrees\" :precision 10 :inlayHints
\(:maxItems 4) :display (:notation \"fixed\" :decimals 2 :grouping t)),
sent under \"rpn\".  :display says how values are written: :notation
\"auto\", \"fixed\", \"scientific\" or \"engineering\"; :decimals 0 to 15
\(digits after the point); :grouping t for commas between thousands
\(:json-false for none).  :inlayHints takes :maxItems (1 to 1000) and
:position, \"afterTokens\" (each line's stack right after its last
token) or \"endOfLine\" (after its comment, so that aligned comments
stay aligned).  nil sends none: the server's defaults apply.
Read when eglot or lsp-mode starts the server (\\[eglot] or
`lsp-workspace-restart'; `eglot-reconnect' reuses the old command line)."
  :type '(plist :key-type symbol)
  :group 'rpn)

(defun rpn-lsp-server-command ()
  "The command line that starts rpn-lsp, a list of strings.
See `rpn-lsp-command'."
  (let ((env (getenv "RPN_LSP")))
    (cond ((stringp rpn-lsp-command) (list rpn-lsp-command "--stdio"))
          ((and (equal rpn-lsp-command rpn-lsp-default-command)
                env (not (string-empty-p env)))
           (list env "--stdio"))
          (t rpn-lsp-command))))

(defun rpn-lsp-initialization-options ()
  "The initializationOptions for rpn-lsp.
`rpn-lsp-settings' under :rpn, or nil when there are none."
  (and rpn-lsp-settings (list :rpn rpn-lsp-settings)))

;;;; The language

(defconst rpn-symbolic-operators
  '("+" "-" "−" "*" "×" "/" "÷" "^" "**" "%" "%ch" "%t" "√")
  "Operators spelled with symbols.")

(defconst rpn-named-operators
  '("pow" "mod" "min" "max" "neg" "chs" "abs" "inv" "sq" "sqrt"
    "exp" "ln" "log" "log10" "log2" "sin" "cos" "tan" "asin" "acos" "atan"
    "atan2" "sinh" "cosh" "tanh" "asinh" "acosh" "atanh" "floor" "ceil"
    "round" "trunc" "fact" "dup" "drop" "swap" "over" "rot" "clear" "depth"
    "pick" "roll" "lastx" "sum" "avg" "mean" "sdev" "subtotal" "uval" "ubase")
  "Operators spelled with letters (ASCII case-insensitive: DUP, Sqrt).")

(defconst rpn-heading-regexp "^[[:space:]]*\\(##.*\\)$"
  "A heading (group 1: from its `##' to the line's end).
A line that holds only a comment starting with `##', as in `## Groceries',
starts a section, which runs to the next heading.  After a token
\(`1 2 ## x') `##' starts a plain comment.")

(defconst rpn-heading-title-regexp
  "^[[:space:]]*##+[[:space:]]*\\(.*[^[:space:]\n]\\)"
  "A heading that has a title (group 1: the text after its `#'s, trimmed).")

(require 'outline)
(require 'subr-x)

(defface rpn-heading '((t :inherit outline-1))
  "Face for headings, the lines `## Groceries' that start sections."
  :group 'rpn)

(defconst rpn-constants '("pi" "π" "e")
  "Constants (ASCII case-insensitive: PI).")

(defun rpn--ascii-case-insensitive (word)
  "A regexp matching WORD with its ASCII letters in either case.
Other letters match only themselves: `Π' is no `π'."
  (mapconcat (lambda (c)
               (if (or (<= ?a c ?z) (<= ?A c ?Z))
                   (string ?\[ (downcase c) (upcase c) ?\])
                 (regexp-quote (string c))))
             word ""))

(defun rpn--words-alternatives (words)
  "A regexp group matching any of WORDS, ASCII case-insensitively."
  (concat "\\(?:"
          (mapconcat #'rpn--ascii-case-insensitive
                     ;; Longest first: `**' before `*', `log2' before `log'.
                     (sort (copy-sequence words)
                           (lambda (a b) (> (length a) (length b))))
                     "\\|")
          "\\)"))

(defun rpn--words-regexp (words)
  "A regexp matching any of WORDS as a whole token (ASCII case-insensitive)."
  (concat "\\_<" (rpn--words-alternatives words) "\\_>"))

(defconst rpn-name-regexp "[[:alpha:]][[:alpha:]0-9_]*"
  "A name (a variable's or a defined word's): a letter, then letters,
digits 0-9 or `_'.  (`_km' is a unit word, no name.)")

(defconst rpn-definition-name-regexp
  (concat "\\_<:\\s-+\\(" rpn-name-regexp "\\)\\_>")
  "The name a definition defines (group 1): `hyp' in `: hyp sq swap sq + sqrt ;'.")

(defconst rpn-unsigned-decimal-regexp
  (let* ((digits "[0-9]\\(?:_?[0-9]\\)*")
         ;; Thousands: one to three digits, then `,' and exactly three, again and again.
         (grouped (concat "[0-9]\\(?:_?[0-9]\\)\\{0,2\\}"
                          "\\(?:,[0-9]\\(?:_?[0-9]\\)\\{2\\}\\)+")))
    (concat "\\(?:\\(?:" grouped "\\|" digits "\\)"
            "\\(?:\\.\\(?:" digits "\\)?\\)?"
            "\\|\\." digits "\\)"
            "\\(?:[eE][-+]?[0-9]+\\)?"))
  "A decimal number without its sign or token boundaries.
12, 12.5, .5, 12., 1e3, 2.5E-4, 1_000_000, 1,234,567.89.")

(defconst rpn-sexagesimal-regexp
  "[0-9]+:[0-5][0-9]\\(?::[0-5][0-9]\\)?\\(?:\\.[0-9]*\\)?"
  "A time or angle in fields of sixty, without its sign or token boundaries.
1:30, 1:30:15, 27:10, 1:30:15.5: digits, then `:' and two digits 00 to
59, once or twice; only the last field may have a fraction.  Not 1:75,
1:5, 1:, :30, 1:30:, 1::30, 1.5:30 nor 1:00:00:00.")

(defconst rpn-number-literal-regexp
  (let ((integer (concat "0\\(?:[xX][0-9A-Fa-f]\\(?:_?[0-9A-Fa-f]\\)*"
                         "\\|[oO][0-7]\\(?:_?[0-7]\\)*"
                         "\\|[bB][01]\\(?:_?[01]\\)*\\)")))
    (concat "[-+−]?\\(?:" integer "\\|" rpn-sexagesimal-regexp
            "\\|" rpn-unsigned-decimal-regexp "\\)"))
  "A number literal, without token boundaries.
12, 12.5, .5, 12., −3, 1e3, 2.5E-4, 1_000_000; the whole part grouped
in thousands, 1,234,567.89 (one to three digits, then groups of
exactly three, before any point: not 1,5 nor 12,34); integers in hex,
octal and binary, 0x1F, 0o17, 0b1010 (any case, `_' between two
digits, no fraction or exponent); times and angles in fields of sixty,
1:30, -0:30, 1:30:15.5 (`rpn-sexagesimal-regexp').")

(defconst rpn-number-regexp
  (concat "\\_<" rpn-number-literal-regexp "\\_>")
  "A number literal as a whole token.")

(defconst rpn-check-regexp
  (concat "\\_<\\(=\\)\\(" rpn-number-literal-regexp "\\)\\_>")
  "A check as a whole token: `=' (group 1) and a number literal (group 2).
=20.5, =0.333, =−2.5, =1.5e3, =1,234.50, =0xFF, =2:15; not =1.5x, =1.2.3,
=2x or =1,5.")

(defconst rpn-unit-regexps
  (let* ((factor (concat "[[:alpha:]$°′″∆£¥€]+"
                         "\\(?:\\^-?0*[1-9][0-9]?"
                         "\\|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?\\)?"))
         (product (concat factor "\\(?:[*·]" factor "\\)*"))
         (denominator (concat "/\\(?:" factor "\\|(" product ")\\)")))
    (list (concat "\\(?:" product "\\(?:" denominator "\\)?"
                  "\\|1" denominator "\\)")
          (concat "_" product "\\(?:" denominator "\\)?")))
  "A unit expression, and a quantity's unit with its `_' (no boundaries).
Unit names (letters and marks, and $ ° ′ ″ ∆ £ ¥ €), each with an
optional power of 1 to 99 in size (^2, ^-1, ², ⁻¹), joined by `*' or
`·', then at most one `/' and a name or a product in parentheses: km,
m/s^2, kW*h, J/(kg*K), m².  The numerator may be 1 (1/s), but not in a
quantity, where an `_' before a digit separates digits (1_000_km is
1000 km).  Whether a name is in the unit table is the server's to say
\(unknown-unit): any well-formed unit is fontified.")

(defconst rpn-quantity-regexp
  (concat "\\_<\\([-+−]?" rpn-unsigned-decimal-regexp "\\)"
          "\\(" (nth 1 rpn-unit-regexps) "\\)\\_>")
  "A quantity as a whole token: its number (group 1) and unit (group 2).
12_km, 1_000_km, 9.81_m/s^2, -40_°C, 1,250.00_EUR: a decimal number (no
0x, 0o or 0b integer), `_' and a unit expression.")

(defconst rpn-quantity-check-regexp
  (concat "\\_<\\(=\\)\\([-+−]?" rpn-unsigned-decimal-regexp "\\)"
          "\\(" (nth 1 rpn-unit-regexps) "\\)\\_>")
  "A check of a quantity, =12.5_km: `=' (group 1), number (2), unit (3).")

(defconst rpn-sexagesimal-quantity-regexp
  (let ((minutes "[-+−]?[0-9]+:[0-5][0-9]\\(?:\\.[0-9]*\\)?")
        (seconds "[-+−]?[0-9]+:[0-5][0-9]:[0-5][0-9]\\(?:\\.[0-9]*\\)?"))
    (concat "\\(?:\\(" minutes "\\)\\(_\\(?:h\\|min\\|°\\|deg\\)\\)"
            "\\|\\(" seconds "\\)\\(_\\(?:h\\|°\\|deg\\)\\)\\)"))
  "A time or angle in a unit, without token boundaries.
Two fields in h, min, ° or deg (4:35_min, 1:30_h, 48:46_deg), its
number group 1 and its unit with the `_' group 2; or three fields in h,
° or deg (48:46:32_°), groups 3 and 4.  Minutes have min:ss only:
1:30:15_min is none, and so is a time in any other unit (1:30_km).")

(defconst rpn-unit-word-regexp
  (concat "\\_<\\(?:\\(?:_\\|>\\|->\\|→\\)" (nth 0 rpn-unit-regexps)
          "\\|\\(?:>\\|->\\|→\\)"
          "\\(?:h:mm\\(?::ss\\)?\\|min:ss\\|\\(?:°\\|deg\\):mm\\(?::ss\\)?\\)\\)\\_>")
  "A unit word as a whole token.
_km gives the number before it a unit (_1/s too); >mi, ->mi and →mi
convert to another unit (>km/h, >°F), and to a format as to a unit:
>h:mm, >h:mm:ss, >min:ss, >°:mm, >°:mm:ss, >deg:mm, >deg:mm:ss (not
>h:m nor >hh:mm).")

(defconst rpn-unicode-whitespace
  '(?\t ?\v ?\f ?\s #x85 #xA0 #x1680 (#x2000 . #x200A)
        #x2028 #x2029 #x202F #x205F #x3000)
  "Characters besides line endings that separate tokens (White_Space).")

(defvar rpn-mode-syntax-table
  (let ((table (make-syntax-table)))
    ;; Only white space separates tokens: every printable ASCII character
    ;; is part of a token (a symbol constituent; letters and digits are
    ;; word constituents), and there are no strings or parentheses.  So
    ;; Emacs's symbols are exactly the language's tokens.
    (let ((c ?!))
      (while (<= c ?~)
        (modify-syntax-entry c "_" table)
        (setq c (1+ c))))
    (modify-syntax-entry '(?a . ?z) "w" table)
    (modify-syntax-entry '(?A . ?Z) "w" table)
    (modify-syntax-entry '(?0 . ?9) "w" table)
    (dolist (c '(?− ?× ?÷ ?√ ?…))
      (modify-syntax-entry c "_" table))
    ;; The symbols of units and conversions (`-40_°C', `5_m²', `→mi').
    (dolist (c '(?° ?′ ?″ ?∆ ?€ ?£ ?¥ ?· ?⁰ ?¹ ?² ?³ ?⁴ ?⁵ ?⁶ ?⁷ ?⁸ ?⁹ ?⁻ ?→))
      (modify-syntax-entry c "_" table))
    (dolist (c '(?Δ ?µ ?Ω))
      (modify-syntax-entry c "w" table))
    (modify-syntax-entry ?π "w" table)
    (dolist (c rpn-unicode-whitespace)
      (modify-syntax-entry c " " table))
    ;; `#' starts a comment anywhere; the line ending ends it.
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\r ">" table)
    table)
  "Syntax table for `rpn-mode'.")

(defvar rpn-font-lock-keywords
  (let ((builtins (append rpn-symbolic-operators rpn-named-operators
                          rpn-constants)))
    `(;; A store into an operator or constant (`=dup') is `invalid-name'.
      (,(concat "\\_<=" (rpn--words-alternatives builtins) "\\_>")
       . font-lock-warning-face)
      ;; A check (`=20.5'): the `=' as an operator, the value as a number.
      (,rpn-check-regexp (1 font-lock-keyword-face) (2 font-lock-constant-face))
      ;; A check of a quantity (`=12.5_km'): the unit as a type.
      (,rpn-quantity-check-regexp (1 font-lock-keyword-face) (2 font-lock-constant-face)
                                  (3 font-lock-type-face))
      ;; A check of a time or angle in a unit (`=4:35_min'), likewise.
      (,(concat "\\_<\\(=\\)" rpn-sexagesimal-quantity-regexp "\\_>")
       (1 font-lock-keyword-face) (2 font-lock-constant-face nil t) (3 font-lock-type-face nil t)
       (4 font-lock-constant-face nil t) (5 font-lock-type-face nil t))
      ;; A quantity (`12_km'): the number as a number, the unit (with its `_') as a type.
      (,rpn-quantity-regexp (1 font-lock-constant-face) (2 font-lock-type-face))
      ;; A time or angle in a unit (`4:35_min', `48:46:32_°'), as a quantity.
      (,(concat "\\_<" rpn-sexagesimal-quantity-regexp "\\_>")
       (1 font-lock-constant-face nil t) (2 font-lock-type-face nil t)
       (3 font-lock-constant-face nil t) (4 font-lock-type-face nil t))
      ;; Unit words (`_km', `>mi', `→°F', and formats `>h:mm'), as types.
      (,rpn-unit-word-regexp . font-lock-type-face)
      ;; `=name' stores the top value.
      (,(concat "\\_<=" rpn-name-regexp "\\_>") . font-lock-variable-name-face)
      (,rpn-number-regexp . font-lock-constant-face)
      (,(rpn--words-regexp rpn-constants) . font-lock-constant-face)
      (,(rpn--words-regexp rpn-named-operators) . font-lock-builtin-face)
      (,(rpn--words-regexp rpn-symbolic-operators) . font-lock-keyword-face)
      ;; A definition's `:' and `;', tokens of their own (`4:' is no keyword).
      ("\\_<[:;]\\_>" . font-lock-keyword-face)
      ;; The name after `:'.  After the builtins, which keep their faces: a
      ;; builtin's name cannot be defined.
      (,rpn-definition-name-regexp 1 font-lock-function-name-face)
      ;; A heading, over the comment face it has from the syntax table.
      (,rpn-heading-regexp 1 'rpn-heading t)))
  "Font-lock keywords for `rpn-mode'.
Numbers and constants: `font-lock-constant-face'.  Stores (`=name'):
`font-lock-variable-name-face'.  Checks (`=20.5'): the `=' in
`font-lock-keyword-face', the value in `font-lock-constant-face'.
Times and angles (`1:30', `=2:15') are numbers.
Quantities (`12_km', and times and angles in a unit, `4:35_min'): the
number in `font-lock-constant-face', the unit (`_km') in
`font-lock-type-face'; unit words (`_km', `>mi', `→°F', and formats
`>h:mm') in `font-lock-type-face'; a check of a quantity (`=12.5_km',
`=4:35_min') as a check whose unit is in `font-lock-type-face'.
Named operators (`dup', `sqrt'): `font-lock-builtin-face'.  Symbolic
operators (`+', `×', `√'): `font-lock-keyword-face'.  Definitions
\(`: hyp sq swap sq + sqrt ;'): `:' and `;' in `font-lock-keyword-face',
the name in `font-lock-function-name-face'.  Comments come from the
syntax table; a heading (`## Groceries' alone on its line) is in
`rpn-heading' instead.
A name used is left alone, a variable's or a word's alike (the
server's semantic tokens tell them apart), and so are unknown words:
the server's diagnostics mark them.")

(defun rpn-outline-level ()
  "The level of the heading at point for `outline-minor-mode': always 1.
Sections do not nest: `### Fruit' starts a section as `## Fruit' does."
  1)

;;;###autoload
(define-derived-mode rpn-mode prog-mode "RPN"
  "Major mode for `.rpn' calculator tapes.
One stack flows through the file, top to bottom, left to right; `#'
starts a comment.  With rpn-lsp (rpn-eglot.el or rpn-lsp-mode.el),
each line shows the stack after it."
  :syntax-table rpn-mode-syntax-table
  :group 'rpn
  (setq-local comment-start "# ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "#+[ \t]*")
  (setq-local comment-use-syntax t)
  (setq-local font-lock-defaults '(rpn-font-lock-keywords nil nil))
  (setq-local imenu-generic-expression
              `((nil ,(concat "\\_<=\\(" rpn-name-regexp "\\)\\_>") 1)
                ("Words" ,rpn-definition-name-regexp 1)
                ("Sections" ,rpn-heading-title-regexp 1)))
  ;; Sections as outline headings, all of one level: `outline-minor-mode'
  ;; folds them.
  (setq-local outline-regexp "[ \t]*##")
  (setq-local outline-level #'rpn-outline-level))

;;;; Each line's stack and diagnostic at its end, where eglot has no inlay hints

;; eglot before 1.12 (Emacs 28's, Debian 12's 1.9) has no inlay hints, so the
;; stack after each line, rpn-lsp's main feature, would never show there; and
;; in a terminal flymake marks a warning by colour alone, and eldoc cuts a long
;; hover short.  So where eglot lacks `eglot-inlay-hints-mode', rpn-mode asks
;; the server for the inlay hints of the lines on screen, through eglot's
;; connection, and draws them as overlays, with each line's diagnostics from
;; flymake after them.  Newer eglot draws the hints itself.

(defcustom rpn-line-end-stacks t
  "Non-nil: show each line's stack, and its diagnostics, at the line's end.
In `rpn-mode' buffers that eglot manages, when eglot has no inlay hints
of its own (before eglot 1.12: Emacs 28), the stack after each line is
drawn after its last token, `12.5 8 + [20.5]' (after its comment with
:inlayHints (:position \"endOfLine\") in `rpn-lsp-settings'), and the
messages of the line's diagnostics after its end,
`1 + [1]  ← stack-underflow: …'.
eglot 1.12 and later (Emacs 29+) show the stacks as inlay hints
instead (see `rpn-eglot-inlay-hints').  nil: none of this.  Read when
eglot starts managing a buffer; \\[rpn-line-end-stacks-mode] toggles it
in one."
  :type 'boolean
  :group 'rpn)

(defcustom rpn-line-end-stacks-delay 0.2
  "Idle seconds after a change or a scroll before the line ends are redrawn.
The request waits for eglot to have sent the change (after
`eglot-send-changes-idle-time')."
  :type 'number
  :group 'rpn)

(defface rpn-line-end-stack '((t :inherit shadow))
  "Face for the stack shown after a line's last token."
  :group 'rpn)

(defface rpn-line-end-error '((t :inherit error))
  "Face for an error's message at the end of its line."
  :group 'rpn)

(defface rpn-line-end-warning '((t :inherit warning))
  "Face for a warning's message at the end of its line."
  :group 'rpn)

(defface rpn-line-end-note '((t :inherit shadow :slant italic))
  "Face for a note's (information's) message at the end of its line."
  :group 'rpn)

(defvar eglot-inlay-hints-mode)
(declare-function eglot-managed-p "eglot" ())
(declare-function eglot-current-server "eglot" ())
(declare-function eglot--pos-to-lsp-position "eglot" (&optional pos))
(declare-function eglot--lsp-position-to-point "eglot" (pos-plist &optional marker))
(declare-function eglot--TextDocumentIdentifier "eglot" ())
(declare-function jsonrpc-async-request "jsonrpc" (connection method params &rest args))
(declare-function flymake-diagnostics "flymake" (&optional beg end))
(declare-function flymake-diagnostic-beg "flymake" (diag))
(declare-function flymake-diagnostic-type "flymake" (diag))
(declare-function flymake-diagnostic-text "flymake" (diag))

(defvar-local rpn--line-end-stacks-timer nil
  "The idle timer that will redraw this buffer's line ends, if one is pending.")

(defvar-local rpn--line-end-stacks-overlays nil
  "This buffer's stack overlays (`rpn-line-end-stacks-mode').")

(defvar-local rpn--line-end-diagnostic-overlays nil
  "This buffer's diagnostic overlays (`rpn-line-end-stacks-mode').")

(define-minor-mode rpn-line-end-stacks-mode
  "Show each line's stack and diagnostics at its end, through eglot.
For eglot without inlay hints (before 1.12, Emacs 28): the stack after
each line on screen is drawn after its last token, `2 3 + [5]', and a
line's diagnostic messages after its end, `1 + [1]  ← stack-underflow:
…'.  rpn-mode turns it on by itself where it is needed (see
`rpn-line-end-stacks')."
  :lighter nil
  :group 'rpn
  (cond
   (rpn-line-end-stacks-mode
    ;; After eglot's own hook, which records the change it will send.
    (add-hook 'after-change-functions #'rpn--line-end-stacks-changed t t)
    (add-hook 'window-scroll-functions #'rpn--line-end-stacks-scrolled nil t)
    (add-hook 'window-configuration-change-hook #'rpn--line-end-stacks-schedule nil t)
    (advice-add 'flymake--handle-report :after #'rpn--line-end-stacks-flymake-reported)
    (rpn--line-end-stacks-schedule))
   (t
    (remove-hook 'after-change-functions #'rpn--line-end-stacks-changed t)
    (remove-hook 'window-scroll-functions #'rpn--line-end-stacks-scrolled t)
    (remove-hook 'window-configuration-change-hook #'rpn--line-end-stacks-schedule t)
    (when rpn--line-end-stacks-timer
      (cancel-timer rpn--line-end-stacks-timer)
      (setq rpn--line-end-stacks-timer nil))
    (rpn--line-end-delete 'rpn--line-end-stacks-overlays)
    (rpn--line-end-delete 'rpn--line-end-diagnostic-overlays))))

(defun rpn--line-end-delete (variable)
  "Delete the overlays listed in VARIABLE (a symbol), and empty it."
  (mapc #'delete-overlay (symbol-value variable))
  (set variable nil))

(defun rpn--line-end-stacks-changed (&rest _)
  "Redraw the line ends once the user pauses (`after-change-functions')."
  (rpn--line-end-stacks-schedule))

(defun rpn--line-end-stacks-scrolled (window _start)
  "Redraw the line ends when WINDOW shows other lines (`window-scroll-functions')."
  (with-current-buffer (window-buffer window)
    (rpn--line-end-stacks-schedule)))

(defun rpn--line-end-stacks-schedule ()
  "Redraw this buffer's line ends after `rpn-line-end-stacks-delay' idle seconds.
Many changes or scrolls in a row make one request."
  (when rpn-line-end-stacks-mode
    (when rpn--line-end-stacks-timer (cancel-timer rpn--line-end-stacks-timer))
    (setq rpn--line-end-stacks-timer
          (run-with-idle-timer rpn-line-end-stacks-delay nil
                               #'rpn--line-end-stacks-update (current-buffer)))))

(defun rpn--line-end-stacks-visible ()
  "The lines on screen, (BEG . END): from the first window start showing this
buffer to the last window end, or nil when no window shows it."
  (let (beg end)
    (dolist (window (get-buffer-window-list nil nil t))
      (let ((start (window-start window))
            (stop (window-end window t)))
        (setq beg (if beg (min beg start) start)
              end (if end (max end stop) stop))))
    (and beg (save-excursion
               (save-restriction
                 (widen)
                 (cons (progn (goto-char beg) (line-beginning-position))
                       (progn (goto-char end) (line-end-position))))))))

(defun rpn--line-end-stacks-update (buffer)
  "Ask the server for the inlay hints of BUFFER's lines on screen, and draw them.
A request made before the change that last reached the server waits
for it (`:deferred'); an answer to a buffer changed since the request
is dropped (a newer request is on its way)."
  (when (buffer-live-p buffer)
    (with-current-buffer buffer
      (setq rpn--line-end-stacks-timer nil)
      (let ((server (and rpn-line-end-stacks-mode (fboundp 'eglot-managed-p)
                         (eglot-managed-p) (eglot-current-server)))
            (range (rpn--line-end-stacks-visible))
            (tick (buffer-chars-modified-tick)))
        (when (and server range)
          (jsonrpc-async-request
           server :textDocument/inlayHint
           (list :textDocument (eglot--TextDocumentIdentifier)
                 :range (list :start (eglot--pos-to-lsp-position (car range))
                              :end (eglot--pos-to-lsp-position (cdr range))))
           :deferred 'rpn--line-end-stacks
           :success-fn (lambda (hints)
                         (when (buffer-live-p buffer)
                           (with-current-buffer buffer
                             (when (and rpn-line-end-stacks-mode
                                        (= tick (buffer-chars-modified-tick)))
                               (rpn--line-end-stacks-draw hints)
                               (rpn--line-end-diagnostics-draw range)))))
           :error-fn #'ignore
           :timeout-fn #'ignore))))))

(defun rpn--line-end-hint-text (hint)
  "The text to show for inlay hint HINT (an LSP InlayHint, a plist)."
  (let* ((label (plist-get hint :label))
         (text (if (stringp label) label
                 (mapconcat (lambda (part) (or (plist-get part :value) "")) label ""))))
    (concat (if (eq (plist-get hint :paddingLeft) t) " " "")
            (propertize text 'face 'rpn-line-end-stack)
            (if (eq (plist-get hint :paddingRight) t) " " ""))))

(defun rpn--line-end-overlay (pos text priority)
  "An overlay that shows TEXT at POS, at PRIORITY (higher shows first)."
  (let ((overlay (make-overlay pos pos nil nil nil)))
    ;; Point right before the text is shown before it, not after.
    (put-text-property 0 1 'cursor 1 text)
    (overlay-put overlay 'after-string text)
    (overlay-put overlay 'priority priority)
    (overlay-put overlay 'rpn-line-end t)
    overlay))

(defun rpn--line-end-stacks-draw (hints)
  "Draw HINTS (LSP InlayHints, for the lines on screen), replacing the old ones."
  (rpn--line-end-delete 'rpn--line-end-stacks-overlays)
  (save-excursion
    (save-restriction
      (widen)
      ;; Hints at one place (a word's effect and the stack after `;') show in the
      ;; server's order: Emacs shows after-strings by decreasing priority.  All
      ;; above the diagnostics' 1, which follow the stack at a line's end.
      (let ((priority (+ 2 (length hints))))
        (mapc (lambda (hint)
                (let ((pos (eglot--lsp-position-to-point (plist-get hint :position))))
                  (push (rpn--line-end-overlay pos (rpn--line-end-hint-text hint) priority)
                        rpn--line-end-stacks-overlays)
                  (setq priority (1- priority))))
              hints)))))

(defun rpn--line-end-diagnostic-face (diagnostic)
  "The face for DIAGNOSTIC's message, by its flymake category.
Errors, warnings and the rest (notes)."
  (let ((category (get (flymake-diagnostic-type diagnostic) 'flymake-category)))
    (pcase category
      ('flymake-error 'rpn-line-end-error)
      ('flymake-warning 'rpn-line-end-warning)
      (_ 'rpn-line-end-note))))

(defun rpn--line-end-diagnostic-message (diagnostic)
  "DIAGNOSTIC's message, on one line: eglot's \"rpn [code]: text\" as \"code: text\"."
  (let ((text (string-trim (replace-regexp-in-string
                            "[ \t]*\n[ \t]*" " " (flymake-diagnostic-text diagnostic)))))
    (if (string-match "\\`rpn \\[\\([^]]+\\)\\]: " text)
        (concat (match-string 1 text) ": " (substring text (match-end 0)))
      text)))

(defun rpn--line-end-diagnostics-draw (range)
  "Show flymake's diagnostics in RANGE (BEG . END) at the ends of their lines.
Each diagnostic's message on the line where it starts, in the order
they start."
  (rpn--line-end-delete 'rpn--line-end-diagnostic-overlays)
  (when (and range (bound-and-true-p flymake-mode))
    (let ((arrow (if (char-displayable-p ?←) "←" "<-"))
          (by-line nil))
      (save-excursion
        (save-restriction
          (widen)
          (dolist (diagnostic (flymake-diagnostics (car range) (cdr range)))
            (let ((beg (flymake-diagnostic-beg diagnostic)))
              (when (<= (car range) beg (cdr range))
                (goto-char beg)
                (push (cons beg diagnostic)
                      (alist-get (line-end-position) by-line)))))
          (pcase-dolist (`(,eol . ,diagnostics) by-line)
            (let ((sorted (sort diagnostics (lambda (a b) (< (car a) (car b))))))
              (push (rpn--line-end-overlay
                     eol
                     (mapconcat (lambda (entry)
                                  (concat "  " (propertize
                                                (concat arrow " " (rpn--line-end-diagnostic-message
                                                                   (cdr entry)))
                                                'face (rpn--line-end-diagnostic-face
                                                       (cdr entry)))))
                                sorted "")
                     1)
                    rpn--line-end-diagnostic-overlays))))))))

(defun rpn--line-end-stacks-flymake-reported (&rest _)
  "Redraw the diagnostics at line ends when flymake takes a report.
Diagnostics reach flymake on their own schedule, before or after
the stacks' answer."
  (when rpn-line-end-stacks-mode
    (rpn--line-end-diagnostics-draw (rpn--line-end-stacks-visible))))

(defun rpn-line-end-stacks-needed-p ()
  "Non-nil when this buffer should draw its own line ends.
An `rpn-mode' buffer eglot manages, eglot without inlay hints of its
own (before 1.12), and `rpn-line-end-stacks' on."
  (and rpn-line-end-stacks
       (derived-mode-p 'rpn-mode)
       (not (fboundp 'eglot-inlay-hints-mode))
       (fboundp 'eglot-managed-p)
       (eglot-managed-p)))

(defun rpn--line-end-stacks-managed ()
  "Turn `rpn-line-end-stacks-mode' on or off as eglot takes or leaves a buffer."
  (when (derived-mode-p 'rpn-mode)
    (rpn-line-end-stacks-mode (if (rpn-line-end-stacks-needed-p) 1 -1))))

(with-eval-after-load 'eglot
  (add-hook 'eglot-managed-mode-hook #'rpn--line-end-stacks-managed))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.rpn\\'" . rpn-mode))

(provide 'rpn-mode)
;;; rpn-mode.el ends here
