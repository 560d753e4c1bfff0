//! A notes server, written with `#[mcp_server]`, `#[mcp_tool]`,
//! `#[mcp_resource]` and `#[mcp_prompt]`: tools to add and clear notes
//! (clearing asks the user to confirm, through elicitation), each note as a
//! resource `notes://{title}`, an index resource, and a prompt that asks the
//! model to summarize a note.
//!
//! Run it with `cargo run -p mcp-examples --bin notes-server`, or with
//! `--http 127.0.0.1:PORT` to serve Streamable HTTP at `/mcp`. It also
//! takes `--state-key-file PATH` (the key sealing the confirmation round of
//! `clear_notes`) and `--auth-issuer ISSUER_URL [--resource URL]`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use mcp_examples::{Example, Flag};
use mcp_toolkit_runtime::protocol::{ElicitRequestParams, ElicitValue};
use mcp_toolkit_runtime::server::{Json, RequestContext, Server, ToolError};
use mcp_toolkit_runtime::{mcp_prompt, mcp_resource, mcp_server, mcp_tool};

/// The notes, by title.
#[derive(Default)]
struct Notes {
    notes: Mutex<BTreeMap<String, String>>,
}

impl Notes {
    fn notes(&self) -> MutexGuard<'_, BTreeMap<String, String>> {
        self.notes
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[mcp_server]
impl Notes {
    /// Add a note, or replace the note with the same title.
    ///
    /// # Arguments
    ///
    /// * `title` - The note's title, used in its URI `notes://{title}`.
    /// * `text` - The note's text (Markdown).
    #[mcp_tool(idempotent)]
    fn add_note(&self, title: String, text: String) -> String {
        self.notes().insert(title.clone(), text);
        format!("saved notes://{title}")
    }

    /// Delete every note, after the user confirms.
    #[mcp_tool(destructive)]
    async fn clear_notes(&self, ctx: RequestContext) -> Result<String, ToolError> {
        let question: ElicitRequestParams = serde_json::from_value(serde_json::json!({
            "message": "Delete every note?",
            "requestedSchema": {
                "type": "object",
                "properties": {"confirm": {"type": "boolean", "title": "Delete all notes"}},
                "required": ["confirm"]
            }
        }))?;
        // Ask before any side effect: in 2026-07-28 the call is replayed
        // with the answer.
        let answer = ctx.elicit(question).await?;
        match answer.content.and_then(|mut c| c.remove("confirm")) {
            Some(ElicitValue::Boolean(true)) => {
                let mut notes = self.notes();
                let count = notes.len();
                notes.clear();
                Ok(format!("deleted {count} notes"))
            }
            _ => Ok("nothing deleted".to_owned()),
        }
    }

    /// A note by title.
    #[mcp_resource("notes://{title}", mime_type = "text/markdown")]
    fn note(&self, title: String) -> Option<String> {
        self.notes().get(&title).cloned()
    }

    /// The titles of every note.
    #[mcp_resource("notes://index", title = "Index")]
    fn index(&self) -> Json<Vec<String>> {
        Json(self.notes().keys().cloned().collect())
    }

    /// Ask the model to summarize a note.
    ///
    /// # Arguments
    ///
    /// * `title` - The note to summarize.
    /// * `style` - How to summarize, e.g. "in one sentence" (default "briefly").
    #[mcp_prompt]
    fn summarize(&self, title: String, style: Option<String>) -> Result<String, String> {
        let notes = self.notes();
        let text = notes.get(&title).ok_or(format!("no note `{title}`"))?;
        let style = style.as_deref().unwrap_or("briefly");
        Ok(format!("Summarize this note {style}:\n\n{text}"))
    }
}

/// The shared options this server acts on. Not `--redis-url`: the notes
/// live in this process's memory, so instances could not share them; not
/// `--mount`: composition is echo-server's to show.
const EXAMPLE: Example = Example {
    name: env!("CARGO_BIN_NAME"),
    flags: &[Flag::Http, Flag::StateKeyFile, Flag::AuthIssuer],
};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    mcp_examples::init_logging();
    let command_line = EXAMPLE.command_line()?;
    let notes = Arc::new(Notes::default());
    let builder = Server::builder(mcp_toolkit_runtime::server_info!())
        .instructions("Keeps notes: add them with add_note, read them as notes://{title}.")
        .register(notes.mcp_definitions());
    command_line.serve(builder).await
}
