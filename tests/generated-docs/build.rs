//! Writes `snapshots.rs`: one public module per schema in mcp-codegen's
//! corpus, holding the client mcp-codegen generated for it (the committed
//! snapshot its tests compare against).

use std::path::Path;

fn main() {
    let codegen_tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mcp-codegen/tests");
    let corpus = codegen_tests.join("corpus");
    let snapshots = codegen_tests.join("snapshots");
    println!("cargo::rerun-if-changed={}", corpus.display());
    println!("cargo::rerun-if-changed={}", snapshots.display());
    let mut names: Vec<String> = std::fs::read_dir(&corpus)
        .expect("mcp-codegen/tests/corpus")
        .map(|entry| entry.expect("a corpus entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .map(|path| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() > 10, "the corpus: {names:?}");
    let mut modules = String::new();
    for name in &names {
        let snapshot = snapshots.join(format!("{name}.rs"));
        println!("cargo::rerun-if-changed={}", snapshot.display());
        modules += &format!(
            "/// The client generated for `corpus/{name}.json`.\n\
             #[allow(dead_code, clippy::all)]\npub mod {name} {{\n    include!({:?});\n}}\n",
            snapshot.display().to_string()
        );
    }
    let out = Path::new(&std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("snapshots.rs");
    std::fs::write(out, modules).expect("write snapshots.rs");
}
