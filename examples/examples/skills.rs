//! Skills (extension `io.modelcontextprotocol/skills`, SEP-2640): a server
//! publishes Agent Skills (a `SKILL.md` with YAML frontmatter plus
//! supporting files), and a client lists, loads and reads them, verifying
//! every byte.
//!
//! The server side is [`SkillDef`]: built in memory here, or read from a
//! directory with `SkillDef::from_dir`; the builder checks frontmatter,
//! naming and limits. The client side (`Client::list_skills`,
//! `load_skill`, `read_skill_file`) reads nothing ahead of need and
//! checks each file against the size and `sha256:` digest the listing
//! gave; content that fails is never returned.
//!
//! Run: `cargo run -p mcp-examples --example skills`.

use mcp_toolkit_runtime::client::{Client, ConnectOptions, SkillError};
use mcp_toolkit_runtime::server::{Server, SkillDef};

const SKILL_MD: &str = "---
name: release-notes
description: Write release notes from a list of merged changes
---

# Release notes

Group the changes as templates/NOTES.md shows, newest first.
";

const TEMPLATE: &str = "## Added\n\n## Fixed\n";

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A skill is a path and its files; SKILL.md is required.
    let skill = SkillDef::new("release-notes")
        .file("SKILL.md", SKILL_MD)
        .file("templates/NOTES.md", TEMPLATE);
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .skill(skill)
        .build()?;

    let client = Client::connect_in_memory(server, ConnectOptions::default()).await?;
    println!("server supports skills: {}", client.supports_skills());

    // Listing reads no file: names, descriptions and each file's digest.
    let skills = client.list_skills().await?;
    for entry in &skills {
        println!(
            "skill {} at {}: {}",
            entry.name(),
            entry.uri,
            entry.description()
        );
    }
    let entry = skills.first().ok_or("no skills listed")?;

    // Loading reads SKILL.md only and checks size, digest and frontmatter.
    let loaded = client.load_skill(entry).await?;
    let first = loaded.body().trim().lines().next().unwrap_or_default();
    println!(
        "loaded {} ({} bytes); body starts {first:?}",
        entry.uri,
        loaded.text().len()
    );

    // Supporting files are read when asked for, each verified too.
    for file in loaded.supporting_files() {
        let read = client.read_skill_file(&loaded, &file.uri).await?;
        println!(
            "read {} ({} bytes, digest verified)",
            read.uri,
            read.bytes.len()
        );
    }

    // Files the entry does not list cannot be read through a loaded skill.
    match client
        .read_skill_file(&loaded, "skill://release-notes/secrets.txt")
        .await
    {
        Err(SkillError::Unlisted { uri }) => println!("refused unlisted {uri}"),
        other => return Err(format!("expected a refusal, got {other:?}").into()),
    }
    Ok(())
}
