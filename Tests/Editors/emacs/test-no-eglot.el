;;; test-no-eglot.el --- Headless check that .rpn files open without eglot -*- lexical-binding: t; -*-

;; Emacs 28 has no eglot built in: a new user who copies the config before installing eglot
;; must still get `rpn-mode', and be told how to install eglot, not "File mode specification
;; error: (void-function eglot-ensure)".
;;
;; run.sh runs `emacs --batch -l test-no-eglot.el -l INIT -f rpn-test-no-eglot-main', with no
;; package activated (as if no package were installed). Loading this file takes eglot out of
;; reach before the init file (the shipped rpn-eglot.el, or the README's snippet) runs: every
;; `load-path' folder holding eglot.el or eglot.elc is dropped, and an `eglot-ensure' autoload
;; from a built-in eglot, as in Emacs 29, is removed. `rpn-test-no-eglot-main' then opens a copy
;; of the sample and checks:
;;   - eglot is out of reach (`locate-library' finds none, `eglot-ensure' is no function);
;;   - the file opens in `rpn-mode', without an error and without "File mode specification error";
;;   - a message says how to install eglot (`M-x package-install RET eglot RET');
;;   - eglot was not loaded and no server process started.
;; Environment: RPN_TEST_LABEL, RPN_TEST_FILE (the copy of the sample). Prints one line per check;
;; exits 0 when all passed, 1 otherwise.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defvar rpn-test-label (or (getenv "RPN_TEST_LABEL") "Emacs without eglot"))
(defvar rpn-test-passed 0)
(defvar rpn-test-failed 0)

(defun rpn-test--out (string) (princ (concat string "\n")))

(defun rpn-test-check (condition what &optional detail)
  (if condition
      (progn (cl-incf rpn-test-passed) (rpn-test--out (concat "  ok    " what)))
    (cl-incf rpn-test-failed)
    (rpn-test--out (format "  FAIL  [%s] %s%s" rpn-test-label what (if detail (concat ": " detail) ""))))
  condition)

(defun rpn-test-hide-eglot ()
  "Take eglot out of reach, as on an Emacs 28 where it was never installed."
  (dolist (dir (copy-sequence load-path))
    (when (and (stringp dir)
               (or (file-exists-p (expand-file-name "eglot.el" dir))
                   (file-exists-p (expand-file-name "eglot.elc" dir))
                   (file-exists-p (expand-file-name "eglot.el.gz" dir))))
      (setq load-path (delete dir load-path))))
  (when (autoloadp (symbol-function 'eglot-ensure))
    (fmakunbound 'eglot-ensure)))

(defun rpn-test-messages ()
  "The text of the *Messages* buffer."
  (with-current-buffer (messages-buffer) (buffer-string)))

(defun rpn-test-check-opening ()
  (rpn-test-check (not (locate-library "eglot")) "eglot is out of reach (as if not installed)"
                  (format "found at %s" (locate-library "eglot")))
  (rpn-test-check (not (fboundp 'eglot-ensure)) "eglot-ensure is no function"
                  (format "%S" (symbol-function 'eglot-ensure)))
  (let ((before (length (rpn-test-messages)))
        (buffer nil))
    (condition-case err
        (progn
          (setq buffer (find-file (getenv "RPN_TEST_FILE")))
          ;; eglot 1.9 connects from `post-command-hook'; a command's worth of hooks.
          (run-hooks 'post-command-hook)
          (rpn-test-check t "find-file on the sample signals no error"))
      (error (rpn-test-check nil "find-file on the sample signals no error" (format "%S" err))))
    (let ((said (substring (rpn-test-messages) before))
          (all (rpn-test-messages)))
      (when buffer
        (with-current-buffer buffer
          (rpn-test-check (eq major-mode 'rpn-mode) "the sample opens in rpn-mode"
                          (format "major-mode %s" major-mode))
          (rpn-test-check (equal comment-start "# ") "rpn-mode's comment settings are there"
                          (format "comment-start %S" comment-start))))
      (rpn-test-check (not (string-search "File mode specification error" said))
                      "no \"File mode specification error\" while opening it" (string-trim said))
      ;; The shipped config says it when a file opens; the README's snippet when it is loaded.
      (rpn-test-check (string-search "M-x package-install RET eglot RET" all)
                      "a message says how to install eglot (M-x package-install RET eglot RET)"
                      (format "messages: %S" (string-trim all)))
      (rpn-test-check (not (featurep 'eglot)) "eglot is not loaded" "it is")
      (rpn-test-check (null (process-list)) "no server process started"
                      (format "%S" (mapcar #'process-command (process-list)))))
    (when buffer (with-current-buffer buffer (set-buffer-modified-p nil)))))

(rpn-test-hide-eglot)

(defun rpn-test-no-eglot-main ()
  (condition-case err
      (rpn-test-check-opening)
    (error (rpn-test-check nil "the test script itself failed" (format "%S" err))))
  (rpn-test--out (format "%s: %d checks passed, %d failed" rpn-test-label rpn-test-passed
                         rpn-test-failed))
  (kill-emacs (if (> rpn-test-failed 0) 1 0)))

;;; test-no-eglot.el ends here
