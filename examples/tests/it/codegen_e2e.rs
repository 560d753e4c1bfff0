//! mcp-codegen end to end against servers we did not write: the reference
//! servers `@modelcontextprotocol/server-everything` and
//! `@modelcontextprotocol/server-filesystem` (npm, pinned in
//! `tests/interop/package.json`) and `tests/interop/py_rich_server.py`
//! (Python SDK 2.3.0, nested models, literals, optionals, lists of objects,
//! datetimes), all over stdio. Everything is installed by
//! `tests/interop/setup.sh` into `target/interop`.
//!
//! Each test (a) regenerates the client from the live server's listing
//! (tools, and prompts and resources where the server has them) with the
//! library API and checks it is byte-identical to the committed file in
//! `examples/src/generated/` (which this crate compiles), then (b) calls
//! tools, prompts and resource templates through that committed typed
//! client. To refresh the committed files after a deliberate change, run
//! with `MCP_CODEGEN_BLESS=1`.

use crate::support;

use mcp_examples::generated::everything_client::{
    self as everything, EverythingClient, EverythingClientResource,
};
use mcp_examples::generated::filesystem_client::{self as filesystem, FilesystemClient};
use mcp_examples::generated::py_rich_client::{self as py, PyRichClient};
use mcp_toolkit_codegen::{Options, Source};
use mcp_toolkit_runtime::client::{Client, ClientError, ToolCallError};
use mcp_toolkit_runtime::protocol::{
    ContentBlock, GetPromptResult, ReadResourceResult, ResourceContents,
};
use support::interop::{python, repo, script, sdks};

/// Whether the run rewrites the committed clients instead of comparing and
/// calling them: only `MCP_CODEGEN_BLESS=1` does, any other value (even `0`)
/// runs the test.
fn blessing() -> bool {
    std::env::var_os("MCP_CODEGEN_BLESS").is_some_and(|v| v == "1")
}

/// Generates a client named `client_name` from `command` and compares it
/// with `examples/src/generated/{file}`.
async fn regenerate_and_compare(command: &str, client_name: &str, file: &str) {
    let listing = Source::Stdio(command.to_owned())
        .listing()
        .await
        .unwrap_or_else(|e| panic!("list what `{command}` offers: {e}"));
    let options = Options {
        client_name: client_name.into(),
        ..Options::default()
    };
    let generated = mcp_toolkit_codegen::generate_listing(&listing, &options).expect("generate");
    assert!(generated.notes.is_empty(), "{:?}", generated.notes);
    let path = repo().join("examples/src/generated").join(file);
    if blessing() {
        std::fs::write(&path, &generated.code).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap();
    assert!(
        generated.code == committed,
        "{} is stale: rerun this test with MCP_CODEGEN_BLESS=1",
        path.display()
    );
}

/// A server command: the program and its arguments.
struct Command {
    program: String,
    args: Vec<String>,
}

impl Command {
    /// The command line `Source::Stdio` splits like a shell.
    fn line(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Regenerates and compares the client; then connects the runtime client
    /// for the typed one, or returns `None` when blessing.
    async fn client(&self, client_name: &str, file: &str) -> Option<Client> {
        regenerate_and_compare(&self.line(), client_name, file).await;
        if blessing() {
            return None;
        }
        Some(
            Client::connect_stdio(&self.program, &self.args)
                .await
                .unwrap_or_else(|e| panic!("connect to `{}`: {e}", self.line())),
        )
    }
}

fn node_bin(name: &str, args: &[&str]) -> Command {
    let bin = sdks().join("node/node_modules/.bin").join(name);
    assert!(bin.exists(), "{} is not installed", bin.display());
    Command {
        program: bin.display().to_string(),
        args: args.iter().map(|a| a.to_string()).collect(),
    }
}

fn text(content: &[ContentBlock]) -> String {
    content.iter().filter_map(ContentBlock::as_text).collect()
}

/// The text of a prompt's messages.
fn prompt_text(prompt: &GetPromptResult) -> String {
    prompt
        .messages
        .iter()
        .filter_map(|m| m.content.as_text())
        .collect()
}

/// The text contents of a read resource, with their URIs.
fn resource_text(read: &ReadResourceResult) -> Vec<(&str, &str)> {
    read.contents
        .iter()
        .filter_map(|c| match c {
            ResourceContents::Text(t) => Some((t.uri.as_str(), t.text.as_str())),
            ResourceContents::Blob(_) => None,
        })
        .collect()
}

#[tokio::test]
async fn server_everything() {
    let Some(client) = node_bin("mcp-server-everything", &["stdio"])
        .client("EverythingClient", "everything_client.rs")
        .await
    else {
        return;
    };
    let client = EverythingClient::new(client);
    client.verify().await.expect("no drift");
    let echoed = client
        .echo(&everything::EchoArgs {
            message: "héllo".into(),
        })
        .await
        .unwrap();
    assert_eq!(text(&echoed), "Echo: héllo");
    let sum = client
        .get_sum(&everything::GetSumArgs { a: 2.0, b: 40.5 })
        .await
        .unwrap();
    assert!(text(&sum).contains("42.5"), "{}", text(&sum));
    let weather = client
        .get_structured_content(&everything::GetStructuredContentArgs {
            location: everything::GetStructuredContentArgsLocation::Chicago,
        })
        .await
        .unwrap();
    assert!(!weather.conditions.is_empty());
    assert!((-60.0..60.0).contains(&weather.temperature), "{weather:?}");
    assert!((0.0..=100.0).contains(&weather.humidity), "{weather:?}");
    let image = client
        .get_tiny_image(&everything::GetTinyImageArgs {})
        .await
        .unwrap();
    assert!(
        image.iter().any(|b| matches!(b, ContentBlock::Image(_))),
        "{image:?}"
    );

    // Prompts through their generated methods: without arguments, with a
    // required and an optional one (present, then absent), and with
    // arguments the server completes.
    let simple = client.simple_prompt().await.unwrap();
    assert_eq!(
        prompt_text(&simple),
        "This is a simple prompt without arguments."
    );
    let weather = |state: Option<&str>| everything::ArgsPromptArgs {
        city: "Springfield".into(),
        state: state.map(Into::into),
    };
    let both = client.args_prompt(&weather(Some("IL"))).await.unwrap();
    assert_eq!(prompt_text(&both), "What's weather in Springfield, IL?");
    let city_only = client.args_prompt(&weather(None)).await.unwrap();
    assert_eq!(prompt_text(&city_only), "What's weather in Springfield?");
    let no_context = Default::default();
    let department = client
        .inner()
        .complete_prompt_argument("completable-prompt", "department", "Eng", &no_context)
        .await
        .unwrap();
    assert_eq!(department.values, ["Engineering"]);
    let context = [("department".to_owned(), department.values[0].clone())].into();
    let lead = client
        .inner()
        .complete_prompt_argument("completable-prompt", "name", "B", &context)
        .await
        .unwrap();
    assert_eq!(lead.values, ["Bob"]);
    let team = client
        .completable_prompt(&everything::CompletablePromptArgs {
            department: department.values[0].clone(),
            name: lead.values[0].clone(),
        })
        .await
        .unwrap();
    let team = prompt_text(&team);
    assert!(
        team.contains("Bob") && team.contains("Engineering"),
        "{team}"
    );

    // A template through its generated method: the variable becomes the
    // URI the server answers for; a `/` in it is percent-encoded, as a
    // simple `{resourceId}` expression says, so it stays one segment.
    let read = client.dynamic_text_resource("7").await.unwrap();
    let contents = resource_text(&read);
    assert_eq!(contents.len(), 1, "{read:?}");
    assert_eq!(contents[0].0, "demo://resource/dynamic/text/7");
    assert!(contents[0].1.starts_with("Resource 7: "), "{read:?}");
    let slashed = client.dynamic_text_resource("7/8").await.unwrap_err();
    assert!(
        matches!(&slashed, ClientError::Protocol(e) if e.message.contains("/text/7%2F8")),
        "{slashed:?}"
    );

    // A static resource through the lookup.
    let architecture = EverythingClientResource::ArchitectureMd;
    assert!(EverythingClientResource::ALL.contains(&architecture));
    let read = client.read(architecture).await.unwrap();
    let contents = resource_text(&read);
    assert_eq!(contents[0].0, architecture.uri());
    assert!(!contents[0].1.is_empty());
}

#[tokio::test]
async fn server_filesystem() {
    let root = tempfile::tempdir().unwrap();
    // The server resolves symlinks; compare with the canonical root.
    let root = root.path().canonicalize().unwrap();
    let root_str = root.display().to_string();
    let Some(client) = node_bin("mcp-server-filesystem", &[&root_str])
        .client("FilesystemClient", "filesystem_client.rs")
        .await
    else {
        return;
    };
    let client = FilesystemClient::new(client);
    client.verify().await.expect("no drift");
    let sub = root.join("sub");
    client
        .create_directory(&filesystem::CreateDirectoryArgs {
            path: sub.display().to_string(),
        })
        .await
        .unwrap();
    assert!(sub.is_dir());
    let file = sub.join("hello.txt");
    client
        .write_file(&filesystem::WriteFileArgs {
            path: file.display().to_string(),
            content: "line 1\nline 2\nline 3\n".into(),
        })
        .await
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "line 1\nline 2\nline 3\n"
    );
    let read = client
        .read_text_file(&filesystem::ReadTextFileArgs {
            path: file.display().to_string(),
            head: Some(2.0),
            tail: None,
        })
        .await
        .unwrap();
    assert_eq!(read.content.trim_end(), "line 1\nline 2");
    let listing = client
        .list_directory(&filesystem::ListDirectoryArgs {
            path: sub.display().to_string(),
        })
        .await
        .unwrap();
    assert_eq!(listing.content.trim(), "[FILE] hello.txt");
    let allowed = client
        .list_allowed_directories(&filesystem::ListAllowedDirectoriesArgs {})
        .await
        .unwrap();
    assert!(allowed.content.contains(&root_str), "{}", allowed.content);
    // A path outside the allowed root is a tool error, not a protocol error.
    let outside = client
        .read_text_file(&filesystem::ReadTextFileArgs {
            path: "/etc/hostname".into(),
            head: None,
            tail: None,
        })
        .await;
    assert!(
        matches!(outside, Err(ToolCallError::Tool(_))),
        "{outside:?}"
    );
}

#[tokio::test]
async fn python_rich_server() {
    let Some(client) = (Command {
        program: python().display().to_string(),
        args: vec![script("py_rich_server.py").display().to_string()],
    })
    .client("PyRichClient", "py_rich_client.rs")
    .await
    else {
        return;
    };
    let client = PyRichClient::new(client);
    client.verify().await.expect("no drift");
    let ada = |age: u8, city: &str| py::Person {
        name: format!("Ada {age}"),
        age,
        address: py::Address {
            street: "1 Main St".into(),
            city: city.into(),
            zip_code: None,
        },
        tags: Some(vec!["vip".into()]),
    };
    let total = client
        .total_invoice(&py::TotalInvoiceArgs {
            invoice: py::Invoice {
                customer: ada(36, "London"),
                items: vec![
                    py::LineItem {
                        sku: "a".into(),
                        quantity: 2,
                        unit_price: 1.25,
                    },
                    py::LineItem {
                        sku: "b".into(),
                        quantity: 1,
                        unit_price: 10.0,
                    },
                ],
                currency: Some(py::InvoiceCurrency::Gbp),
                note: None,
            },
        })
        .await
        .unwrap();
    // Generated types derive no PartialEq by default (`Derives::All` adds it).
    assert_eq!(total.city, "London");
    assert!(matches!(
        total.currency,
        py::TotalInvoiceOutputCurrency::Gbp
    ));
    assert_eq!(total.customer_name, "Ada 36");
    assert_eq!(total.item_count, 3);
    assert_eq!(total.total, 12.5);
    let shifted = client
        .shift_time(&py::ShiftTimeArgs {
            at: "2026-07-28T10:00:00Z".into(),
            hours: Some(24),
        })
        .await
        .unwrap();
    assert!(
        shifted.shifted.starts_with("2026-07-29T10:00:00"),
        "{shifted:?}"
    );
    assert_eq!(shifted.weekday, "Wednesday");
    let greeting = client
        .greet(&py::GreetArgs {
            name: "Lovelace".into(),
            style: Some(py::GreetArgsStyle::Formal),
            title: Some("Countess".into()),
            shout: None,
        })
        .await
        .unwrap();
    assert_eq!(greeting.text, "Good day, Countess Lovelace.");
    assert!(matches!(greeting.style, py::GreetOutputStyle::Formal));
    let oldest = client
        .oldest(&py::OldestArgs {
            people: [20, 80, 50]
                .map(|age| py::Person2 {
                    name: format!("P{age}"),
                    age,
                    address: py::Address2 {
                        street: "s".into(),
                        city: "c".into(),
                        zip_code: Some("123".into()),
                    },
                    tags: None,
                })
                .into(),
            limit: Some(2),
        })
        .await
        .unwrap();
    let names: Vec<_> = oldest.result.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["P80", "P50"]);
    assert_eq!(oldest.result[0].address.zip_code.as_deref(), Some("123"));
    // Omitted optionals take the server-side defaults (style "casual").
    let shouted = client
        .greet(&py::GreetArgs {
            name: String::new(),
            style: None,
            title: None,
            shout: Some(true),
        })
        .await
        .unwrap();
    assert_eq!(shouted.text, "HI !");
    assert!(matches!(shouted.style, py::GreetOutputStyle::Casual));
}
