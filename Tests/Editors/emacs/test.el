;;; test.el --- Headless Emacs test of rpn-mode + eglot against rpn-lsp -*- lexical-binding: t; -*-

;; Runs in `emacs --batch' after an Emacs config was loaded (the shipped rpn-eglot.el, or the
;; README's snippet); run.sh arranges that and sets:
;;   RPN_TEST_LABEL     what to call this run in messages ("Emacs 28.2 + eglot 1.9 + rpn-eglot.el")
;;   RPN_TEST_FILE      the copy of EditorConfigs/sample.rpn to open (in a folder that is no project)
;;   RPN_TEST_SHIPPED   "1": the config is rpn-eglot.el; also check its options
;;                      (`rpn-eglot-inlay-hints', `rpn-lsp-settings') and
;;                      `eglot-workspace-configuration'
;; Prints one line per check on standard output; exits 0 when all passed, 1 otherwise.
;;
;; In order: `.rpn' opens in `rpn-mode' (derived from `prog-mode', `#' comments, font-lock for
;; numbers (thousands commas `1,234.50', hex, octal and binary `0x1F', times and angles `1:30',
;; and what is no number: `1,5', `0xG', `1:75'), quantities `12_km' and `4:35_min', unit words
;; `>mi' and formats `>h:mm', operators, constants, stores, checks `=20.5' with their
;; near-misses, and definitions `: hyp sq swap sq + sqrt ;' whose `:' and `;' are keywords only
;; as tokens of their own, and headings `## Groceries' in `rpn-heading'; a `# rpn:' settings line stays a comment);
;; the sample's sections in `imenu' and folded by
;; `outline-minor-mode';
;; `eglot-ensure' connects once a command has run
;; (in batch mode that is `post-command-hook', run by hand), in a transient project (single-file
;; mode), with languageId "rpn" and the negotiated encoding (UTF-16: eglot 1.9 offers none);
;; flymake shows the sample's two deliberate mistakes at their exact places, with eglot's
;; "rpn [code]: message" text; hover (raw, as eglot formats it, and through eldoc); the raw
;; inlay hints of every line, the summaries on headings too (eglot 1.9 has no inlay-hint UI, nor
;; code lenses; rpn-eglot.el's handling of
;; 1.12's `eglot-inlay-hints-mode' is run against a stand-in mode); completion (the
;; candidates, `completion-at-point' finishing a variable, and `9 sq' completed as a person
;; does it: C-M-i, the list, RET on a candidate); incremental edits (a non-BMP
;; character before a token: UTF-16 columns) and their undo; go-to-definition
;; (`xref-find-definitions'), `eglot-rename', `eglot-format-buffer' (of lines made messy:
;; the exact text expected, aligned comments kept aligned, and the same as `rpn-lsp format -')
;; and the quick fix (`eglot-code-actions'); a defined word in a second buffer (hover on its name and on a use,
;; its effect's inlay hint after `;', definition, `eglot-rename' of the word and back); a unit of
;; the tape's own in a third (hover on its definition and on a quantity, the hint `= 0.75_m'
;; after `;', definition from a use in a compound unit, `eglot-rename' everywhere it is written
;; and back);
;; rpn-mode's stacks and diagnostic messages at line ends (eglot 1.9 has no inlay hints): the
;; overlays' exact strings, after an edit, a mended underflow, a scroll, a stale answer;
;; `rpn-lsp-settings' and `eglot-workspace-configuration'; shutdown.
;;
;; Batch mode never goes idle, so after each edit or command `rpn-test-idle' runs
;; `post-command-hook' and the idle timers, as Emacs does when the user pauses (eglot sends
;; the buffer's changes, and flymake starts, on idle timers).

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'seq)

(defvar rpn-test-label (or (getenv "RPN_TEST_LABEL") "Emacs"))
(defvar rpn-test-passed 0)
(defvar rpn-test-failed 0)
(defconst rpn-test-timeout 10.0 "Seconds to wait for the server to start or answer.")
(defconst rpn-test-client-wait 3.0 "Seconds to wait for an effect of a client command.")

;;;; Reporting

(defun rpn-test--out (string)
  (princ (concat string "\n")))

(defun rpn-test-show (value)
  (if (stringp value) (format "%S" value) (prin1-to-string value)))

(defun rpn-test-ok (what)
  (cl-incf rpn-test-passed)
  (rpn-test--out (concat "  ok    " what)))

(defun rpn-test-fail (what &optional detail)
  (cl-incf rpn-test-failed)
  (rpn-test--out (format "  FAIL  [%s] %s%s" rpn-test-label what (if detail (concat ": " detail) ""))))

(defun rpn-test-check (condition what &optional detail)
  "Count CONDITION as a passed or failed check WHAT; return CONDITION."
  (if condition (rpn-test-ok what) (rpn-test-fail what detail))
  condition)

(defun rpn-test-idle ()
  "What Emacs does when a command has run and the user pauses: `post-command-hook', then
the idle timers (eglot sends the buffer's changes on one, flymake starts on another).
In batch mode nothing else runs them."
  (run-hooks 'post-command-hook)
  (dolist (timer (copy-sequence timer-idle-list))
    (when (memq timer timer-idle-list)
      (timer-event-handler timer))))

(defun rpn-test-wait (predicate &optional seconds)
  "Let Emacs run (processes, timers) until PREDICATE returns non-nil, or SECONDS pass.
Returns PREDICATE's last value."
  (let ((deadline (+ (float-time) (or seconds rpn-test-timeout)))
        value)
    (while (and (not (setq value (funcall predicate)))
                (< (float-time) deadline))
      (accept-process-output nil 0.02))
    value))

;;;; Positions: lines are 1-based, columns 0-based characters (as Emacs counts them)

(defun rpn-test-line-text (line)
  (save-excursion
    (goto-char (point-min))
    (forward-line (1- line))
    (buffer-substring-no-properties (line-beginning-position) (line-end-position))))

(defun rpn-test-pos (line col)
  (save-excursion
    (goto-char (point-min))
    (forward-line (1- line))
    (forward-char col)
    (point)))

(defun rpn-test-col (line needle &optional nth)
  "The 0-based column of the NTH (default 1st) NEEDLE on LINE."
  (let ((text (rpn-test-line-text line)) (from 0) start)
    (dotimes (_ (or nth 1))
      (setq start (or (string-search needle text from)
                      (error "%S not found on line %d: %S" needle line text)))
      (setq from (1+ start)))
    start))

(defun rpn-test-line-col (pos)
  "POS as (LINE . COL), COL counting characters (`current-column' would count display
columns: an emoji is two)."
  (save-excursion
    (goto-char pos)
    (cons (line-number-at-pos) (- (point) (line-beginning-position)))))

(defvar rpn-test-encoding "utf-16"
  "The position encoding in use: the server's choice, else UTF-16 (LSP's default).")

(defun rpn-test-utf16 (string)
  "How many code units of `rpn-test-encoding' STRING is."
  (pcase rpn-test-encoding
    ("utf-8" (string-bytes (encode-coding-string string 'utf-8)))
    ("utf-32" (length string))
    (_ (cl-loop for c across string sum (if (> c #xFFFF) 2 1)))))

(defun rpn-test-utf16-col (line col)
  "The LSP column (in `rpn-test-encoding') of character column COL on LINE."
  (rpn-test-utf16 (substring (rpn-test-line-text line) 0 col)))

(defun rpn-test-lsp-range-text (range)
  (if (and (listp range) (plist-get range :start))
      (let ((s (plist-get range :start)) (e (plist-get range :end)))
        (format "%d:%d-%d:%d" (plist-get s :line) (plist-get s :character)
                (plist-get e :line) (plist-get e :character)))
    (rpn-test-show range)))

(defun rpn-test-lsp-range (line col end-col)
  "The LSP range (0-based lines) of columns COL..END-COL of LINE, as text."
  (format "%d:%d-%d:%d" (1- line) (rpn-test-utf16-col line col)
          (1- line) (rpn-test-utf16-col line end-col)))

;;;; The sample's expectations

(defconst rpn-test-sample-hints
  '((6 . "[12 12.5 0.5 12 -3 1000 0.00025 1000000]")
    (7 . "[]")
    (10 . "[5]")
    (11 . "[5 6]")
    (12 . "[5 6 42 42]")
    (13 . "[5 6 42 42 1024 3 8]")
    (14 . "[]")
    (17 . "[2450]")
    (18 . "[2450 1200]")
    (19 . "[2450 1200 310.4]")
    (20 . "[2450 1200 310.4 89.99]")
    (21 . "[2450 1200 310.4 89.99 1600.39]")
    (22 . "[2450 1200 310.4 89.99 1600.39 849.61]")
    (23 . "[]")
    (26 . "[57.348]")
    (27 . "[57]")
    (28 . "[]")
    (31 . "[42.1648128]")
    (32 . "[42.1648128 37]")
    (33 . "[]")
    (36 . "[0.5]")
    (37 . "[0.5 2]")
    (38 . "[]")
    (41 . "[3 1 4 1 5 9 2 6]")
    (42 . "[… 1 4 1 5 9 2 6 8]")
    (43 . "[31]")
    (44 . "[10.75]")
    (45 . "[]")
    (48 . "[2 1 3 1]")
    (49 . "[]")
    (52 . "[20.5]")
    (53 . "[20.5 0.333333333333333]")
    (54 . "[20.5 0.333333333333333 849.61]")
    (55 . "[20.5 0.333333333333333 849.61 1480]")
    (56 . "[]")
    (59 "[]" . "( a b -- r )")
    (60 . "[5]")
    (61 . "[5 13 12]")
    (62 . "[]")
    (65 . "[1]")
    (66 . "[1 4 5]")
    (67 . "[]")
    (71 :section . "Σ 23.7 · 1 value · avg 23.7")
    (72 . "[12.5]")
    (73 . "[12.5 8 3.2]")
    (74 . "[23.7]")
    (75 :section . "Σ 945.5 · 2 values · avg 472.75")
    (76 . "[23.7 900 45.5]"))
  "The sample's inlay hints: 1-based line → the stack label after it.
On a line that defines a word, (LINE STACK . EFFECT): also the word's
effect, right after its `;'.  On a heading, (LINE :section . SUMMARY):
its section's summary, at the line's end.")

(defun rpn-test-sample-diagnostics ()
  "The sample's two deliberate mistakes, as flymake should hold them."
  (list (list :line 65 :col 2 :end 3 :type 'eglot-warning
              :text "rpn [stack-underflow]: " :has '("`+`"))
        (list :line 66 :col 4 :end 8 :type 'eglot-error
              :text "rpn [unknown-word]: " :has '("`swpa`" "`swap`"))))

;;;; Diagnostics (flymake, as eglot reports them)

(defun rpn-test-diagnostics ()
  (sort (copy-sequence (flymake-diagnostics))
        (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))

(defun rpn-test-diagnostic-problems (d want)
  "What is wrong with flymake diagnostic D, given WANT (a plist), as a list of strings."
  (let* ((beg (rpn-test-line-col (flymake-diagnostic-beg d)))
         (end (rpn-test-line-col (flymake-diagnostic-end d)))
         (text (flymake-diagnostic-text d))
         problems)
    (unless (and (equal beg (cons (plist-get want :line) (plist-get want :col)))
                 (equal end (cons (plist-get want :line) (plist-get want :end))))
      (push (format "at line %d col %d to line %d col %d" (car beg) (cdr beg) (car end) (cdr end))
            problems))
    (unless (eq (flymake-diagnostic-type d) (plist-get want :type))
      (push (format "type %s" (flymake-diagnostic-type d)) problems))
    (unless (and (string-prefix-p (plist-get want :text) text)
                 (cl-every (lambda (piece) (string-search piece text)) (plist-get want :has)))
      (push (format "text %S" text) problems))
    (nreverse problems)))

(defun rpn-test-diagnostics-match-p (want)
  (let ((got (rpn-test-diagnostics)))
    (and (= (length got) (length want))
         (cl-every (lambda (d w) (null (rpn-test-diagnostic-problems d w))) got want))))

(defun rpn-test-describe-diagnostics (diagnostics)
  (mapconcat (lambda (d)
               (let ((beg (rpn-test-line-col (flymake-diagnostic-beg d)))
                     (end (rpn-test-line-col (flymake-diagnostic-end d))))
                 (format "%d:%d-%d:%d %s %S" (car beg) (cdr beg) (car end) (cdr end)
                         (flymake-diagnostic-type d) (flymake-diagnostic-text d))))
             diagnostics "; "))

(defun rpn-test-check-diagnostics (want what &optional seconds)
  "Wait until flymake holds exactly WANT, then check each."
  (rpn-test-wait (lambda () (rpn-test-diagnostics-match-p want)) (or seconds rpn-test-timeout))
  (let ((got (rpn-test-diagnostics)))
    (when (rpn-test-check (= (length got) (length want))
                          (format "%s: flymake holds %d diagnostics" what (length want))
                          (format "got %d: %s" (length got) (rpn-test-describe-diagnostics got)))
      (cl-mapc
       (lambda (d w)
         (let ((problems (rpn-test-diagnostic-problems d w)))
           (rpn-test-check
            (null problems)
            (format "%s: %s at line %d, columns %d-%d, %s, text %S…%s"
                    what (substring (plist-get w :text) 4 -2) (plist-get w :line) (plist-get w :col)
                    (plist-get w :end) (plist-get w :type) (plist-get w :text)
                    (mapconcat (lambda (p) (concat " " p)) (plist-get w :has) ""))
            (concat "got " (string-join problems ", ")))))
       got want))))

;;;; Requests

(defvar rpn-test-server nil)

(defun rpn-test-request (method params)
  "Send METHOD with PARAMS to the server (after any pending change); return (RESULT . ERROR)."
  (eglot--signal-textDocument/didChange)
  (condition-case err
      (cons (jsonrpc-request rpn-test-server method params :timeout rpn-test-timeout) nil)
    (error (cons nil (format "%S" err)))))

(defun rpn-test-hint-label (hint)
  (let ((label (plist-get hint :label)))
    (if (stringp label) label
      (mapconcat (lambda (part) (plist-get part :value)) label ""))))

(defun rpn-test-hint-character (line)
  "Where LINE's hint belongs: after its last token, before a comment (LSP units)."
  (let* ((text (rpn-test-line-text line))
         (code (replace-regexp-in-string "[[:space:]]+\\'" "" (car (split-string text "#")))))
    (rpn-test-utf16 code)))

(defun rpn-test-raw-hints ()
  (rpn-test-request :textDocument/inlayHint
                    (list :textDocument (eglot--TextDocumentIdentifier)
                          :range (list :start (list :line 0 :character 0)
                                       :end (list :line (count-lines (point-min) (point-max))
                                                  :character 0)))))

(defun rpn-test-effect-character (line)
  "Where LINE's effect hint belongs: right after its first `;' token (LSP units)."
  (let* ((text (rpn-test-line-text line))
         (code (car (split-string text "#")))
         (start (string-match "\\(?:\\`\\|[[:space:]]\\);\\(?:[[:space:]]\\|\\'\\)" code)))
    (and start (rpn-test-utf16 (substring code 0 (1+ (string-search ";" code start)))))))

(defun rpn-test-hint-kind (hint)
  "What HINT shows, told by its label: `effect' (a word's `( a b -- r )', or
what a unit is, `= 0.75_m' or `new dimension'), `section' (a summary,
`Σ 20.5 · 2 values · avg 10.25' or `no values'), or `stack'."
  (let ((label (rpn-test-hint-label hint)))
    (cond ((or (string-prefix-p "(" label) (string-prefix-p "= " label) (equal label "new dimension")) 'effect)
          ((or (string-prefix-p "Σ" label) (equal label "no values")) 'section)
          (t 'stack))))

(defun rpn-test-check-hints (hints expected what &optional only)
  "Compare HINTS (LSP InlayHints) with EXPECTED: labels, places, padding.
EXPECTED holds (LINE . STACK) for each line with tokens: its stack hint,
after its last token; (LINE STACK . EFFECT) for a line that defines a
word: also the word's effect hint, right after its `;'; and (LINE
:section . SUMMARY) for a heading: its section's summary, at the line's
end (`rpn-test-hint-kind' tells them apart).  With ONLY, lines not in
EXPECTED are not checked."
  (let ((by-line (make-hash-table :test #'equal)) problems (count 0))
    (seq-doseq (hint hints)
      (let* ((line (1+ (plist-get (plist-get hint :position) :line)))
             (kind (rpn-test-hint-kind hint)))
        (when (gethash (cons line kind) by-line)
          (push (format "two %s hints on line %d" kind line) problems))
        (puthash (cons line kind) hint by-line)))
    (pcase-dolist (`(,line . ,want-line) expected)
      (dolist (kind '(stack effect section))
        (let ((want (cond ((and (consp want-line) (eq (car want-line) :section))
                           (and (eq kind 'section) (cdr want-line)))
                          ((consp want-line)
                           (pcase kind ('stack (car want-line)) ('effect (cdr want-line))))
                          (t (and (eq kind 'stack) want-line))))
              (hint (gethash (cons line kind) by-line)))
          (when want (cl-incf count))
          (cond
           ((and want (not hint))
            (push (format "line %d: no %s hint (want %s)" line kind want) problems))
           (want
            (let ((got (rpn-test-hint-label hint))
                  (char (plist-get (plist-get hint :position) :character))
                  (want-char (pcase kind
                               ('stack (rpn-test-hint-character line))
                               ('effect (rpn-test-effect-character line))
                               (_ (rpn-test-utf16 (rpn-test-line-text line))))))
              (unless (equal got want)
                (push (format "line %d: %s label %S, want %S" line kind got want) problems))
              (unless (eql char want-char)
                (push (format "line %d: %s hint at character %s, want %s (%s, %s)"
                              line kind char want-char rpn-test-encoding
                              (pcase kind
                                ('stack "after the last token")
                                ('effect "right after `;'")
                                (_ "at the line's end")))
                      problems))
              (unless (eq (plist-get hint :paddingLeft) t)
                (push (format "line %d: %s hint paddingLeft %S, want t"
                              line kind (plist-get hint :paddingLeft))
                      problems))))
           (hint
            (push (format "line %d: unexpected %s hint %S" line kind (rpn-test-hint-label hint))
                  problems))))))
    (maphash (lambda (key hint)
               (unless (or only (assq (car key) expected))
                 (push (format "line %d: unexpected hint %S" (car key) (rpn-test-hint-label hint))
                       problems)))
             by-line)
    (rpn-test-check (null problems)
                    (format "%s: %d hints, labels and positions exact" what count)
                    (string-join (nreverse problems) "; "))))

(defun rpn-test-check-raw-hints (expected what &optional only)
  (pcase-let ((`(,hints . ,err) (rpn-test-raw-hints)))
    (when (rpn-test-check (and hints (not err)) (format "%s: textDocument/inlayHint answered" what)
                          (or err "null result"))
      (rpn-test-check-hints hints expected what only))))

(defun rpn-test-hover (line col what pieces token-col token-end)
  "Hover at LINE:COL; the text eglot formats must hold PIECES (backticks aside)."
  (goto-char (rpn-test-pos line col))
  (pcase-let ((`(,result . ,err) (rpn-test-request :textDocument/hover
                                                    (eglot--TextDocumentPositionParams))))
    (when (rpn-test-check (and result (not err)) (format "%s: hover answered" what)
                          (or err "null result"))
      (let* ((contents (plist-get result :contents))
             (text (eglot--hover-info contents (plist-get result :range)))
             (plain (replace-regexp-in-string "`" "" (substring-no-properties text)))
             (missing (cl-remove-if (lambda (p) (string-search p plain)) pieces)))
        (rpn-test-check (null missing)
                        (format "%s: eglot's hover text (%s) has %s" what
                                (or (plist-get contents :kind) "plain string")
                                (mapconcat #'rpn-test-show pieces " / "))
                        (format "missing %s in %S (%s)" (mapconcat #'rpn-test-show missing ", ")
                                text (or (plist-get contents :kind) "no kind")))
        (let ((want (rpn-test-lsp-range line token-col token-end))
              (got (rpn-test-lsp-range-text (plist-get result :range))))
          (rpn-test-check (equal got want)
                          (format "%s: hover range is the token, %s (%s)" what want
                                  rpn-test-encoding)
                          (concat "got " got)))))))

;;;; Font-lock

(defun rpn-test-face-at (pos)
  (let ((face (get-text-property pos 'face)))
    (if (and (listp face) (= (length face) 1)) (car face) face)))

(defun rpn-test-check-face (line needle face what &optional nth)
  "Every character of the NTH NEEDLE on LINE has FACE (nil: no face)."
  (let* ((col (rpn-test-col line needle nth))
         (beg (rpn-test-pos line col))
         (faces (cl-loop for p from beg below (+ beg (length needle))
                         collect (rpn-test-face-at p))))
    (rpn-test-check (cl-every (lambda (f) (eq f face)) faces)
                    (format "font-lock: %s %S (line %d) is %s" what needle line (or face "unfontified"))
                    (format "faces %S" faces))))

(defun rpn-test-check-check-face (line token what &optional nth)
  "The NTH TOKEN on LINE is fontified as a check: its `=' as an operator
\(`font-lock-keyword-face'), every character after it as a number
\(`font-lock-constant-face')."
  (let* ((beg (rpn-test-pos line (rpn-test-col line token nth)))
         (sign (rpn-test-face-at beg))
         (value (cl-loop for p from (1+ beg) below (+ beg (length token))
                         collect (rpn-test-face-at p))))
    (rpn-test-check (and (eq sign 'font-lock-keyword-face)
                         (cl-every (lambda (f) (eq f 'font-lock-constant-face)) value))
                    (format "font-lock: %s %S (line %d) is a check: `=' a keyword, the value a constant"
                            what token line)
                    (format "faces %S, then %S" sign value))))

(defun rpn-test-check-quantity-face (line token what)
  "TOKEN on LINE is fontified as a quantity (`12_km'): its number in
`font-lock-constant-face', its unit from its `_' in `font-lock-type-face';
a check of one (`=12.5_km') has its `=' in `font-lock-keyword-face' first."
  (let* ((beg (rpn-test-pos line (rpn-test-col line token)))
         (unit (string-match "_[^0-9]" token))
         (sign (if (eq (aref token 0) ?=) 1 0))
         (want (append (make-list sign 'font-lock-keyword-face)
                       (make-list (- unit sign) 'font-lock-constant-face)
                       (make-list (- (length token) unit) 'font-lock-type-face)))
         (faces (cl-loop for p from beg below (+ beg (length token))
                         collect (rpn-test-face-at p))))
    (rpn-test-check (equal faces want)
                    (format "font-lock: %s %S (line %d): %s" what token line
                            "the number a constant, the unit a type")
                    (format "faces %S" faces))))

(defun rpn-test-check-token-faces (line face what)
  "Every whitespace-separated token on LINE has FACE (nil: no face) on every character."
  (let ((text (rpn-test-line-text line)) (from 0))
    (while (string-match "[^ \t]+" text from)
      (let* ((token (match-string 0 text))
             (beg (rpn-test-pos line (match-beginning 0)))
             (faces (cl-loop for p from beg below (+ beg (length token))
                             collect (rpn-test-face-at p))))
        (setq from (match-end 0))
        (rpn-test-check (cl-every (lambda (f) (eq f face)) faces)
                        (format "font-lock: %s %S (line %d) is %s" what token line (or face "unfontified"))
                        (format "faces %S" faces))))))

(defun rpn-test-check-fontification ()
  (font-lock-ensure)
  (rpn-test-check-face 6 "12.5" 'font-lock-constant-face "a number")
  (rpn-test-check-face 6 "−3" 'font-lock-constant-face "a number with U+2212")
  (rpn-test-check-face 6 "2.5E-4" 'font-lock-constant-face "a number with an exponent")
  (rpn-test-check-face 6 "1_000_000" 'font-lock-constant-face "a number with `_'")
  (rpn-test-check-face 10 "+" 'font-lock-keyword-face "an operator")
  (rpn-test-check-face 12 "×" 'font-lock-keyword-face "the operator ×")
  (rpn-test-check-face 13 "**" 'font-lock-keyword-face "the operator **")
  (rpn-test-check-face 13 "pow" 'font-lock-builtin-face "a named operator")
  (rpn-test-check-face 48 "dup" 'font-lock-builtin-face "a named operator")
  (rpn-test-check-face 36 "pi" 'font-lock-constant-face "a constant")
  (rpn-test-check-face 18 "=rent" 'font-lock-variable-name-face "a store")
  (rpn-test-check-face 21 "rent" nil "a variable use")
  (rpn-test-check-face 66 "swpa" nil "an unknown word")
  (rpn-test-check-face 59 ":" 'font-lock-keyword-face "the sample's definition starts")
  (rpn-test-check-face 59 "hyp" 'font-lock-function-name-face "the word the sample defines")
  (rpn-test-check-face 59 ";" 'font-lock-keyword-face "the sample's definition ends")
  (rpn-test-check-face 60 "hyp" nil "a use of the sample's word (a name)")
  (rpn-test-check-face 61 "lastx" 'font-lock-builtin-face "a named operator")
  (rpn-test-check-check-face 52 "=20.5" "the sample's check")
  (rpn-test-check-check-face 55 "=1.5e3" "the sample's check with an exponent")
  (rpn-test-check-face 54 "left" nil "a variable use before a check")
  (rpn-test-check-face 10 "5" 'font-lock-comment-face "a trailing comment")
  (rpn-test-check-face 71 "## Groceries" 'rpn-heading "the sample's heading")
  (rpn-test-check-face 74 "subtotal" 'font-lock-builtin-face "a named operator")
  (rpn-test-check-face 69 "##" 'font-lock-comment-face "`##' inside a comment (no heading)")
  (let ((line (rpn-test-line-text 1)))
    (rpn-test-check (memq (rpn-test-face-at (rpn-test-pos 1 (1- (length line))))
                          '(font-lock-comment-face))
                    "font-lock: line 1 is a comment"
                    (format "face %S" (rpn-test-face-at (rpn-test-pos 1 (1- (length line)))))))
  ;; Edge cases of the language, in a scratch buffer.
  (with-temp-buffer
    (rpn-mode)
    (insert "4+ DUP Sqrt PI π √ =dup =ok 1#x =é_2 12.5.3 1_000_\n")
    (font-lock-ensure)
    (rpn-test-check-face 1 "4+" nil "one token, no operator")
    (rpn-test-check-face 1 "DUP" 'font-lock-builtin-face "ASCII case-insensitive")
    (rpn-test-check-face 1 "Sqrt" 'font-lock-builtin-face "ASCII case-insensitive")
    (rpn-test-check-face 1 "PI" 'font-lock-constant-face "ASCII case-insensitive")
    (rpn-test-check-face 1 "π" 'font-lock-constant-face "the constant")
    (rpn-test-check-face 1 "√" 'font-lock-keyword-face "the operator")
    (rpn-test-check-face 1 "=dup" 'font-lock-warning-face "a store into an operator (invalid-name)")
    (rpn-test-check-face 1 "=ok" 'font-lock-variable-name-face "a store")
    (rpn-test-check-face 1 "1" 'font-lock-constant-face "a number right before `#'")
    (rpn-test-check-face 1 "x" 'font-lock-comment-face "`#' inside a token starts a comment")
    (rpn-test-check-face 1 "=é_2" 'font-lock-comment-face "after `#', a comment")
    (erase-buffer)
    (insert ".5 12. +3 =é_2 12.5.3 1_000_ 1__0\n")
    (font-lock-ensure)
    (rpn-test-check-face 1 "=é_2" 'font-lock-variable-name-face "a store with a non-ASCII name")
    (rpn-test-check-face 1 "12.5.3" nil "no number")
    (rpn-test-check-face 1 "1_000_" nil "no number")
    (rpn-test-check-face 1 "1__0" nil "no number")
    (rpn-test-check-face 1 ".5" 'font-lock-constant-face "a number")
    (rpn-test-check-face 1 "12." 'font-lock-constant-face "a number")
    (rpn-test-check-face 1 "+3" 'font-lock-constant-face "a signed number")
    ;; Checks: `=' and a number literal, the whole token; near-misses keep their old faces.
    (erase-buffer)
    (insert "=20.5 =0.333 =-2.5 =−2.5 =+3 =1.5e3 =2.5E-4 =1_000 =.5 =12. =007\n"
            "=2x = =1.2.3 =1.5x =1e3.5 =--3 =1__0 ==5 =5= =1e =dup =rate\n"
            "a=5 =20.5x 12.5 8 + =20.5#c\n")
    (font-lock-ensure)
    (dolist (token '("=20.5" "=0.333" "=-2.5" "=−2.5" "=+3" "=1.5e3" "=2.5E-4" "=1_000" "=.5"
                     "=12." "=007"))
      (rpn-test-check-check-face 1 token "a check"))
    (dolist (token '("=2x" "=1.2.3" "=1.5x" "=1e3.5" "=--3" "=1__0" "==5" "=5=" "=1e"))
      (rpn-test-check-face 2 token nil "no check (an invalid store)"))
    (rpn-test-check-face 2 "=" nil "`=' alone: no check" 2)
    (rpn-test-check-face 2 "=dup" 'font-lock-warning-face "still a store into an operator, no check")
    (rpn-test-check-face 2 "=rate" 'font-lock-variable-name-face "still a store, no check")
    (rpn-test-check-face 3 "a=5" nil "no check inside a token")
    (rpn-test-check-face 3 "=20.5x" nil "no check: the token goes on")
    (rpn-test-check-check-face 3 "=20.5" "right before `#'" 2)
    (rpn-test-check-face 3 "c" 'font-lock-comment-face "the comment after a check")
    ;; Thousands grouped with commas (one to three digits, then groups of exactly three, before
    ;; any point) and integers in hex, octal and binary are numbers, as checks too; commas out of
    ;; place and bad digits make none.
    (erase-buffer)
    (insert "1,234,567.89 -1,000 −1,000 +1,000 1,234. 1,234e3 1,234.5_6 0,001 1_2,345\n"
            "0x1F 0X1f 0o17 0O17 0b1010 0B1010 −0xFF +0o7 0xFF_FF 0b1010_1010 0xdead_BEEF 0x1e3\n"
            "1,5 12,34 1,,000 ,5 1,000,00 1234,567 1,234.5,6 1,_000 1_,000 1, 1,2345 .5,000\n"
            "0x 0xG 0b102 0x1p3 0o8 0x_FF 0xFF_ 0xF__F 00x1F 0x1F.5 0xFFz 0b1e3 0x1F,000 0x-1\n"
            "=1,234.50 =-1,000 =−1,000 =0xFF =−0b1010 =0o17 =0XFF_FF =1,000e3\n"
            "=1,5 =0xG =0x =12,34 =0b102 =,5 =1,000,00 =0x1F.5\n"
            "# rpn: notation=fixed decimals=2 grouping=true\n")
    (font-lock-ensure)
    (rpn-test-check-token-faces 1 'font-lock-constant-face "a number grouped in thousands")
    (rpn-test-check-token-faces 2 'font-lock-constant-face "an integer in hex, octal or binary")
    (rpn-test-check-token-faces 3 nil "a comma out of place: no number")
    (rpn-test-check-token-faces 4 nil "a bad hex, octal or binary literal: no number")
    (dolist (token '("=1,234.50" "=-1,000" "=−1,000" "=0xFF" "=−0b1010" "=0o17" "=0XFF_FF" "=1,000e3"))
      (rpn-test-check-check-face 5 token "a check"))
    (rpn-test-check-token-faces 6 nil "no check (an invalid store)")
    ;; A settings line is a plain comment: only those above the first token apply, which
    ;; font-lock's line-by-line rules cannot tell.
    (rpn-test-check-face 7 "rpn: notation=fixed decimals=2 grouping=true" 'font-lock-comment-face
                         "a settings line's text")
    ;; Units: quantities `12_km' (the number a constant, the unit with its `_' a type), unit
    ;; words `_km' `>mi' `->mi' `→mi' (types), checks of quantities, uval and ubase; malformed
    ;; units make no quantity and no unit word.
    (erase-buffer)
    (insert "12_km 1_000_km 9.81_m/s^2 -40_°C 2.5_kW*h 1_J/(kg*K) 5_m² 0.2_s^-1 3_Ω 20_Δ°C 12_m²² 1_∆°C\n"
            "=12.5_km =-40_°C =1_000_km =−3_J/(kg*K)\n"
            "_km _m/s _1/s _kg·m² _°C >mi ->mi →mi >km/h >°F _s⁻² >m/s^2\n"
            "0x1F_km 12_ 12__km 12_km/ 12_m/s/s 12_(m) 12_m^0 12_m^100 12_1/s _ > -> → _1 __km >>mi >h:m\n"
            "uval ubase UVAL =_x1 _x1\n")
    (font-lock-ensure)
    (dolist (token '("12_km" "1_000_km" "9.81_m/s^2" "-40_°C" "2.5_kW*h" "1_J/(kg*K)" "5_m²" "0.2_s^-1"
                     "3_Ω" "20_Δ°C" "12_m²²" "1_∆°C"))
      (rpn-test-check-quantity-face 1 token "a quantity"))
    (dolist (token '("=12.5_km" "=-40_°C" "=1_000_km" "=−3_J/(kg*K)"))
      (rpn-test-check-quantity-face 2 token "a check of a quantity"))
    (rpn-test-check-token-faces 3 'font-lock-type-face "a unit word")
    (rpn-test-check-token-faces 4 nil "a malformed unit: no quantity, no unit word")
    (rpn-test-check-face 5 "uval" 'font-lock-builtin-face "a named operator")
    (rpn-test-check-face 5 "ubase" 'font-lock-builtin-face "a named operator")
    (rpn-test-check-face 5 "UVAL" 'font-lock-builtin-face "a named operator")
    (rpn-test-check-face 5 "=_x1" nil "no store: a name starts with a letter")
    (rpn-test-check-face 5 "_x1" nil "no name, no unit word")
    ;; Times and angles in fields of sixty: numbers, and after `=' checks; in a unit (two fields
    ;; in h, min, ° or deg, three in h, ° or deg) quantities; formats (`>h:mm') unit words.
    ;; Written wrongly (invalid-number, invalid-unit to the server): no face on any character.
    (erase-buffer)
    (insert "1:30 1:30:15 27:10 -0:30 −0:30 +1:30 1:30:15.5 1:30.5 1:30. 100:59:59\n"
            "=2:15 =1:30:15.5 =-0:30 =−1:30:15\n"
            "4:35_min 48:46:32_° 48:46_deg 1:30_h 1:30:15_h 48:46:32.5_deg −0:30_° 2:15.5_min\n"
            "=4:35_min =48:46:32_° =-1:30_h\n"
            ">h:mm >h:mm:ss >min:ss >°:mm >°:mm:ss >deg:mm >deg:mm:ss ->h:mm →min:ss →h:mm:ss ->deg:mm:ss\n"
            "1:75 1:5 1: :30 1:30: 1::30 1.5:30 1:30_km 1:00:00:00 1:30:15_min 1:60 1:300 1:30.5.5 1:30e3 4:\n"
            "1,000:30 0x1:30 1:30_ 1:30__h 1:30_min_ --1:30 =1:75 =1:30_km =1:30:15_min =:30 =4: ==2:15\n"
            ">h:m >hh:mm >min:mm >h:mm:s >°:ss >h:mm:ss:ss _min:ss _h:mm\n")
    (font-lock-ensure)
    (rpn-test-check-token-faces 1 'font-lock-constant-face "a time or angle (a number)")
    (dolist (token '("=2:15" "=1:30:15.5" "=-0:30" "=−1:30:15"))
      (rpn-test-check-check-face 2 token "a check of a time or angle"))
    (dolist (token '("4:35_min" "48:46:32_°" "48:46_deg" "1:30_h" "1:30:15_h" "48:46:32.5_deg" "−0:30_°"
                     "2:15.5_min"))
      (rpn-test-check-quantity-face 3 token "a time or angle in a unit"))
    (dolist (token '("=4:35_min" "=48:46:32_°" "=-1:30_h"))
      (rpn-test-check-quantity-face 4 token "a check of a time or angle in a unit"))
    (rpn-test-check-token-faces 5 'font-lock-type-face "a format, a unit word")
    (rpn-test-check-token-faces 6 nil "a time or angle written wrongly: no number")
    (rpn-test-check-token-faces 7 nil "a time or angle written wrongly: no number, no check")
    (rpn-test-check-token-faces 8 nil "no format: no unit word")
    ;; Definitions: `:' and `;' keywords, the name after `:' a function's name (a builtin's
    ;; keeps its face: it cannot be defined); a use is a name, as a variable's is.
    (erase-buffer)
    (insert ": hyp sq swap sq + sqrt ; 3 4 hyp lastx\n"
            "1 2 :\tw_2 + ; : é ; : dup 2 * ; : PI ; : 12 ;\n"
            "4: x; :x ;x :: ;; :; : =x ; :#c\n")
    (font-lock-ensure)
    (rpn-test-check-face 1 ":" 'font-lock-keyword-face "a definition's start")
    (rpn-test-check-face 1 "hyp" 'font-lock-function-name-face "the name a definition defines")
    (rpn-test-check-face 1 "swap" 'font-lock-builtin-face "a named operator in a body")
    (rpn-test-check-face 1 ";" 'font-lock-keyword-face "a definition's end")
    (rpn-test-check-face 1 "hyp" nil "a use of a word (a name)" 2)
    (rpn-test-check-face 1 "lastx" 'font-lock-builtin-face "the named operator")
    (rpn-test-check-face 2 ":" 'font-lock-keyword-face "a definition's start after tokens")
    (rpn-test-check-face 2 "w_2" 'font-lock-function-name-face "a name after `:' and a tab")
    (rpn-test-check-face 2 "é" 'font-lock-function-name-face "a non-ASCII name after `:'")
    (rpn-test-check-face 2 "dup" 'font-lock-builtin-face "a builtin's name after `:' (no definition)")
    (rpn-test-check-face 2 "PI" 'font-lock-constant-face "a constant's name after `:' (no definition)")
    (rpn-test-check-face 2 "12" 'font-lock-constant-face "a number after `:' (no definition)")
    (dolist (token '("4:" "x;" ":x" ";x" "::" ";;" ":;"))
      (rpn-test-check-face 3 token nil "`:' or `;' glued to a token: no keyword"))
    (rpn-test-check-face 3 "=x" 'font-lock-variable-name-face "a store after `:' (no definition)")
    (rpn-test-check-face 3 ":" 'font-lock-keyword-face "`:' right before `#'" 7)
    (rpn-test-check-face 3 "c" 'font-lock-comment-face "the comment after `:'")
    ;; Units a tape defines: the unit after `:' a unit word (a type, not a function's name), the
    ;; body's quantity, `;' a keyword; the units' uses quantities and unit words.
    (erase-buffer)
    (insert ": _EUR 1.08_USD ; 100_EUR >USD : _box ; 3_box\n")
    (font-lock-ensure)
    (rpn-test-check-face 1 ":" 'font-lock-keyword-face "a unit's definition's start")
    (rpn-test-check-face 1 "_EUR" 'font-lock-type-face "the unit a definition defines")
    (rpn-test-check-quantity-face 1 "1.08_USD" "a rate, in a unit's definition")
    (rpn-test-check-face 1 ";" 'font-lock-keyword-face "a unit's definition's end")
    (rpn-test-check-quantity-face 1 "100_EUR" "an amount")
    (rpn-test-check-face 1 ">USD" 'font-lock-type-face "a conversion to a currency")
    (rpn-test-check-face 1 "_box" 'font-lock-type-face "a new dimension's name")
    (rpn-test-check-quantity-face 1 "3_box" "a quantity in a unit of the tape's own")
    ;; Headings: a line that holds only a comment starting with `##'; after a token `##'
    ;; starts a plain comment.
    (erase-buffer)
    (insert "## Groceries\n  ### Fruit and veg\n##\n1 2 ## total\n# mentions ## only\n")
    (font-lock-ensure)
    (rpn-test-check-face 1 "## Groceries" 'rpn-heading "a heading")
    (rpn-test-check-face 2 "### Fruit and veg" 'rpn-heading "an indented heading with three `#'")
    (rpn-test-check-face 3 "##" 'rpn-heading "a heading without a title")
    (rpn-test-check-face 4 "total" 'font-lock-comment-face "`##' after tokens: a plain comment")
    (rpn-test-check-face 5 "only" 'font-lock-comment-face "`##' inside a comment: a plain comment")))

(defun rpn-test-check-sections-outline ()
  "The sample's sections in `imenu' (\"Sections\") and as `outline-minor-mode' headings."
  (let* ((index (save-excursion (imenu--make-index-alist t)))
         (sections (mapcar #'car (cdr (assoc "Sections" index)))))
    (rpn-test-check (equal sections '("Groceries" "Rent"))
                    "imenu lists the sample's sections under \"Sections\": Groceries, Rent"
                    (format "index %S" index)))
  (save-excursion
    (outline-minor-mode 1)
    (goto-char (rpn-test-pos 71 0))
    (outline-hide-subtree)
    (let ((hidden (cl-loop for line from 70 to 76
                           collect (and (invisible-p (rpn-test-pos line 0)) t))))
      (rpn-test-check (equal hidden '(nil nil t t t nil nil))
                      "outline-minor-mode hides the section `## Groceries' (lines 72-74) up to `## Rent'"
                      (format "lines 70-76 invisible: %S" hidden)))
    (outline-show-all)
    (outline-minor-mode -1)))

;;;; Defined words

(defconst rpn-test-words-lines '(": hyp sq swap sq + sqrt ;" "3 4 hyp" "6 8 hyp # 10")
  "words.rpn: a word defined on line 1, used on lines 2 and 3.")

(defconst rpn-test-words-hints '((1 "[]" . "( a b -- r )") (2 . "[5]") (3 . "[5 10]"))
  "words.rpn's inlay hints: each line's stack, and the word's effect after `;'.")

(defun rpn-test-words (sample-buffer)
  "A defined word in words.rpn, beside SAMPLE-BUFFER's file: eglot manages it; no
diagnostics; hover on the definition's name and on a use says the effect `( a b -- r )'
and line 1; the effect's inlay hint right after `;'; `xref-find-definitions' from a use
goes to the name; `eglot-rename' renames the word at its definition and every use, and
back.  Returns to SAMPLE-BUFFER."
  (let* ((file (expand-file-name "words.rpn"
                                 (file-name-directory (buffer-file-name sample-buffer))))
         (text (concat (string-join rpn-test-words-lines "\n") "\n")))
    (with-temp-file file (insert text))
    (find-file file)
    (unwind-protect
        (when (rpn-test-check (rpn-test-connect)
                              "eglot manages a second .rpn buffer, which defines a word (words.rpn)"
                              (format "%s; server stderr: %S" rpn-test-connect-error (rpn-test-stderr)))
          (rpn-test-check-diagnostics nil "a defined word and its uses")
          (let ((name (rpn-test-col 1 "hyp"))
                (use (rpn-test-col 2 "hyp")))
            (rpn-test-hover 1 (1+ name) "hover on the name `hyp' after `:' (line 1)"
                            '("hyp" "( a b -- r )" "line 1") name (+ name 3))
            (rpn-test-hover 2 (+ use 3) "hover on a use of `hyp' (line 2), point right after it"
                            '("hyp" "( a b -- r )" "line 1") use (+ use 3))
            (rpn-test-check-raw-hints rpn-test-words-hints
                                      "words.rpn (the effect `( a b -- r )' after `;')")
            ;; Go to definition: from the use on line 3 to the name after `:'.
            (goto-char (rpn-test-pos 3 (1+ (rpn-test-col 3 "hyp"))))
            (condition-case err
                (progn
                  (call-interactively #'xref-find-definitions)
                  (rpn-test-check (and (equal (buffer-file-name) file)
                                       (equal (rpn-test-line-col (point)) (cons 1 name)))
                                  (format "xref-find-definitions on a use of `hyp' (line 3) goes to its name (line 1, column %d)" name)
                                  (format "point at %S in %s" (rpn-test-line-col (point)) (buffer-name))))
              (error (rpn-test-fail "xref-find-definitions on a use of `hyp'" (format "%S" err))))
            (switch-to-buffer (get-file-buffer file))
            ;; Rename from a use, then back from the definition's name.
            (condition-case err
                (progn
                  (goto-char (rpn-test-pos 2 (1+ use)))
                  (eglot-rename "hypot")
                  (rpn-test-idle)
                  (let ((want '(": hypot sq swap sq + sqrt ;" "3 4 hypot" "6 8 hypot # 10"))
                        (got (mapcar #'rpn-test-line-text '(1 2 3))))
                    (rpn-test-check (equal got want)
                                    "eglot-rename renames the word `hyp' to `hypot' at its definition and both uses"
                                    (format "lines 1-3: %S" got)))
                  (rpn-test-check-diagnostics nil "after renaming the word" rpn-test-client-wait)
                  (goto-char (rpn-test-pos 1 (1+ name)))
                  (eglot-rename "hyp")
                  (rpn-test-idle))
              (error (rpn-test-fail "eglot-rename of a word" (format "%S" err))))
            (rpn-test-check (equal (buffer-string) text)
                            "eglot-rename back, from the definition's name, gives words.rpn again"
                            (rpn-test-first-difference (buffer-string) text))
            (rpn-test-check-raw-hints rpn-test-words-hints "words.rpn after renaming the word and back")))
      (when (get-file-buffer file)
        (with-current-buffer (get-file-buffer file) (set-buffer-modified-p nil)))
      (switch-to-buffer sample-buffer)
      (setq rpn-test-server (or (eglot-current-server) rpn-test-server)))))

(defconst rpn-test-units-lines '(": _pace 0.75_m ;" "1200_pace >km" "12_pace/h >pace/min")
  "units.rpn: a unit of the tape's own defined on line 1, used on lines 2 and 3.")

(defconst rpn-test-units-hints '((1 "[]" . "= 0.75_m") (2 . "[0.9_km]") (3 . "[0.9_km 0.2_pace/min]"))
  "units.rpn's inlay hints: each line's stack, and what the unit is after `;'.")

(defun rpn-test-units (sample-buffer)
  "A unit of the tape's own in units.rpn, beside SAMPLE-BUFFER's file: no
diagnostics; hover on its definition says what one pace is, hover on `1200_pace'
gives the rate and its line; the hint `= 0.75_m' right after `;';
`xref-find-definitions' from `12_pace/h' goes to `_pace'; `eglot-rename' from a
use renames it in the definition, the quantities and the conversion, and back
from the definition.  Returns to SAMPLE-BUFFER."
  (let* ((file (expand-file-name "units.rpn"
                                 (file-name-directory (buffer-file-name sample-buffer))))
         (text (concat (string-join rpn-test-units-lines "\n") "\n")))
    (with-temp-file file (insert text))
    (find-file file)
    (unwind-protect
        (when (rpn-test-check (rpn-test-connect)
                              "eglot manages a third .rpn buffer, which defines a unit (units.rpn)"
                              (format "%s; server stderr: %S" rpn-test-connect-error (rpn-test-stderr)))
          (rpn-test-check-diagnostics nil "a unit of the tape's own and its uses")
          (let ((name (rpn-test-col 1 "_pace"))
                (use (rpn-test-col 2 "1200_pace")))
            (rpn-test-hover 1 (+ name 2) "hover on the unit `_pace' after `:' (line 1)"
                            '("unit pace (the tape's own), defined on line 1" "1 pace = 0.75 m") name (+ name 5))
            (rpn-test-hover 2 (+ use 6) "hover on `1200_pace' (line 2)"
                            '("quantity 1200_pace" "rate: 1 pace = 0.75 m, line 1") use (+ use 9))
            (rpn-test-check-raw-hints rpn-test-units-hints "units.rpn (what the unit is, `= 0.75_m', after `;')")
            ;; Go to definition: from the unit inside `12_pace/h' to the `_pace' after `:'.
            (goto-char (rpn-test-pos 3 (+ 4 (rpn-test-col 3 "12_pace/h"))))
            (condition-case err
                (progn
                  (call-interactively #'xref-find-definitions)
                  (rpn-test-check (and (equal (buffer-file-name) file)
                                       (equal (rpn-test-line-col (point)) (cons 1 name)))
                                  (format "xref-find-definitions on `pace' in `12_pace/h' (line 3) goes to `_pace' (line 1, column %d)" name)
                                  (format "point at %S in %s" (rpn-test-line-col (point)) (buffer-name))))
              (error (rpn-test-fail "xref-find-definitions on a unit of the tape's own" (format "%S" err))))
            (switch-to-buffer (get-file-buffer file))
            ;; Rename from a use, then back from the definition.
            (condition-case err
                (progn
                  (goto-char (rpn-test-pos 2 (+ use 6)))
                  (eglot-rename "stride")
                  (rpn-test-idle)
                  (let ((want '(": _stride 0.75_m ;" "1200_stride >km" "12_stride/h >stride/min"))
                        (got (mapcar #'rpn-test-line-text '(1 2 3))))
                    (rpn-test-check (equal got want)
                                    "eglot-rename renames the unit `pace' to `stride' in its definition, both quantities and the conversion"
                                    (format "lines 1-3: %S" got)))
                  (rpn-test-check-diagnostics nil "after renaming the unit" rpn-test-client-wait)
                  (goto-char (rpn-test-pos 1 (+ name 2)))
                  (eglot-rename "pace")
                  (rpn-test-idle))
              (error (rpn-test-fail "eglot-rename of a unit" (format "%S" err))))
            (rpn-test-check (equal (buffer-string) text)
                            "eglot-rename back, from the definition, gives units.rpn again"
                            (rpn-test-first-difference (buffer-string) text))
            (rpn-test-check-raw-hints rpn-test-units-hints "units.rpn after renaming the unit and back")))
      (when (get-file-buffer file)
        (with-current-buffer (get-file-buffer file) (set-buffer-modified-p nil)))
      (switch-to-buffer sample-buffer)
      (setq rpn-test-server (or (eglot-current-server) rpn-test-server)))))

;;;; Completion of a typed prefix, as a user does it

(defun rpn-test-completions-listed ()
  "The candidates *Completions* lists, in its order."
  (with-current-buffer "*Completions*"
    (save-excursion
      (goto-char (point-min))
      (let (seen listed)
        (next-completion 1)
        (while (and (not (memq (point) seen)) (get-text-property (point) 'completion--string))
          (push (point) seen)
          (push (substring-no-properties (get-text-property (point) 'completion--string)) listed)
          (next-completion 1))
        (nreverse listed)))))

(defun rpn-test-complete-prefix ()
  "`9 sq' typed on a new last line: `completion-at-point' (C-M-i) leaves `9 sq' (an
exact match; not `9 sqq', nor a word the prefix does not start); `completion-help-at-point'
\(what C-M-i again, or M-?, shows) lists only the words that start with `sq', sq and sqrt;
choosing the Nth in *Completions* (RET on it) makes the line exactly `9 ' and that word."
  (let ((buffer (current-buffer))
        (window (selected-window))
        (last (progn (goto-char (point-max)) (line-number-at-pos)))
        listed)
    (dotimes (n 2)
      (goto-char (rpn-test-pos last 0))
      (delete-region (point) (point-max))
      (insert "9 sq")
      (rpn-test-idle)
      (completion-at-point)
      (rpn-test-idle)
      (when (= n 0)
        (rpn-test-check (equal (rpn-test-line-text last) "9 sq")
                        "completion-at-point on `9 sq' leaves `9 sq' (exact, not unique)"
                        (format "line %d is %S" last (rpn-test-line-text last))))
      (completion-help-at-point)
      (if (not (get-buffer-window "*Completions*"))
          (rpn-test-fail "completion-help-at-point shows *Completions*" "no window shows it")
        (setq listed (rpn-test-completions-listed))
        (when (= n 0)
          (rpn-test-check (equal (sort (copy-sequence listed) #'string<) '("sq" "sqrt"))
                          "*Completions* for `9 sq' lists sq and sqrt, nothing else"
                          (format "listed %S" listed)))
        (select-window (get-buffer-window "*Completions*"))
        (goto-char (point-min))
        (next-completion (1+ n))
        (let ((choice (get-text-property (point) 'completion--string)))
          (choose-completion)
          (select-window window)
          (switch-to-buffer buffer)
          (rpn-test-idle)
          (rpn-test-check (equal (rpn-test-line-text last) (concat "9 " choice))
                          (format "choosing candidate %d in *Completions* (%s) makes the line `9 %s'"
                                  (1+ n) choice choice)
                          (format "line %d is %S" last (rpn-test-line-text last))))))
    (when (get-buffer-window "*Completions*")
      (delete-window (get-buffer-window "*Completions*")))
    (select-window window)
    (switch-to-buffer buffer)
    (delete-region (rpn-test-pos last 0) (point-max))
    (rpn-test-idle)))

;;;; Stacks and diagnostics at line ends (rpn-mode's own, for eglot without inlay hints)

(defconst rpn-test-stacks-lines
  '("# the stacks at line ends" "12.5 8 +" "3 =x        # three" "clear" "1 +" "x 2 *")
  "stacks.rpn: a stack on each line with tokens, none on the comment, an underflow on line 5.")

(defun rpn-test-line-ends ()
  "What `rpn-line-end-stacks-mode' shows: ((LINE (COLUMN . TEXT) …) …), each line's
overlay strings in the order they show (by column, then the stack before the diagnostic)."
  (let (overlays by-line)
    (dolist (overlay (overlays-in (point-min) (point-max)))
      (when (overlay-get overlay 'rpn-line-end) (push overlay overlays)))
    (setq overlays (sort overlays (lambda (a b)
                                    (if (= (overlay-start a) (overlay-start b))
                                        (> (overlay-get a 'priority) (overlay-get b 'priority))
                                      (< (overlay-start a) (overlay-start b))))))
    (dolist (overlay overlays)
      (let* ((at (rpn-test-line-col (overlay-start overlay)))
             (entry (cons (cdr at) (substring-no-properties (overlay-get overlay 'after-string)))))
        (if (assq (car at) by-line)
            (nconc (assq (car at) by-line) (list entry))
          (push (list (car at) entry) by-line))))
    (nreverse by-line)))

(defun rpn-test-underflow-text (line)
  "The line end rpn-mode should show for the diagnostic flymake holds on LINE:
`  ← ' and its code and message, eglot's `rpn [code]: ' made `code: '."
  (let ((d (seq-find (lambda (d) (= (car (rpn-test-line-col (flymake-diagnostic-beg d))) line))
                     (flymake-diagnostics))))
    (and d (replace-regexp-in-string "\\`rpn \\[\\([^]]+\\)\\]: " "  ← \\1: "
                                     (flymake-diagnostic-text d)))))

(defun rpn-test-check-line-ends (want what)
  "Wait until the line ends are WANT (as `rpn-test-line-ends' gives them), then check."
  (rpn-test-wait (lambda () (rpn-test-idle) (equal (rpn-test-line-ends) want)))
  (let ((got (rpn-test-line-ends)))
    (rpn-test-check (equal got want) what
                    (format "got %S, want %S" got want))))

(defun rpn-test-stacks (sample-buffer)
  "rpn-mode's stacks and diagnostics at line ends, for eglot without inlay hints.
In SAMPLE-BUFFER: on where eglot has no `eglot-inlay-hints-mode' (the README snippet's
run), off where it has one (the stand-in: eglot 1.12+ draws the hints itself).  In
stacks.rpn, opened with eglot as 1.9 is (no `eglot-inlay-hints-mode' even in the run
that has the stand-in): the exact overlay strings on the exact lines; after an edit (a
number changed, a line inserted) the new stacks and no old one; after the underflow is
mended, its message gone; `rpn-line-end-stacks-mode' off removes every overlay."
  (with-current-buffer sample-buffer
    (if rpn-test-stand-in-hints
        (rpn-test-check (not rpn-line-end-stacks-mode)
                        "with eglot-inlay-hints-mode (the stand-in for eglot 1.12+), rpn-line-end-stacks-mode stays off in the sample"
                        "it is on")
      (rpn-test-check rpn-line-end-stacks-mode
                      "eglot 1.9 (no eglot-inlay-hints-mode): rpn-line-end-stacks-mode is on in the sample"
                      "it is off")
      ;; The window shows the sample from its top (completion's list scrolled it).
      (set-window-start (selected-window) (point-min))
      (run-hook-with-args 'window-scroll-functions (selected-window) (window-start))
      (rpn-test-wait (lambda () (rpn-test-idle) (assq 6 (rpn-test-line-ends))))
      (let ((ends (rpn-test-line-ends)))
        (rpn-test-check (equal (cdr (assq 52 ends)) '((14 . " [20.5]")))
                        "the sample's line 52 `12.5 8 + =20.5' shows ` [20.5]' after its last token (column 14)"
                        (format "line 52: %S" (cdr (assq 52 ends))))
        (rpn-test-check (equal (cdr (assq 59 ends)) '((25 . " ( a b -- r )") (25 . " []")))
                        "the sample's line 59 (a definition) shows the word's effect, then the stack, after `;'"
                        (format "line 59: %S" (cdr (assq 59 ends))))
        (rpn-test-check (equal (mapcar #'cdr (cdr (assq 65 ends)))
                               (list " [1]" (rpn-test-underflow-text 65)))
                        "the sample's line 65 `1 +' shows ` [1]' and its stack-underflow message"
                        (format "line 65: %S" (cdr (assq 65 ends)))))
      ;; Only the lines on screen are asked for: scrolled to line 50 (as redisplay would
      ;; report it through `window-scroll-functions'), lines above it lose their stacks.
      (set-window-start (selected-window) (rpn-test-pos 50 0))
      (run-hook-with-args 'window-scroll-functions (selected-window) (window-start))
      (rpn-test-wait (lambda () (rpn-test-idle)
                       (let ((lines (mapcar #'car (rpn-test-line-ends))))
                         (and lines (>= (apply #'min lines) 50)))))
      (let ((lines (mapcar #'car (rpn-test-line-ends))))
        (rpn-test-check (and lines (>= (apply #'min lines) 50) (memq 52 lines))
                        "scrolled to line 50: stacks from line 50 down, none above"
                        (format "lines with line ends %S" lines)))
      (set-window-start (selected-window) (point-min))
      (run-hook-with-args 'window-scroll-functions (selected-window) (window-start))
      (rpn-test-wait (lambda () (rpn-test-idle) (assq 6 (rpn-test-line-ends))))
      (rpn-test-check (assq 6 (rpn-test-line-ends)) "scrolled back to the top: line 6 has its stack again"
                      (format "lines with line ends %S" (mapcar #'car (rpn-test-line-ends))))))
  (let* ((file (expand-file-name "stacks.rpn"
                                 (file-name-directory (buffer-file-name sample-buffer))))
         (text (concat (string-join rpn-test-stacks-lines "\n") "\n")))
    (with-temp-file file (insert text))
    (unwind-protect
        (progn
          ;; As eglot 1.9 is: no `eglot-inlay-hints-mode' while eglot takes the buffer.
          (cl-letf (((symbol-function 'eglot-inlay-hints-mode) nil))
            (find-file file)
            (rpn-test-check (rpn-test-connect) "eglot manages stacks.rpn"
                            (or rpn-test-connect-error "no server")))
          (rpn-test-check rpn-line-end-stacks-mode
                          "rpn-line-end-stacks-mode is on in stacks.rpn (eglot without inlay hints)"
                          "it is off")
          (let ((underflow (progn (rpn-test-wait (lambda () (rpn-test-idle)
                                                   (rpn-test-underflow-text 5)))
                                  (rpn-test-underflow-text 5))))
            (rpn-test-check (and underflow (string-prefix-p "  ← stack-underflow: " underflow)
                                 (string-search "`+`" underflow))
                            "flymake holds line 5's stack-underflow, shown as `  ← stack-underflow: …`+`…'"
                            (format "%S" underflow))
            (rpn-test-check-line-ends
             `((2 (8 . " [20.5]"))
               (3 (4 . " [20.5 3]"))
               (4 (5 . " []"))
               (5 (3 . " [1]") (3 . ,underflow))
               (6 (5 . " [1 6]")))
             "line ends: each line's stack after its last token (line 3's before its comment), line 5's underflow message after the line")
            ;; An answer to a buffer changed since the request is dropped: `8' becomes `9',
            ;; the request goes out with the change, and `9' becomes `7' before the answer
            ;; (for `9') is read.
            (let ((eight (rpn-test-pos 2 (rpn-test-col 2 "8"))))
              (goto-char eight)
              (delete-char 1)
              (insert "9")
              (rpn-test-idle)
              (goto-char eight)
              (delete-char 1)
              (insert "7")
              (let ((deadline (+ (float-time) 1.0)))
                (while (< (float-time) deadline) (accept-process-output nil 0.05)))
              (rpn-test-check (equal (cdr (assq 2 (rpn-test-line-ends))) '((8 . " [20.5]")))
                              "an answer for a text already changed again is dropped: line 2 keeps ` [20.5]', never shows ` [21.5]'"
                              (format "line 2: %S" (cdr (assq 2 (rpn-test-line-ends)))))
              (rpn-test-wait (lambda () (rpn-test-idle)
                               (equal (cdr (assq 2 (rpn-test-line-ends))) '((8 . " [19.5]")))))
              (rpn-test-check (equal (cdr (assq 2 (rpn-test-line-ends))) '((8 . " [19.5]")))
                              "then the next request shows `12.5 7 +' as ` [19.5]'"
                              (format "line 2: %S" (cdr (assq 2 (rpn-test-line-ends)))))
              (goto-char eight)
              (delete-char 1)
              (insert "8"))
            ;; The edit: `8' becomes `9', and a line `10 -' goes in after it.
            (goto-char (rpn-test-pos 2 (rpn-test-col 2 "8")))
            (delete-char 1)
            (insert "9")
            (goto-char (rpn-test-pos 3 0))
            (insert "10 -\n")
            (rpn-test-check-line-ends
             `((2 (8 . " [21.5]"))
               (3 (4 . " [11.5]"))
               (4 (4 . " [11.5 3]"))
               (5 (5 . " []"))
               (6 (3 . " [1]") (3 . ,underflow))
               (7 (5 . " [1 6]")))
             "after changing `8' to `9' and inserting `10 -': the new stacks on the lines they moved to, no old one")
            ;; Diagnostics reach flymake on their own schedule: a report alone redraws the
            ;; messages (here, with every line end taken away by hand, no stack comes back).
            (remove-overlays (point-min) (point-max) 'rpn-line-end t)
            (flymake-start)
            (rpn-test-wait (lambda () (rpn-test-line-ends)))
            (rpn-test-check (equal (rpn-test-line-ends) `((6 (3 . ,underflow))))
                            "a flymake report alone draws the messages at line ends again (no stack request)"
                            (format "got %S" (rpn-test-line-ends))))
          ;; The underflow mended: its message goes.
          (goto-char (rpn-test-pos 6 1))
          (insert " 2")
          (rpn-test-check-line-ends
           '((2 (8 . " [21.5]"))
             (3 (4 . " [11.5]"))
             (4 (4 . " [11.5 3]"))
             (5 (5 . " []"))
             (6 (5 . " [3]"))
             (7 (5 . " [3 6]")))
           "after `1 +' became `1 2 +': ` [3]' and no message on line 6")
          (rpn-line-end-stacks-mode -1)
          (rpn-test-check (null (rpn-test-line-ends))
                          "rpn-line-end-stacks-mode off removes every overlay"
                          (format "left %S" (rpn-test-line-ends)))
          (rpn-line-end-stacks-mode 1)
          (rpn-test-wait (lambda () (rpn-test-idle) (rpn-test-line-ends)))
          (eglot--managed-mode -1)
          (rpn-test-check (and (not rpn-line-end-stacks-mode) (null (rpn-test-line-ends)))
                          "eglot leaving the buffer turns rpn-line-end-stacks-mode off and removes its overlays"
                          (format "mode %S, left %S" rpn-line-end-stacks-mode (rpn-test-line-ends))))
      (when (get-file-buffer file)
        (with-current-buffer (get-file-buffer file)
          (set-buffer-modified-p nil)
          (kill-buffer)))
      (switch-to-buffer sample-buffer)
      (setq rpn-test-server (or (eglot-current-server) rpn-test-server)))))

;;;; The run

(defun rpn-test-format-with-command-line (text)
  "What `rpn-lsp format -' (the server the config starts) prints for TEXT."
  (with-temp-buffer
    (insert text)
    (let ((coding-system-for-read 'utf-8-unix) (coding-system-for-write 'utf-8-unix))
      (call-process-region (point-min) (point-max) (car (rpn-lsp-server-command-for-test)) t
                           (list t nil) nil "format" "-"))
    (buffer-string)))

(defun rpn-test-replace-line (text line new)
  "TEXT with its LINE (1-based) replaced by NEW."
  (let ((lines (split-string text "\n")))
    (setcar (nthcdr (1- line) lines) new)
    (string-join lines "\n")))

(defun rpn-test-first-difference (got want)
  "Where GOT and WANT first differ, by line."
  (let ((a (split-string got "\n")) (b (split-string want "\n")) (n 1))
    (while (and a b (equal (car a) (car b)))
      (setq a (cdr a) b (cdr b) n (1+ n)))
    (format "line %d is %S, want %S" n (car a) (car b))))

(defun rpn-test-sample-text ()
  (with-temp-buffer
    (insert-file-contents (getenv "RPN_TEST_FILE"))
    (buffer-string)))

(defvar rpn-test-connect-error nil "Why the last `rpn-test-connect' failed.")

(defun rpn-test-stderr ()
  "The last lines of eglot's stderr buffer for the server."
  (let ((buffer (cl-find-if (lambda (b) (string-match-p "\\`\\*EGLOT.*stderr\\*\\'" (buffer-name b)))
                            (buffer-list))))
    (if (not buffer) "(no *EGLOT … stderr* buffer)"
      (with-current-buffer buffer
        (let ((text (string-trim (buffer-string))))
          (if (> (length text) 600) (substring text -600) text))))))

(defun rpn-test-connect ()
  "Run a command's worth of hooks so `eglot-ensure' connects; return the server or nil."
  (setq rpn-test-connect-error nil)
  (condition-case err
      (progn
        (run-hooks 'post-command-hook)
        (setq rpn-test-server
              (rpn-test-wait (lambda () (and (bound-and-true-p eglot--managed-mode)
                                             (eglot-current-server)))))
        (unless rpn-test-server
          (setq rpn-test-connect-error (format "no server after %ss" rpn-test-timeout)))
        rpn-test-server)
    (error (setq rpn-test-connect-error (format "%S" err))
           nil)))

(defvar rpn-test-shipped (equal (getenv "RPN_TEST_SHIPPED") "1")
  "Non-nil when the config is the shipped rpn-eglot.el.")

(defvar rpn-test-stand-in-hints nil
  "Non-nil when `eglot-inlay-hints-mode' is the stand-in defined here.")

(cl-defun rpn-test-run ()
  ;; eglot 1.9 has no `eglot-inlay-hints-mode'.  So that rpn-eglot.el's handling of it (for
  ;; eglot 1.12+) runs here too, a stand-in minor mode takes its place.
  (when (and rpn-test-shipped (not (fboundp 'eglot-inlay-hints-mode)))
    (setq rpn-test-stand-in-hints t)
    (define-minor-mode eglot-inlay-hints-mode
      "A stand-in for eglot 1.12's mode of that name: it does nothing."
      :init-value nil))
  (let ((file (getenv "RPN_TEST_FILE")))
    (find-file file)
    (rpn-test-check (eq major-mode 'rpn-mode) "a .rpn file opens in rpn-mode"
                    (format "major-mode is %s" major-mode))
    (rpn-test-check (derived-mode-p 'prog-mode) "rpn-mode derives from prog-mode"
                    (format "parent %S" (get major-mode 'derived-mode-parent)))
    (rpn-test-check (and (equal comment-start "# ") (member comment-end '("" nil)))
                    "comment syntax: comment-start \"# \", no comment-end"
                    (format "comment-start %S comment-end %S" comment-start comment-end))
    (let* ((col (+ 2 (rpn-test-col 10 "# 5")))
           (in-comment (nth 4 (syntax-ppss (rpn-test-pos 10 col)))))
      (rpn-test-check in-comment "syntax: `#' after tokens starts a comment (syntax-ppss)"
                      (format "syntax-ppss at line 10 col %d: %S" col (syntax-ppss (rpn-test-pos 10 col)))))
    (save-excursion
      (goto-char (rpn-test-pos 18 6))
      (rpn-test-check (equal (thing-at-point 'symbol t) "=rent")
                      "syntax: a token is one symbol (`=rent')"
                      (format "symbol at point %S" (thing-at-point 'symbol t))))
    (rpn-test-check-fontification)
    (rpn-test-check-sections-outline)

    ;; eglot: connects once a command has run.
    (unless (rpn-test-check (rpn-test-connect)
                            "eglot-ensure connects after a command (post-command-hook) and manages the buffer"
                            (format "%s; eglot-server-programs has %S, so the command is %S; server stderr: %S"
                                    rpn-test-connect-error (assq 'rpn-mode eglot-server-programs)
                                    (rpn-lsp-server-command-for-test) (rpn-test-stderr)))
      (cl-return-from rpn-test-run))
    (let ((project (eglot--project rpn-test-server)))
      (rpn-test-check (eq (car-safe project) 'transient)
                      (format "single-file mode: eglot uses a transient project (%s)" (cdr-safe project))
                      (format "project %S" project)))
    (rpn-test-check (equal (eglot--language-id rpn-test-server) "rpn")
                    "languageId is \"rpn\""
                    (format "languageId %S" (eglot--language-id rpn-test-server)))
    (let* ((process (jsonrpc--process rpn-test-server))
           (command (process-command process))
           (want (rpn-lsp-server-command-for-test)))
      (rpn-test-check (equal command want)
                      (format "the server runs as %s" (string-join command " "))
                      (format "command %S, want %S" command want)))
    (let ((caps (eglot--capabilities rpn-test-server)))
      (let* ((offered (append (plist-get (plist-get (eglot-client-capabilities rpn-test-server)
                                                    :general)
                                         :positionEncodings)
                              nil))
             (chosen (plist-get caps :positionEncoding)))
        (setq rpn-test-encoding (or chosen "utf-16"))
        (rpn-test-check (if offered (member chosen offered) (member chosen '(nil "utf-16")))
                        (format "position encoding: %s (eglot offers %s)" rpn-test-encoding
                                (if offered (string-join offered ", ") "none, so UTF-16"))
                        (format "server chose %S" chosen)))
      (rpn-test-check (and (plist-get caps :hoverProvider) (plist-get caps :completionProvider)
                           (plist-get caps :inlayHintProvider))
                      "the server advertises hover, completion and inlay hints"
                      (format "capabilities %S" caps)))
    (rpn-test-check (bound-and-true-p flymake-mode) "flymake-mode is on (eglot's diagnostics)"
                    "flymake-mode is off")

    ;; Diagnostics.
    (rpn-test-check-diagnostics (rpn-test-sample-diagnostics) "sample")

    ;; Hover on `+' of line 10 (`2 3 +'), and on `sq' of line 37 (after `√').
    (rpn-test-hover 10 4 "hover on `+' (line 10)"
                    '("+" "add" "( a b -- a+b )" "Stack before: [2 3]" "Stack after: [5]") 4 5)
    (let ((sq (rpn-test-col 37 "sq")))
      (rpn-test-hover 37 (1+ sq) "hover on `sq' after `√' (line 37)"
                      '("sq" "Stack before: [0.5 1.4142135623731]" "Stack after: [0.5 2]")
                      sq (+ sq 2)))
    ;; Hover as eldoc shows it (eglot's eldoc function, in the echo area).
    (goto-char (rpn-test-pos 10 4))
    (let ((shown nil))
      (if (not (fboundp 'eglot-hover-eldoc-function))
          (rpn-test--out "  (no eglot-hover-eldoc-function in this eglot: eldoc check skipped)")
        (eglot-hover-eldoc-function (lambda (info &rest _) (setq shown (or info "")) t))
        (rpn-test-wait (lambda () shown))
        (rpn-test-check (and (stringp shown)
                             (string-search "Stack after: [5]" (replace-regexp-in-string "`" "" shown)))
                        "eldoc: eglot's hover function shows the stack after `+'"
                        (format "eldoc got %S" shown))))

    ;; Inlay hints: eglot 1.9 has no UI for them; the raw request.
    (rpn-test-check-raw-hints rpn-test-sample-hints "raw inlay hints")
    (if (fboundp 'eglot-inlay-hints-mode)
        (rpn-test-check (bound-and-true-p eglot-inlay-hints-mode)
                        (if rpn-test-stand-in-hints
                            "rpn-eglot.el turns eglot-inlay-hints-mode on when eglot manages the buffer (a stand-in mode: eglot 1.9 has none)"
                          "eglot-inlay-hints-mode is on in the buffer")
                        "eglot-inlay-hints-mode is off")
      (rpn-test--out "  (eglot has no eglot-inlay-hints-mode: before 1.12, no inlay-hint UI)"))

    ;; Completion at the start of `rent' on line 21: nothing typed yet, so every item (past its
    ;; first letters the server keeps only the items that match them).
    (goto-char (rpn-test-pos 21 0))
    (let* ((capf (eglot-completion-at-point))
           (table (nth 2 capf))
           (props (nthcdr 3 capf))
           (all (and table (all-completions "" table)))
           (missing (cl-remove-if (lambda (w) (member w all))
                                  '("dup" "sqrt" "√" "π" "pi" "+" "swap" "subtotal"
                                    "rent" "income" "groceries" "phone"))))
      (rpn-test-check (and capf (null missing))
                      "completion candidates include dup, sqrt, √, π, pi, +, swap, subtotal and the variables rent, income, groceries, phone"
                      (format "missing %S among %d candidates" missing (length all)))
      (rpn-test-check (not (or (member "left" all) (member "total" all)))
                      "completion leaves out variables stored below (left, total)"
                      (format "candidates %S" all))
      (let* ((annotate (plist-get props :annotation-function))
             (note (and annotate (member "rent" all) (funcall annotate (car (member "rent" all))))))
        (rpn-test-check (and (stringp note) (string-search "1200" note))
                        "completion annotates `rent' with its value 1200"
                        (format "annotation %S" note))))
    ;; completion-at-point, the command: `groc' on a new last line becomes `groceries'.
    (goto-char (point-max))
    (let ((last (line-number-at-pos)))
      (insert "groc")
      (rpn-test-idle)
      (completion-at-point)
      (rpn-test-idle)
      (rpn-test-check (equal (rpn-test-line-text last) "groceries")
                      (format "completion-at-point completes `groc' to `groceries' on a new line %d" last)
                      (format "line %d is %S" last (rpn-test-line-text last)))
      ;; The new line ends the Rent section: its heading's summary counts `groceries' too.
      (rpn-test-check-raw-hints
       (append (mapcar (lambda (hint)
                         (if (equal hint '(75 :section . "Σ 945.5 · 2 values · avg 472.75"))
                             '(75 :section . "Σ 1255.9 · 3 values · avg 418.633333333333")
                           hint))
                       rpn-test-sample-hints)
               `((,last . "[23.7 900 45.5 310.4]")))
       "after completing")
      (delete-region (rpn-test-pos last 0) (point-max))
      (rpn-test-idle))

    ;; A typed prefix completed as a user does it: `9 sq' → `9 sq' or `9 sqrt'.
    (rpn-test-complete-prefix)

    ;; Incremental edits: `2 3 +' becomes `2 30 +'; after `÷' on line 12, ` 😀 sqrtt' (two
    ;; unknown words, the second after a character that is two UTF-16 units).
    (goto-char (rpn-test-pos 10 3))
    (insert "0")
    (let ((after-div (1+ (rpn-test-col 12 "÷"))))
      (goto-char (rpn-test-pos 12 after-div))
      (insert " 😀 sqrtt")
      (rpn-test-idle)
      (rpn-test-check-diagnostics
       (append (list (list :line 12 :col (+ after-div 1) :end (+ after-div 2) :type 'eglot-error
                           :text "rpn [unknown-word]: " :has '("`😀`"))
                     (list :line 12 :col (+ after-div 3) :end (+ after-div 8) :type 'eglot-error
                           :text "rpn [unknown-word]: " :has '("`sqrtt`" "`sqrt`")))
               (rpn-test-sample-diagnostics))
       "after two edits" rpn-test-client-wait)
      (rpn-test-check-raw-hints
       (append '((10 . "[32]") (11 . "[32 6]") (12 . "[32 6 42 42]") (13 . "[32 6 42 42 1024 3 8]"))
               (cl-remove-if (lambda (h) (memq (car h) '(10 11 12 13))) rpn-test-sample-hints))
       "after two edits")
      (delete-region (rpn-test-pos 12 after-div) (rpn-test-pos 12 (+ after-div 8)))
      (delete-region (rpn-test-pos 10 3) (rpn-test-pos 10 4))
      (rpn-test-idle))
    (rpn-test-check-diagnostics (rpn-test-sample-diagnostics) "after undoing the edits"
                                rpn-test-client-wait)
    (rpn-test-check (equal (buffer-string) (rpn-test-sample-text)) "the buffer is the sample again"
                    "it differs")

    ;; Go to definition: on `rent' (line 21), xref jumps to `=rent' (line 18).
    (goto-char (rpn-test-pos 21 1))
    (condition-case err
        (progn
          (call-interactively #'xref-find-definitions)
          (rpn-test-check (equal (rpn-test-line-col (point)) '(18 . 5))
                          "xref-find-definitions on `rent' (line 21) goes to `=rent' (line 18, column 5)"
                          (format "point at %S in %s" (rpn-test-line-col (point)) (buffer-name))))
      (error (rpn-test-fail "xref-find-definitions on `rent'" (format "%S" err))))
    (switch-to-buffer (get-file-buffer file))

    ;; Rename `rent' to `housing' everywhere, and back.
    (goto-char (rpn-test-pos 21 1))
    (condition-case err
        (progn
          (eglot-rename "housing")
          (rpn-test-idle)
          (rpn-test-check (and (equal (rpn-test-line-text 18) "1200 =housing")
                               (string-prefix-p "housing groceries + " (rpn-test-line-text 21)))
                          "eglot-rename renames `rent' to `housing' at its store and its use"
                          (format "lines 18, 21: %S, %S" (rpn-test-line-text 18) (rpn-test-line-text 21)))
          (goto-char (rpn-test-pos 21 1))
          (eglot-rename "rent")
          (rpn-test-idle))
      (error (rpn-test-fail "eglot-rename" (format "%S" err))))
    (rpn-test-check (equal (buffer-string) (rpn-test-sample-text))
                    "renaming back gives the sample again" "it differs")

    ;; Formatting, of lines made messy here (the sample itself is formatted: `rpn-lsp format
    ;; --check' passes on it in CI).  Line 10 gets spaces between its tokens, its comment left at
    ;; the column it shares with lines 11-13; lines 42-44 get their comments lined up at a column
    ;; of their own; line 65's comment no longer lines up with line 66's.
    (let ((messy '((10 . "  2 3    +              # 5")
                   (42 . "depth           # how many values: 8")
                   (43 . "drop  sum       # add them all: 31")
                   (44 . "3 4 5 avg       # avg (or mean) of the whole stack")
                   (65 . "1 + # stack-underflow: + needs two values")))
          (sample (rpn-test-sample-text)))
      (dolist (line messy)
        (goto-char (rpn-test-pos (car line) 0))
        (delete-region (point) (line-end-position))
        (insert (cdr line)))
      (rpn-test-idle)
      (let ((messy-text (buffer-string))
            ;; Line 10 and lines 42-44 as the sample has them; line 65 keeps its one space, as
            ;; nothing says any more that its comment lined up with line 66's.
            (want (rpn-test-replace-line sample 65 "1 + # stack-underflow: + needs two values")))
        (condition-case err
            (progn
              (eglot-format-buffer)
              (rpn-test-idle)
              (rpn-test-check (equal (rpn-test-line-text 10) "2 3 +                   # 5")
                              "eglot-format-buffer: one space between tokens, the comment still lined up with lines 11-13 (line 10)"
                              (format "line 10 is %S" (rpn-test-line-text 10)))
              (rpn-test-check (equal (mapcar #'rpn-test-line-text '(42 43 44))
                                     '("depth     # how many values: 8"
                                       "drop sum  # add them all: 31"
                                       "3 4 5 avg # avg (or mean) of the whole stack"))
                              "eglot-format-buffer: comments lined up at one column stay lined up, one space after the longest line (lines 42-44)"
                              (format "lines 42-44 are %S" (mapcar #'rpn-test-line-text '(42 43 44))))
              (rpn-test-check (equal (buffer-string) want)
                              "eglot-format-buffer: the whole buffer is exactly the expected text (the sample, line 65 with one space before its comment)"
                              (rpn-test-first-difference (buffer-string) want))
              (let ((cli (rpn-test-format-with-command-line messy-text)))
                (rpn-test-check (equal (buffer-string) cli)
                                "eglot-format-buffer agrees with `rpn-lsp format -' on the messy text"
                                (rpn-test-first-difference (buffer-string) cli))))
          (error (rpn-test-fail "eglot-format-buffer" (format "%S" err))))))
    (let ((formatted (buffer-string)))
      ;; The quick fix for `swpa': `swap'.
      (goto-char (rpn-test-pos 66 (1+ (rpn-test-col 66 "swpa"))))
      (condition-case err
          ;; One quick fix is applied without asking; should there be more, the menu is
          ;; answered here (with the one that says `swap').
          (cl-letf (((symbol-function 'completing-read)
                     (lambda (_prompt collection &rest _)
                       (let ((all (all-completions "" collection)))
                         (or (seq-find (lambda (c) (string-search "swap" c)) all) (car all)))))
                    (last-nonmenu-event ?\r))
            (eglot-code-actions (point) (point) "quickfix" t)
            (rpn-test-idle)
            (rpn-test-check (string-prefix-p "4 5 swap" (rpn-test-line-text 66))
                            "eglot-code-actions: the quick fix turns `swpa' into `swap'"
                            (format "line 66 is %S" (rpn-test-line-text 66))))
        (error (rpn-test-fail "eglot-code-actions on `swpa'" (format "%S" err))))
      (rpn-test-check (equal (buffer-string) (string-replace "4 5 swpa" "4 5 swap" formatted))
                      "the quick fix changed nothing but `swpa'"
                      (rpn-test-first-difference
                       (buffer-string) (string-replace "4 5 swpa" "4 5 swap" formatted)))
      (rpn-test-check-diagnostics (list (car (rpn-test-sample-diagnostics)))
                                  "after the quick fix" rpn-test-client-wait))

    ;; A defined word, in a buffer of its own.
    (rpn-test-words (current-buffer))

    ;; A unit of the tape's own, in a buffer of its own.
    (rpn-test-units (current-buffer))

    ;; Stacks and diagnostics at line ends (eglot 1.9 has no inlay hints).
    (rpn-test-stacks (current-buffer))

    ;; Settings (rpn-eglot.el): `rpn-lsp-settings' go in initializationOptions when eglot starts.
    ;; And `rpn-eglot-inlay-hints' nil keeps inlay hints off.
    (when rpn-test-shipped
      (eglot-shutdown rpn-test-server)
      (erase-buffer)
      (insert (rpn-test-sample-text))
      (setq rpn-lsp-settings '(:angleUnit "degrees" :inlayHints (:maxItems 3)))
      (setq rpn-eglot-inlay-hints nil)
      (eglot-ensure)
      (when (rpn-test-check (rpn-test-connect)
                            "eglot-ensure starts the server again, with rpn-lsp-settings"
                            "no server")
        (rpn-test-check-raw-hints
         '((36 . "[0.00913839539717604]") (41 . "[… 9 2 6]"))
         "rpn-lsp-settings (:angleUnit \"degrees\" :inlayHints (:maxItems 3))" t)
        (rpn-test-check (not (bound-and-true-p eglot-inlay-hints-mode))
                        "rpn-eglot-inlay-hints nil: eglot-inlay-hints-mode stays off"
                        "it is on")
        ;; Settings on a running server: eglot-workspace-configuration, sent by
        ;; `eglot-signal-didChangeConfiguration' (as the README says).
        (setq-default eglot-workspace-configuration '(:rpn (:angleUnit "radians")))
        (eglot-signal-didChangeConfiguration rpn-test-server)
        (let ((label nil))
          (rpn-test-wait
           (lambda ()
             (let ((hints (car (rpn-test-raw-hints))))
               (setq label (cl-loop for h across (or hints [])
                                    when (= (plist-get (plist-get h :position) :line) 35)
                                    return (rpn-test-hint-label h)))
               (equal label "[0.5]")))
           rpn-test-client-wait)
          (rpn-test-check (equal label "[0.5]")
                          "eglot-workspace-configuration (:rpn (:angleUnit \"radians\")) + eglot-signal-didChangeConfiguration: line 36 is [0.5] again"
                          (format "line 36's hint is %S" label)))))

    ;; Shutdown.
    (let ((process (jsonrpc--process rpn-test-server)))
      (ignore-errors (eglot-shutdown rpn-test-server))
      (rpn-test-check (rpn-test-wait (lambda () (not (process-live-p process))))
                      "eglot-shutdown stops the server"
                      (format "process %s still %s" process (process-status process))))
    (set-buffer-modified-p nil)))

(defun rpn-lsp-server-command-for-test ()
  "The command the config should have started: its `eglot-server-programs' entry."
  (let ((contact (cdr (assq 'rpn-mode eglot-server-programs))))
    (when (functionp contact) (setq contact (funcall contact nil)))
    (cl-loop for x in contact while (stringp x) collect x)))

(defun rpn-test-main ()
  (condition-case err
      (rpn-test-run)
    (error (rpn-test-fail "the test script itself failed" (format "%S" err))))
  (rpn-test--out (format "%s: %d checks passed, %d failed" rpn-test-label rpn-test-passed
                         rpn-test-failed))
  (kill-emacs (if (> rpn-test-failed 0) 1 0)))

(rpn-test-main)
;;; test.el ends here
