//! Resources and prompts as methods of a `#[mcp_server]` impl block, next
//! to tools.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use mcp_toolkit_runtime::server::Server;
use mcp_toolkit_runtime::{mcp_prompt, mcp_resource, mcp_server, mcp_tool};

struct Notes {
    notes: Mutex<BTreeMap<String, String>>,
}

#[mcp_server]
impl Notes {
    /// Add a note.
    #[mcp_tool]
    fn add_note(&self, title: String, text: String) {
        self.notes.lock().unwrap().insert(title, text);
    }

    /// A note by title.
    #[mcp_resource("notes://{title}", mime_type = "text/plain")]
    fn note(&self, title: String) -> Option<String> {
        self.notes.lock().unwrap().get(&title).cloned()
    }

    /// Every title, one per line.
    #[mcp_resource("notes://index")]
    async fn index(&self) -> String {
        let notes = self.notes.lock().unwrap();
        notes.keys().cloned().collect::<Vec<_>>().join("\n")
    }

    /// Summarize a note.
    #[mcp_prompt]
    fn summarize(&self, title: String) -> Result<String, String> {
        let notes = self.notes.lock().unwrap();
        let text = notes.get(&title).ok_or(format!("no note `{title}`"))?;
        Ok(format!("Summarize:\n{text}"))
    }

    /// No state needed.
    #[mcp_prompt]
    fn hello() -> &'static str {
        "Hello"
    }
}

fn main() {
    let notes = Arc::new(Notes { notes: Mutex::default() });
    notes.add_note("a".into(), "b".into());
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(notes.mcp_definitions())
        .build();
    assert!(server.is_ok());
}
