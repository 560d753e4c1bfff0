//! Generates the typed weather client from the saved `tools/list` in
//! `tools.json` into `$OUT_DIR/weather_client.rs`, which `src/main.rs`
//! includes. `generate_file` rewrites the file only when the code changed,
//! so builds stay incremental.

fn main() {
    println!("cargo::rerun-if-changed=tools.json");
    let options = mcp_toolkit_codegen::Options {
        client_name: "WeatherClient".into(),
        ..Default::default()
    };
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let output = std::path::Path::new(&out_dir).join("weather_client.rs");
    if let Err(error) = mcp_toolkit_codegen::generate_file("tools.json", &output, &options) {
        panic!("cannot generate the weather client from tools.json: {error}");
    }
}
