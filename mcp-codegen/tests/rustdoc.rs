//! Generated code documents cleanly: every full snapshot module, public in
//! a crate of its own, passes `cargo doc` with warnings denied, as many CI
//! setups run it. Server descriptions full of brackets, `<T>` and URLs
//! must not become broken intra-doc links, HTML tags or bare URLs.

use std::path::Path;
use std::process::Command;

#[test]
fn generated_clients_document_with_warnings_denied() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = manifest.parent().unwrap();
    let krate = repo.join("target/rustdoc-generated");
    std::fs::create_dir_all(krate.join("src")).unwrap();
    let runtime = repo.join("mcp-runtime");
    std::fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"generated-docs\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nmcp-runtime = {{ path = {:?} }}\n\n[workspace]\n",
            runtime.display().to_string()
        ),
    )
    .unwrap();
    // The workspace's versions, so that nothing new is resolved.
    std::fs::copy(repo.join("Cargo.lock"), krate.join("Cargo.lock")).unwrap();

    let mut modules: Vec<String> = std::fs::read_dir(manifest.join("tests/corpus"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| path.file_stem().unwrap().to_str().unwrap().to_owned())
        .collect();
    modules.sort();
    assert!(modules.len() > 10, "the corpus: {modules:?}");
    let mut lib = String::from("//! Every generated snapshot module, documented.\n");
    for name in &modules {
        let snapshot = manifest.join(format!("tests/snapshots/{name}.rs"));
        lib.push_str(&format!(
            "#[allow(dead_code, clippy::all)]\npub mod {name} {{\n    include!({:?});\n}}\n",
            snapshot.display().to_string()
        ));
    }
    std::fs::write(krate.join("src/lib.rs"), lib).unwrap();

    let mut cargo = Command::new(env!("CARGO"));
    // Without the variables cargo set for this test (ring's build script
    // watches CARGO_MANIFEST_DIR and CARGO_PKG_*: inheriting them rebuilds
    // it and all that depends on it, here and in the next cargo command).
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy();
        if name.starts_with("CARGO_PKG_")
            || name.starts_with("CARGO_BIN_EXE_")
            || name.starts_with("CARGO_MANIFEST_")
            || matches!(
                &*name,
                "CARGO_CRATE_NAME" | "CARGO_PRIMARY_PACKAGE" | "CARGO_TARGET_TMPDIR" | "OUT_DIR"
            )
        {
            cargo.env_remove(&*name);
        }
    }
    let output = cargo
        .args(["doc", "--no-deps", "--quiet"])
        .current_dir(&krate)
        .env("CARGO_TARGET_DIR", repo.join("target"))
        .env("RUSTDOCFLAGS", "-D warnings")
        .output()
        .expect("run cargo doc");
    assert!(
        output.status.success(),
        "cargo doc with warnings denied failed on generated code:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
