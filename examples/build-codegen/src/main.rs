//! A typed MCP client generated at build time: `build.rs` calls
//! `mcp_toolkit_codegen::generate_file` on `tools.json`, a saved `tools/list` of
//! the weather server below, and this program includes the result.
//!
//! In a real project `tools.json` comes from the server you call (save its
//! `tools/list` result, or use `mcp-codegen generate --url/--stdio`), and
//! the server runs elsewhere; here it runs in this process so that the
//! example is self-contained. `verify()` compares the live server's tool
//! schemas with the fingerprints the client was generated from, so drift
//! shows up as an error at start instead of a failed call later.
//!
//! `tools.json` was saved with `cargo run -p build-codegen -- --print-tools
//! > examples/build-codegen/tools.json`; change the tool below without
//! saving it again, and `verify()` reports the drift.
//!
//! Run: `cargo run -p build-codegen`.

use mcp_toolkit_runtime::client::{Client, ConnectOptions};
use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::server::Server;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The client generated from `tools.json` by `build.rs`.
#[allow(missing_docs)] // generated code documents what the server documents
#[allow(dead_code)] // a program uses only some of what is generated
mod weather {
    include!(concat!(env!("OUT_DIR"), "/weather_client.rs"));
}

use weather::{ForecastArgs, WeatherClient};

/// Temperature units.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

/// One day of a forecast.
#[derive(Serialize, JsonSchema)]
struct Day {
    /// Days from today.
    offset: u32,
    /// The expected high.
    high: i32,
    /// In a few words.
    summary: String,
}

/// A forecast for a city.
#[derive(Serialize, JsonSchema)]
struct Forecast {
    /// The city.
    city: String,
    /// One entry per day.
    days: Vec<Day>,
}

/// Forecast the weather in a city for the next days.
///
/// # Arguments
///
/// * `city` - The city.
/// * `days` - How many days, 1 to 7.
/// * `units` - Temperature units (default celsius).
#[mcp_tool(read_only)]
fn forecast(city: String, days: u32, units: Option<Units>) -> Forecast {
    let days = (0..days.clamp(1, 7))
        .map(|offset| {
            let celsius = 18 + offset as i32;
            let high = match units {
                Some(Units::Fahrenheit) => celsius * 9 / 5 + 32,
                _ => celsius,
            };
            Day {
                offset,
                high,
                summary: "sunny".into(),
            }
        })
        .collect();
    Forecast { city, days }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server::builder(mcp_toolkit_runtime::server_info!())
        .register(mcp_toolkit_runtime::definitions![forecast])
        .build()?;
    let client = Client::connect_in_memory(server, ConnectOptions::default()).await?;
    if std::env::args().any(|arg| arg == "--print-tools") {
        // What build.rs reads: the server's tools/list result.
        let tools = client.list_tools().await?;
        println!("{:#}", serde_json::json!({ "tools": tools }));
        return Ok(());
    }

    // The generated client wraps the runtime's client with typed methods.
    let weather = WeatherClient::new(client);
    weather.verify().await?;
    println!("the live server matches the tools.json the client was generated from");

    // Arguments and results are Rust types: a typo or a wrong type is a
    // compile error, not a failed call.
    let args = ForecastArgs {
        city: "Lisbon".into(),
        days: 3,
        // `units` may be left out (outer `None`) or sent as null (the
        // server's schema allows both), so it is an `Option<Option<_>>`.
        units: Some(Some(weather::Units::Fahrenheit)),
    };
    let forecast = weather.forecast(&args).await?;
    println!("forecast for {}:", forecast.city);
    for day in &forecast.days {
        println!("  +{} days: {} °F, {}", day.offset, day.high, day.summary);
    }
    Ok(())
}
