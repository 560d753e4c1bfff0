//! A server built from annotated functions: every listed schema is valid
//! 2020-12, arguments the input schema accepts deserialize (property test),
//! and structured output validates against the output schema.

use mcp_toolkit_runtime::mcp_tool;
use mcp_toolkit_runtime::server::{Definition, RequestContext, SchemaProfile, ToolError};
use proptest::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Deserialize, Serialize, JsonSchema)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Serialize, JsonSchema)]
struct Distance {
    manhattan: i64,
}

/// Manhattan distance between two points.
///
/// # Arguments
///
/// * `from` - Start.
/// * `to` - End.
#[mcp_tool]
fn distance(from: Point, to: Point, scale: Option<u8>) -> Distance {
    let d =
        (i64::from(from.x) - i64::from(to.x)).abs() + (i64::from(from.y) - i64::from(to.y)).abs();
    Distance {
        manhattan: d * i64::from(scale.unwrap_or(1)),
    }
}

/// Counts words.
#[mcp_tool]
fn count(text: String, _ctx: RequestContext) -> Result<usize, ToolError> {
    Ok(text.split_whitespace().count())
}

fn tools(profile: SchemaProfile) -> Vec<mcp_toolkit_runtime::protocol::Tool> {
    mcp_toolkit_runtime::definitions![distance, count]
        .build(profile)
        .into_iter()
        .map(|definition| match definition {
            Definition::Tool(tool) => tool.tool().clone(),
            _ => unreachable!("only tools here"),
        })
        .collect()
}

#[test]
fn every_schema_is_valid_2020_12() {
    for profile in [SchemaProfile::Standard, SchemaProfile::Compatible] {
        for tool in tools(profile) {
            jsonschema::meta::validate(&tool.input_schema)
                .unwrap_or_else(|e| panic!("{}: input schema: {e}", tool.name));
            assert_eq!(
                tool.input_schema["$schema"],
                "https://json-schema.org/draft/2020-12/schema"
            );
            assert_eq!(tool.input_schema["additionalProperties"], false);
            if let Some(output) = &tool.output_schema {
                jsonschema::meta::validate(output)
                    .unwrap_or_else(|e| panic!("{}: output schema: {e}", tool.name));
                assert_eq!(output["type"], "object", "{}", tool.name);
            }
        }
    }
}

#[test]
fn schemas_follow_the_signature() {
    let tools = tools(SchemaProfile::Standard);
    let distance = &tools[0].input_schema;
    assert_eq!(distance["required"], json!(["from", "to"]));
    assert_eq!(distance["properties"]["from"]["description"], "Start.");
    assert!(distance["$defs"]["Point"].is_object(), "{distance}");
    assert_eq!(tools[1].input_schema["required"], json!(["text"]));
    assert_eq!(
        tools[0].description.as_deref(),
        Some("Manhattan distance between two points.")
    );
    // A non-object output is wrapped so the output schema is an object.
    let count = tools[1].output_schema.as_ref().unwrap();
    assert_eq!(count["required"], json!(["result"]));

    let compatible = tools_of_compatible();
    assert!(compatible.get("$defs").is_none(), "{compatible}");
    assert_eq!(compatible["properties"]["scale"]["type"], "integer");
}

fn tools_of_compatible() -> Value {
    tools(SchemaProfile::Compatible)[0].input_schema.clone()
}

proptest! {
    #[test]
    fn accepted_arguments_deserialize(x in any::<i32>(), y in any::<i32>(), scale in proptest::option::of(any::<u8>())) {
        let input = tools(SchemaProfile::Standard)[0].input_schema.clone();
        let mut arguments = json!({"from": {"x": x, "y": y}, "to": {"x": y, "y": x}});
        if let Some(scale) = scale {
            arguments["scale"] = json!(scale);
        }
        prop_assert!(jsonschema::is_valid(&input, &arguments));
        prop_assert!(serde_json::from_value::<Point>(arguments["from"].clone()).is_ok());
        let output = tools(SchemaProfile::Standard)[0].output_schema.clone().unwrap();
        let result = distance(Point { x, y }, Point { x: y, y: x }, scale);
        prop_assert!(jsonschema::is_valid(&output, &serde_json::to_value(result).unwrap()));
    }
}

/// The tools a server built with `profile` (or the default) lists.
async fn listed(profile: Option<SchemaProfile>) -> Vec<mcp_toolkit_runtime::protocol::Tool> {
    let mut builder =
        mcp_toolkit_runtime::server::Server::builder(mcp_toolkit_runtime::server_info!());
    if let Some(profile) = profile {
        builder = builder.schema_profile(profile);
    }
    let server = builder
        .register(mcp_toolkit_runtime::definitions![distance])
        .build()
        .unwrap();
    let (client_out, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, client_in) = tokio::io::duplex(1 << 16);
    tokio::spawn(server.serve_io(server_in, server_out, Default::default()));
    let client =
        mcp_toolkit_runtime::client::Client::connect_io(client_in, client_out, Default::default())
            .await
            .unwrap();
    client.list_tools().await.unwrap()
}

#[tokio::test]
async fn the_server_schema_profile_shapes_registered_tools() {
    let standard = &listed(None).await[0].input_schema;
    assert!(standard["$defs"]["Point"].is_object(), "{standard}");
    assert_eq!(
        standard["properties"]["scale"]["type"],
        json!(["integer", "null"])
    );
    let compatible = &listed(Some(SchemaProfile::Compatible)).await[0].input_schema;
    assert!(compatible.get("$defs").is_none(), "{compatible}");
    assert_eq!(compatible["properties"]["scale"]["type"], "integer");
    assert_eq!(compatible["properties"]["from"]["type"], "object");
}
