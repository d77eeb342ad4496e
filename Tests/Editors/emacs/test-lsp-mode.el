;;; test-lsp-mode.el --- Headless check of rpn-lsp-mode.el (lsp-mode) -*- lexical-binding: t; -*-

;; Runs in `emacs --batch' with no init file and packages not yet activated; run.sh sets:
;;   RPN_TEST_LABEL    what to call this run in messages
;;   RPN_TEST_CONFIGS  EditorConfigs/emacs
;;   RPN_TEST_FILE     a copy of EditorConfigs/sample.rpn, in a folder that is no project
;;   RPN_TEST_SCRATCH  a folder to byte-compile into
;;   RPN_LSP           the server
;; Prints one line per check; exits 0 when all passed, 1 otherwise.
;;
;; 1. rpn-mode.el, rpn-eglot.el and rpn-lsp-mode.el byte-compile without a warning, with
;;    neither eglot nor lsp-mode loaded.
;; 2. With lsp-mode hidden from `load-path' (as if it were not installed): the compiled
;;    rpn-lsp-mode loads without loading lsp-mode, and a .rpn file opens in rpn-mode with a
;;    message instead of an error.
;; 3. When lsp-mode is installed (Debian 12: elpa-lsp-mode 8.0.0): packages activated as at
;;    startup, lsp-mode loaded, the client `rpn-lsp' is registered (languageId "rpn", the
;;    command from $RPN_LSP, activation in rpn-mode buffers); then a real session on the
;;    sample (its folder imported as the project root, as a user answers lsp-mode's question):
;;    the diagnostics lsp-mode received, and a hover through `lsp-request'.

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'bytecomp)

(defvar rpn-test-label (or (getenv "RPN_TEST_LABEL") "Emacs + lsp-mode"))
(defvar rpn-test-passed 0)
(defvar rpn-test-failed 0)
(defconst rpn-test-timeout 10.0)

(defun rpn-test--out (string) (princ (concat string "\n")))

(defun rpn-test-check (condition what &optional detail)
  (if condition
      (progn (cl-incf rpn-test-passed) (rpn-test--out (concat "  ok    " what)))
    (cl-incf rpn-test-failed)
    (rpn-test--out (format "  FAIL  [%s] %s%s" rpn-test-label what (if detail (concat ": " detail) ""))))
  condition)

(defun rpn-test-wait (predicate &optional seconds)
  (let ((deadline (+ (float-time) (or seconds rpn-test-timeout))) value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    value))

(defun rpn-test-stderr (name-part)
  "The last lines of the first buffer whose name contains NAME-PART and `stderr'."
  (let ((buffer (cl-find-if (lambda (b) (and (string-search name-part (buffer-name b))
                                             (string-search "stderr" (buffer-name b))))
                            (buffer-list))))
    (if (not buffer) "(no stderr buffer)"
      (with-current-buffer buffer
        (let ((text (string-trim (buffer-string))))
          (if (> (length text) 600) (substring text -600) text))))))

(defun rpn-test-idle ()
  "A command has run and the user pauses: `post-command-hook', then the idle timers."
  (run-hooks 'post-command-hook)
  (dolist (timer (copy-sequence timer-idle-list))
    (when (memq timer timer-idle-list) (timer-event-handler timer))))

(defvar rpn-test-configs (file-name-as-directory (getenv "RPN_TEST_CONFIGS")))
(defvar rpn-test-compiled (file-name-as-directory
                           (expand-file-name "compiled" (getenv "RPN_TEST_SCRATCH"))))

(defun rpn-test-compile ()
  "Byte-compile the three files in a copy of the folder; check there are no warnings."
  (make-directory rpn-test-compiled t)
  (dolist (file '("rpn-mode.el" "rpn-eglot.el" "rpn-lsp-mode.el"))
    (copy-file (expand-file-name file rpn-test-configs) (expand-file-name file rpn-test-compiled) t))
  (let ((load-path (cons rpn-test-compiled load-path)))
    (dolist (file '("rpn-mode.el" "rpn-eglot.el" "rpn-lsp-mode.el"))
      (let ((log (get-buffer-create byte-compile-log-buffer)))
        (with-current-buffer log (let ((inhibit-read-only t)) (erase-buffer)))
        (let* ((ok (byte-compile-file (expand-file-name file rpn-test-compiled)))
               (text (with-current-buffer log (buffer-string)))
               (warnings (and (string-match-p "\\(Warning\\|Error\\)" text) (string-trim text))))
          (rpn-test-check (and ok (not warnings))
                          (format "%s byte-compiles without warnings (eglot and lsp-mode not loaded)" file)
                          (or warnings "byte-compile-file failed"))))))
  (rpn-test-check (not (or (featurep 'eglot) (featurep 'lsp-mode)))
                  "compiling loaded neither eglot nor lsp-mode"
                  (format "eglot %s, lsp-mode %s" (featurep 'eglot) (featurep 'lsp-mode))))

(defun rpn-test-without-lsp-mode ()
  "Load the compiled rpn-lsp-mode with lsp-mode out of reach."
  (let ((load-path (cons rpn-test-compiled
                         (cl-remove-if (lambda (dir) (string-match-p "/lsp-mode" dir)) load-path)))
        (messages nil))
    (rpn-test-check (not (locate-library "lsp-mode"))
                    "lsp-mode hidden from load-path (as if not installed)"
                    (format "still found at %s" (locate-library "lsp-mode")))
    (condition-case err
        (progn
          (require 'rpn-lsp-mode)
          (rpn-test-check (string-prefix-p rpn-test-compiled (locate-library "rpn-lsp-mode"))
                          "rpn-lsp-mode loads, from its .elc, without lsp-mode"
                          (locate-library "rpn-lsp-mode"))
          (rpn-test-check (not (featurep 'lsp-mode)) "loading rpn-lsp-mode did not load lsp-mode"
                          "lsp-mode is loaded"))
      (error (rpn-test-check nil "rpn-lsp-mode loads without lsp-mode" (format "%S" err))))
    (let ((file (expand-file-name "alone.rpn" (file-name-directory (getenv "RPN_TEST_FILE")))))
      (with-temp-file file (insert "1 2 +\n"))
      (cl-letf* ((real-message (symbol-function 'message))
                 ((symbol-function 'message)
                  (lambda (fmt &rest args)
                    (when fmt (push (apply #'format fmt args) messages))
                    (apply real-message fmt args))))
        (condition-case err
            (with-current-buffer (find-file-noselect file)
              (rpn-test-check (eq major-mode 'rpn-mode)
                              "without lsp-mode, a .rpn file still opens in rpn-mode"
                              (format "major-mode %s" major-mode))
              (rpn-test-check (cl-some (lambda (m) (string-search "lsp-mode is not installed" m)) messages)
                              "without lsp-mode, opening it says lsp-mode is not installed"
                              (format "messages %S" messages))
              (kill-buffer))
          (error (rpn-test-check nil "without lsp-mode, a .rpn file opens" (format "%S" err))))))))

(defvar lsp-clients)
(defvar lsp-language-id-configuration)
(defvar lsp-session-file)
(defvar lsp-restart)
(defvar lsp-enable-snippet)
(defvar lsp-inlay-hint-enable)
(declare-function lsp-workspace-folders-add "lsp-mode")
(declare-function lsp "lsp-mode")
(declare-function lsp-workspaces "lsp-mode")
(declare-function lsp-request "lsp-mode")
(declare-function lsp-diagnostics "lsp-mode")
(declare-function lsp--text-document-position-params "lsp-mode")
(declare-function lsp-buffer-language "lsp-mode")
(declare-function lsp-workspace-shutdown "lsp-mode")

(cl-defun rpn-test-with-lsp-mode ()
  (package-activate-all)
  (unless (locate-library "lsp-mode")
    (rpn-test--out "  (lsp-mode is not installed: its registration and session are not checked)")
    (cl-return-from rpn-test-with-lsp-mode))
  (setq lsp-session-file (expand-file-name "lsp-session" (getenv "RPN_TEST_SCRATCH")))
  (require 'lsp-mode)
  ;; No questions in batch mode (a dead server would ask whether to restart it), and no
  ;; warning about yasnippet, which is not installed.
  (setq lsp-restart 'ignore
        lsp-enable-snippet nil)
  ;; lsp-mode 8 has no `lsp-inlay-hints-mode' (9 has).  So that rpn-lsp-mode.el's handling of
  ;; it runs here too, a stand-in minor mode takes its place.
  (defvar rpn-test-stand-in-hints (not (fboundp 'lsp-inlay-hints-mode)))
  (when rpn-test-stand-in-hints
    (define-minor-mode lsp-inlay-hints-mode
      "A stand-in for lsp-mode 9's mode of that name: it does nothing."
      :init-value nil))
  (rpn-test--out (format "  (lsp-mode %s)" (or (ignore-errors
                                                    (package-version-join
                                                     (package-desc-version
                                                      (cadr (assq 'lsp-mode package-alist)))))
                                                  "?")))
  (let ((client (gethash 'rpn-lsp lsp-clients)))
    (unless (rpn-test-check client "lsp-mode has the client `rpn-lsp' (lsp-register-client ran once lsp-mode loaded)"
                            (format "clients: %S" (hash-table-keys lsp-clients)))
      (cl-return-from rpn-test-with-lsp-mode))
    (rpn-test-check (equal (cdr (assq 'rpn-mode lsp-language-id-configuration)) "rpn")
                    "lsp-language-id-configuration maps rpn-mode to \"rpn\""
                    (format "%S" (assq 'rpn-mode lsp-language-id-configuration)))
    (let ((file (getenv "RPN_TEST_FILE"))
          (dir (file-name-directory (getenv "RPN_TEST_FILE"))))
      ;; lsp-mode asks where the project is; a user answers `i' (import this folder). The same:
      (lsp-workspace-folders-add dir)
      (find-file file)
      (rpn-test-check (eq major-mode 'rpn-mode) "the sample opens in rpn-mode" (format "%s" major-mode))
      (rpn-test-check (equal (lsp-buffer-language) "rpn") "lsp-mode's languageId for the buffer is \"rpn\""
                      (format "%S" (lsp-buffer-language)))
      (rpn-test-check (funcall (lsp--client-activation-fn client) file major-mode)
                      "the client activates in rpn-mode buffers" "activation-fn said no")
      (rpn-test-check (equal (rpn-lsp-server-command) (list (getenv "RPN_LSP") "--stdio"))
                      (format "the command is $RPN_LSP --stdio (%s)" (getenv "RPN_LSP"))
                      (format "%S" (rpn-lsp-server-command)))
      ;; `lsp-deferred' (from rpn-mode-hook) starts once the buffer is shown and idle.
      (rpn-test-idle)
      (let ((workspace (rpn-test-wait
                        (lambda ()
                          (rpn-test-idle)
                          (cl-find-if (lambda (w) (eq (lsp--workspace-status w) 'initialized))
                                      (lsp-workspaces))))))
        (unless (rpn-test-check workspace "lsp-deferred started rpn-lsp and it initialized"
                                (format "no initialized workspace after %ss (workspaces: %s); server stderr: %S"
                                        rpn-test-timeout
                                        (mapcar (lambda (w) (lsp--workspace-status w)) (lsp-workspaces))
                                        (rpn-test-stderr "::stderr")))
          (cl-return-from rpn-test-with-lsp-mode))
        (rpn-test-check (eq (lsp--client-server-id (lsp--workspace-client workspace)) 'rpn-lsp)
                        "the buffer's workspace is the rpn-lsp client" "another client")
        (rpn-test-check (and (bound-and-true-p lsp-inlay-hints-mode)
                             (local-variable-p 'lsp-inlay-hint-enable)
                             (eq lsp-inlay-hint-enable t)
                             (not (and (default-boundp 'lsp-inlay-hint-enable)
                                       (default-value 'lsp-inlay-hint-enable))))
                        (format "rpn-lsp-mode.el turns lsp-inlay-hints-mode on and sets lsp-inlay-hint-enable in the buffer only%s"
                                (if rpn-test-stand-in-hints " (a stand-in mode: lsp-mode 8 has none)" ""))
                        (format "lsp-inlay-hints-mode %S, lsp-inlay-hint-enable %S (local %S, default %S)"
                                (bound-and-true-p lsp-inlay-hints-mode)
                                (bound-and-true-p lsp-inlay-hint-enable)
                                (local-variable-p 'lsp-inlay-hint-enable)
                                (and (default-boundp 'lsp-inlay-hint-enable)
                                     (default-value 'lsp-inlay-hint-enable))))
        (let* ((key (lsp--fix-path-casing (buffer-file-name)))
               (diagnostics
                (rpn-test-wait (lambda () (gethash key (lsp-diagnostics t)))))
               (described
                (mapcar (lambda (d)
                          (let ((start (gethash "start" (gethash "range" d))))
                            (format "%d:%d %s" (gethash "line" start) (gethash "character" start)
                                    (gethash "code" d))))
                        diagnostics)))
          (rpn-test-check (equal (sort described #'string<)
                                 '("64:2 stack-underflow" "65:4 unknown-word"))
                          "lsp-mode received the sample's two diagnostics (64:2 stack-underflow, 65:4 unknown-word)"
                          (format "got %S" described)))
        (goto-char (point-min))
        (forward-line 9)
        (forward-char 4)
        (let* ((hover (condition-case err (lsp-request "textDocument/hover"
                                                       (lsp--text-document-position-params))
                        (error (format "%S" err))))
               (contents (and (hash-table-p hover) (gethash "contents" hover)))
               (text (cond ((hash-table-p contents) (gethash "value" contents))
                           ((stringp contents) contents)))
               (plain (and text (replace-regexp-in-string "`" "" text))))
          (rpn-test-check (and plain (string-search "Stack before: [2 3]" plain)
                               (string-search "Stack after: [5]" plain))
                          "hover on `+' (line 10) through lsp-request: Stack before: [2 3] / Stack after: [5]"
                          (format "got %S" hover)))
        (let ((process (lsp--workspace-proc workspace)))
          (ignore-errors (lsp-workspace-shutdown workspace))
          (rpn-test-check (rpn-test-wait (lambda () (not (process-live-p process))))
                          "lsp-workspace-shutdown stops the server"
                          (format "%s" (process-status process))))))))

(defun rpn-test-main ()
  (condition-case err
      (progn
        (rpn-test-compile)
        (rpn-test-without-lsp-mode)
        (rpn-test-with-lsp-mode))
    (error (rpn-test-check nil "the test script itself failed" (format "%S" err))))
  (rpn-test--out (format "%s: %d checks passed, %d failed" rpn-test-label rpn-test-passed
                         rpn-test-failed))
  (kill-emacs (if (> rpn-test-failed 0) 1 0)))

(rpn-test-main)
;;; test-lsp-mode.el ends here
