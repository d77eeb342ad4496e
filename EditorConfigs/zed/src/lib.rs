//! Starts `rpn-lsp` for `.rpn` files in Zed.
//!
//! The binary is `lsp.rpn-lsp.binary.path` from Zed's settings when set, else `rpn-lsp` on the
//! worktree's `PATH`. Initialization options and workspace configuration come from
//! `lsp.rpn-lsp.initialization_options` and `lsp.rpn-lsp.settings` (`{"rpn": {...}}`).
//! Written, not built: see README.md.

use zed_extension_api::{self as zed, serde_json, settings::LspSettings, LanguageServerId, Result};

struct RpnExtension;

impl RpnExtension {
    /// The user's `lsp.rpn-lsp` settings, or none when they are absent or unreadable.
    fn settings(language_server_id: &LanguageServerId, worktree: &zed::Worktree) -> LspSettings {
        LspSettings::for_worktree(language_server_id.as_ref(), worktree).unwrap_or_default()
    }
}

impl zed::Extension for RpnExtension {
    fn new() -> Self {
        RpnExtension
    }

    fn language_server_command(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<zed::Command> {
        let binary = Self::settings(language_server_id, worktree).binary;
        let configured_path = binary.as_ref().and_then(|binary| binary.path.clone());
        let command = match configured_path {
            Some(path) => path,
            None => worktree.which("rpn-lsp").ok_or_else(|| {
                "rpn-lsp was not found on PATH; install it (swift build -c release) or set \
                 lsp.rpn-lsp.binary.path in Zed's settings"
                    .to_string()
            })?,
        };
        let args = binary
            .as_ref()
            .and_then(|binary| binary.arguments.clone())
            .unwrap_or_else(|| vec!["--stdio".to_string()]);
        let mut env = worktree.shell_env();
        if let Some(extra) = binary.and_then(|binary| binary.env) {
            env.extend(extra);
        }
        Ok(zed::Command { command, args, env })
    }

    fn language_server_initialization_options(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(Self::settings(language_server_id, worktree).initialization_options)
    }

    fn language_server_workspace_configuration(
        &mut self,
        language_server_id: &LanguageServerId,
        worktree: &zed::Worktree,
    ) -> Result<Option<serde_json::Value>> {
        Ok(Self::settings(language_server_id, worktree).settings)
    }
}

zed::register_extension!(RpnExtension);
