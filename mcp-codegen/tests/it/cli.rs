//! The `mcp-codegen` binary: generate from a saved tools/list, then check
//! the generated file against unchanged, compatible and breaking tools.

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mcp-codegen"))
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-codegen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn generate_then_check() {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/output.json");
    let out = temp("client.rs");
    let status = bin()
        .args(["generate", "--from", corpus, "-o"])
        .arg(&out)
        .args([
            "--client-name",
            "WeatherClient",
            "--visibility",
            "pub(crate)",
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let code = std::fs::read_to_string(&out).unwrap();
    assert!(code.contains("pub(crate) struct WeatherClient"));

    let check = |tools: &str| {
        let file = temp("tools.json");
        std::fs::write(&file, tools).unwrap();
        let output = bin()
            .args(["check", "--from"])
            .arg(&file)
            .arg("--against")
            .arg(&out)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
        )
    };
    let original = std::fs::read_to_string(corpus).unwrap();
    assert_eq!(check(&original).0, Some(0));

    let mut tools: serde_json::Value = serde_json::from_str(&original).unwrap();
    tools["tools"][1]["inputSchema"]["properties"]["loud"] = serde_json::json!({"type": "boolean"});
    let (code, stdout) = check(&tools.to_string());
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("new optional argument `/loud`"), "{stdout}");

    tools["tools"][1]["inputSchema"]["required"] = serde_json::json!(["message", "loud"]);
    let (code, stdout) = check(&tools.to_string());
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("breaking: tool `echo`: new required argument `/loud`"),
        "{stdout}"
    );

    let removed =
        serde_json::json!({"tools": [tools["tools"][0].clone(), tools["tools"][1].clone()]});
    let (code, stdout) = check(&removed.to_string());
    assert_eq!(code, Some(1));
    assert!(stdout.contains("tool `list_items`: removed"), "{stdout}");

    let missing = bin().args(["check", "--against", "x.rs"]).output().unwrap();
    assert_eq!(missing.status.code(), Some(2));
}

/// A server that never answers: `--timeout` bounds the wait, and the error
/// says what happened; a nonsensical `--timeout` is refused.
#[test]
fn timeout_bounds_a_silent_server() {
    let started = std::time::Instant::now();
    let output = bin()
        .args(["generate", "--stdio", "sleep 60", "--timeout", "1.5"])
        .output()
        .unwrap();
    let took = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("did not answer in time: it wrote nothing on its output"),
        "{stderr}"
    );
    assert!(
        took >= std::time::Duration::from_millis(1400) && took < std::time::Duration::from_secs(6),
        "took {took:?}"
    );

    let output = bin()
        .args([
            "check",
            "--stdio",
            "sleep 60",
            "--against",
            "x.rs",
            "--timeout",
            "0",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("--timeout takes a positive number"),
        "{stderr}"
    );
}

/// By default argument types only serialize and output types only
/// deserialize (both, without a client); `--derives all` gives every type
/// both and `PartialEq`; any other value is refused.
#[test]
fn derives_choose_the_traits_of_the_types() {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/output.json");
    let generate_with = |derives: Option<&str>, more: &[&str]| {
        let mut command = bin();
        command.args(["generate", "--from", corpus]).args(more);
        if let Some(derives) = derives {
            command.args(["--derives", derives]);
        }
        command.output().unwrap()
    };
    let generate = |derives: Option<&str>| generate_with(derives, &[]);
    // The derive list of the named type.
    let derives_of = |code: &str, name: &str| {
        let at = code.find(&format!("pub struct {name} ")).unwrap();
        let start = code[..at].rfind("#[derive(").unwrap();
        code[start..at].to_owned()
    };
    let client = String::from_utf8(generate(None).stdout).unwrap();
    let args = derives_of(&client, "GetWeatherArgs");
    assert!(
        !args.contains("Deserialize") && !args.contains("PartialEq"),
        "{args}"
    );
    assert!(client.contains("Serialize for GetWeatherArgs"), "{client}");
    let output = derives_of(&client, "GetWeatherOutput");
    assert!(output.contains("Deserialize"), "{output}");
    assert!(
        !client.contains("Serialize for GetWeatherOutput"),
        "{client}"
    );

    let types_only = String::from_utf8(generate_with(None, &["--types-only"]).stdout).unwrap();
    for name in ["GetWeatherArgs", "GetWeatherOutput"] {
        let derives = derives_of(&types_only, name);
        assert!(
            derives.contains("Deserialize") && !derives.contains("PartialEq"),
            "{derives}"
        );
        assert!(
            types_only.contains(&format!("Serialize for {name}")),
            "{types_only}"
        );
    }

    let all = String::from_utf8(generate(Some("all")).stdout).unwrap();
    for name in ["GetWeatherArgs", "GetWeatherOutput"] {
        let derives = derives_of(&all, name);
        assert!(
            derives.contains("Deserialize") && derives.contains("PartialEq"),
            "{derives}"
        );
        assert!(all.contains(&format!("Serialize for {name}")), "{all}");
    }

    let refused = generate(Some("everything"));
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("expected `client` or `all`"), "{stderr}");
}

/// `--tools` generates only the named tools; `check` against the whole
/// server then reports the others as new (not breaking); an unknown name
/// is refused with the names the server has.
#[test]
fn generate_a_subset_of_tools() {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/output.json");
    let out = temp("subset.rs");
    let status = bin()
        .args([
            "generate",
            "--from",
            corpus,
            "--tools",
            "echo,list_items",
            "-o",
        ])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let code = std::fs::read_to_string(&out).unwrap();
    assert!(code.contains("pub fn echo("), "{code}");
    assert!(code.contains("pub fn list_items("), "{code}");
    assert!(!code.contains("get_weather"), "{code}");

    let check = bin()
        .args(["check", "--from", corpus, "--against"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("tool `get_weather`: new tool"), "{stdout}");

    let unknown = bin()
        .args(["generate", "--from", corpus, "--tools", "echo,nope"])
        .output()
        .unwrap();
    assert!(!unknown.status.success());
    let stderr = String::from_utf8_lossy(&unknown.stderr);
    assert!(stderr.contains("no tool named `nope`"), "{stderr}");
    assert!(stderr.contains("get_weather, list_items"), "{stderr}");
}

/// `check` covers prompts and resource templates: a removed template and a
/// new required prompt argument are breaking (exit 1), a new optional
/// argument is compatible (exit 0). The generate step also says what it
/// left out.
#[test]
fn check_prompts_and_templates() {
    let listing = serde_json::json!({
        "tools": [{"name": "echo", "inputSchema": {"type": "object"}}],
        "prompts": [{"name": "args-prompt", "arguments": [
            {"name": "city", "description": "Name of the city", "required": true},
            {"name": "state", "required": false}]}],
        "resourceTemplates": [
            {"name": "Dynamic Text Resource", "uriTemplate": "demo://text/{id}"},
            {"name": "Dynamic Blob Resource", "uriTemplate": "demo://blob/{id}"},
            {"name": "Broken", "uriTemplate": "bad://{"}]
    });
    let file = temp("listing.json");
    std::fs::write(&file, listing.to_string()).unwrap();
    let out = temp("listing_client.rs");
    let generated = bin()
        .args(["generate", "--from"])
        .arg(&file)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&generated.stderr);
    assert!(generated.status.success(), "{stderr}");
    assert!(
        stderr.contains("not generated: the resource template `Broken`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("(1 tools, 1 prompts, 2 resource templates)"),
        "{stderr}"
    );

    let check = |listing: &serde_json::Value| {
        let file = temp("listing_now.json");
        std::fs::write(&file, listing.to_string()).unwrap();
        let output = bin()
            .args(["check", "--from"])
            .arg(&file)
            .arg("--against")
            .arg(&out)
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
        )
    };
    let (code, stdout) = check(&listing);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("compatible (0 changes)"), "{stdout}");

    let mut optional = listing.clone();
    optional["prompts"][0]["arguments"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"name": "zip"}));
    let (code, stdout) = check(&optional);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("compatible: prompt `args-prompt`: new optional argument `/zip`"),
        "{stdout}"
    );

    let mut required = optional.clone();
    required["prompts"][0]["arguments"][2]["required"] = serde_json::json!(true);
    let (code, stdout) = check(&required);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("breaking: prompt `args-prompt`: new required argument `/zip`"),
        "{stdout}"
    );

    let mut removed = listing.clone();
    removed["resourceTemplates"]
        .as_array_mut()
        .unwrap()
        .remove(1);
    let (code, stdout) = check(&removed);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("breaking: resource template `Dynamic Blob Resource`: removed"),
        "{stdout}"
    );
}
