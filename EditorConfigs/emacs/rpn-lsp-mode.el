;;; rpn-lsp-mode.el --- rpn-lsp for .rpn tapes, through lsp-mode -*- lexical-binding: t -*-

;; Keywords: languages
;; Package-Requires: ((emacs "27.1"))

;;; Commentary:

;; Registers the rpn-lsp language server with lsp-mode for `rpn-mode'
;; buffers, languageId "rpn":
;;
;;   (add-to-list 'load-path "/path/to/EditorConfigs/emacs")
;;   (require 'rpn-lsp-mode)
;;
;; Loading this file does not load lsp-mode: the registration waits for
;; lsp-mode to load (`with-eval-after-load'), and `rpn-mode' buffers
;; start it with `lsp-deferred' (if `rpn-lsp-mode-auto-start' is non-nil
;; and lsp-mode is installed).  The server is `rpn-lsp-server-command'
;; (`rpn-lsp-command', or $RPN_LSP), with `rpn-lsp-settings' as
;; initializationOptions.
;;
;; lsp-mode asks for a project root the first time; for a lone file,
;; import its folder (`i').  Inlay hints (each line's stack) need
;; lsp-mode 9 or later: this file turns them on in `rpn-mode' buffers
;; unless `rpn-lsp-mode-inlay-hints' is nil.

;;; Code:

(require 'rpn-mode)

(defvar lsp-language-id-configuration)
(defvar lsp-inlay-hint-enable)
(declare-function lsp-register-client "lsp-mode" (client))
(declare-function make-lsp-client "lsp-mode" (&rest args))
(declare-function lsp-stdio-connection "lsp-mode"
                  (command &optional test-command))
(declare-function lsp-activate-on "lsp-mode" (&rest languages))
(declare-function lsp-deferred "lsp-mode" ())
(declare-function lsp-inlay-hints-mode "lsp-mode" (&optional arg))

(defcustom rpn-lsp-mode-auto-start t
  "Non-nil: start lsp-mode (`lsp-deferred') in every `rpn-mode' buffer.
nil: start it yourself with \\[lsp]."
  :type 'boolean
  :group 'rpn)

(defcustom rpn-lsp-mode-inlay-hints t
  "Non-nil: show each line's stack as an inlay hint (lsp-mode 9+).
Sets `lsp-inlay-hint-enable' in `rpn-mode' buffers (only), and turns
`lsp-inlay-hints-mode' on there once lsp-mode has opened them.
lsp-mode 8 has no inlay hints."
  :type 'boolean
  :group 'rpn)

(defun rpn-lsp-mode--register ()
  "Register rpn-lsp with lsp-mode."
  (add-to-list 'lsp-language-id-configuration '(rpn-mode . "rpn"))
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection #'rpn-lsp-server-command)
    :activation-fn (lsp-activate-on "rpn")
    :initialization-options #'rpn-lsp-initialization-options
    :server-id 'rpn-lsp)))

(defun rpn-lsp-mode--after-open ()
  "Turn inlay hints on in an `rpn-mode' buffer that lsp-mode opened."
  (when (and (derived-mode-p 'rpn-mode)
             rpn-lsp-mode-inlay-hints
             (fboundp 'lsp-inlay-hints-mode))
    (lsp-inlay-hints-mode 1)))

(with-eval-after-load 'lsp-mode
  (rpn-lsp-mode--register)
  (add-hook 'lsp-after-open-hook #'rpn-lsp-mode--after-open))

(defun rpn-lsp-mode--start ()
  "Start lsp-mode in this buffer if `rpn-lsp-mode-auto-start' says so."
  (when rpn-lsp-mode-inlay-hints
    (setq-local lsp-inlay-hint-enable t))
  (when rpn-lsp-mode-auto-start
    (if (or (fboundp 'lsp-deferred) (require 'lsp-mode nil t))
        (lsp-deferred)
      (message "rpn-lsp-mode: %s"
               "lsp-mode is not installed, so rpn-lsp is not started"))))

(add-hook 'rpn-mode-hook #'rpn-lsp-mode--start)

(provide 'rpn-lsp-mode)
;;; rpn-lsp-mode.el ends here
