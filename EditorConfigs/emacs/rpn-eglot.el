;;; rpn-eglot.el --- rpn-lsp for .rpn tapes, through eglot -*- lexical-binding: t -*-

;; Keywords: languages
;; Package-Requires: ((emacs "27.1") (eglot "1.9"))

;;; Commentary:

;; Connects `rpn-mode' buffers to the rpn-lsp language server with eglot
;; (built into Emacs 29+; on Emacs 27 and 28, install it first: the eglot
;; package from GNU ELPA, `M-x package-install RET eglot RET', or
;; Debian's elpa-eglot):
;;
;;   (add-to-list 'load-path "/path/to/EditorConfigs/emacs")
;;   (require 'rpn-eglot)
;;
;; Opening a `.rpn' file then starts `rpn-lsp --stdio' (`rpn-lsp-command',
;; or $RPN_LSP): diagnostics (flymake), hover (eldoc), completion
;; (`completion-at-point', C-M-i) and each line's stack: with eglot 1.12
;; or later (Emacs 29+) as an inlay hint; with older eglot (Emacs 28's
;; 1.9) rpn-mode draws it at the line's end, with the line's diagnostics
;; after it (`rpn-line-end-stacks').  No project is needed:
;; outside one, eglot uses the file's directory (a transient project).
;; Without eglot, `.rpn' files still open in `rpn-mode', and a message
;; says how to install eglot.

;;; Code:

(require 'rpn-mode)

(defvar eglot-server-programs)
(declare-function eglot-ensure "eglot" ())
(declare-function eglot-managed-p "eglot" ())
(declare-function eglot-inlay-hints-mode "eglot" (&optional arg))

(defcustom rpn-eglot-auto-start t
  "Non-nil: connect every `rpn-mode' buffer to rpn-lsp (`eglot-ensure').
nil: start it yourself with \\[eglot]."
  :type 'boolean
  :group 'rpn)

(defcustom rpn-eglot-inlay-hints t
  "Non-nil: show each line's stack after it, as an inlay hint.
That is `eglot-inlay-hints-mode', in eglot 1.12 or later (Emacs 29+),
which turns it on by itself too; nil turns it off in `rpn-mode'
buffers.  eglot 1.9 (Emacs 28) has no inlay hints: there rpn-mode
draws the stacks itself, unless `rpn-line-end-stacks' is nil."
  :type 'boolean
  :group 'rpn)

(defun rpn-eglot-contact (&optional _interactive _project)
  "The eglot contact for rpn-lsp.
`rpn-lsp-server-command', and `rpn-lsp-settings' as initializationOptions."
  (append (rpn-lsp-server-command)
          (let ((options (rpn-lsp-initialization-options)))
            (and options (list :initializationOptions options)))))

;; eglot would derive "rpn" from `rpn-mode' too; say it anyway.
(put 'rpn-mode 'eglot-language-id "rpn")

(defconst rpn-eglot-missing-message
  (concat "rpn-eglot: eglot is not installed, so rpn-lsp is not started; on Emacs 28: "
          "M-x package-install RET eglot RET (GNU ELPA), or Debian's elpa-eglot "
          "(Emacs 29 and later have it built in)")
  "What opening an `rpn-mode' buffer says when eglot cannot be loaded.")

(defun rpn-eglot--ensure ()
  "Start eglot in this `rpn-mode' buffer if `rpn-eglot-auto-start' says so.
Without eglot (Emacs 28 has none built in) the buffer stays a plain
`rpn-mode' buffer and a message says how to install eglot, instead of
the \"File mode specification error\" a missing `eglot-ensure' gives."
  (when rpn-eglot-auto-start
    (if (require 'eglot nil t)
        (eglot-ensure)
      (message "%s" rpn-eglot-missing-message))))

(defun rpn-eglot--managed ()
  "Turn inlay hints on (or off) in an `rpn-mode' buffer eglot now manages."
  (when (and (derived-mode-p 'rpn-mode)
             (fboundp 'eglot-inlay-hints-mode)
             (eglot-managed-p))
    (eglot-inlay-hints-mode (if rpn-eglot-inlay-hints 1 -1))))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(rpn-mode . rpn-eglot-contact))
  (add-hook 'eglot-managed-mode-hook #'rpn-eglot--managed))

(add-hook 'rpn-mode-hook #'rpn-eglot--ensure)

(provide 'rpn-eglot)
;;; rpn-eglot.el ends here
