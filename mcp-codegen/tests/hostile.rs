//! Hostile and random schemas: generation ends in a clear error or in code
//! that parses, and never panics. A seeded batch of random schemas that do
//! generate is kept as `tests/corpus/fuzz.json` (`UPDATE_SNAPSHOTS=1`
//! rewrites it), so the snapshot test and the round-trip test compile and
//! exercise their generated code too.

use mcp_codegen::{Error, Limits, Options, generate, parse_tools};
use serde_json::{Map, Value, json};

fn tools(schema: Value) -> Vec<mcp_runtime::protocol::Tool> {
    parse_tools(&json!({"tools": [{"name": "t", "inputSchema": schema}]}).to_string()).unwrap()
}

fn run(schema: Value) -> Result<String, Error> {
    generate(&tools(schema), &Options::default()).map(|g| g.code)
}

fn nested(depth: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for _ in 0..depth {
        schema = json!({"type": "object", "properties": {"x": schema}});
    }
    schema
}

#[test]
fn deep_nesting_is_a_limit_error() {
    assert!(run(nested(20)).is_ok());
    let err = run(nested(60)).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Limit {
                field: "max_depth",
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("nesting depth"), "{err}");
}

#[test]
fn huge_enum_is_a_limit_error() {
    let values: Vec<Value> = (0..50_000).map(|i| json!(format!("v{i}"))).collect();
    let err = run(json!({"type": "object", "properties": {"e": {"enum": values}}})).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Limit {
                field: "max_width",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn remote_ref_is_never_fetched() {
    for reference in [
        "https://example.com/schema.json",
        "other.json#/a",
        "//host/x",
    ] {
        let err =
            run(json!({"type": "object", "properties": {"a": {"$ref": reference}}})).unwrap_err();
        assert!(matches!(err, Error::RemoteRef { .. }), "{err}");
        let message = err.to_string();
        assert!(
            message.contains("never fetched") && message.contains("/properties/a"),
            "{message}"
        );
    }
}

#[test]
fn dangling_ref_is_an_error() {
    let err = run(json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}))
        .unwrap_err();
    assert!(matches!(err, Error::BadRef { .. }), "{err}");
}

#[test]
fn ref_cycles_terminate() {
    // Pure reference cycle: compiles (boxed) or errors, never loops.
    let pure = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}});
    let _ = run(pure);
    // allOf that includes itself: the depth bound ends it.
    let all_of = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"type": "object", "allOf": [{"$ref": "#/$defs/A"}]}}});
    assert!(matches!(run(all_of), Err(Error::Limit { .. })));
    // Root recursion through a union.
    assert!(
        run(json!({"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#"}}]}))
            .is_ok()
    );
}

#[test]
fn combinatorial_growth_is_bounded() {
    let mut defs = Map::new();
    defs.insert(
        "D0".into(),
        json!({"type": "object", "properties": {"a": {"type": "string"}}}),
    );
    for i in 1..40 {
        let prev = format!("#/$defs/D{}", i - 1);
        defs.insert(
            format!("D{i}"),
            json!({"allOf": [{"$ref": prev}, {"$ref": prev}]}),
        );
    }
    let schema =
        json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/D39"}}, "$defs": defs});
    let started = std::time::Instant::now();
    let err = run(schema).unwrap_err();
    assert!(matches!(err, Error::Limit { .. }), "{err}");
    assert!(started.elapsed().as_secs() < 10);
}

#[test]
fn limits_are_configurable() {
    let options = Options {
        limits: Limits {
            max_depth: 200,
            ..Limits::default()
        },
        ..Options::default()
    };
    assert!(generate(&tools(nested(60)), &options).is_ok());
}

/// Random schema-shaped JSON from a small vocabulary of nasty names,
/// keywords and references.
struct Fuzz(fastrand::Rng);

const NAMES: &[&str] = &[
    "type", "", "fooBar", "foo_bar", "名", "1", "self", "Self", "a-b", "_", "r#x", "x", "A",
];
const REFS: &[&str] = &[
    "#",
    "#/$defs/A",
    "#/$defs/B",
    "#/properties/x",
    "#/$defs/A/properties/x",
    "#/nope",
];

impl Fuzz {
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.0.usize(..items.len())]
    }

    fn scalar(&mut self) -> Value {
        match self.0.u8(0..4) {
            0 => json!(*self.pick(NAMES)),
            1 => json!(self.0.i64(-3..300)),
            2 => Value::Null,
            _ => json!(self.0.bool()),
        }
    }

    fn schema(&mut self, depth: usize) -> Value {
        if depth > 4 {
            return json!({"type": *self.pick(&["string", "integer", "number", "boolean", "null"])});
        }
        let mut map = Map::new();
        match self.0.u8(0..12) {
            0 => {
                map.insert("$ref".into(), json!(*self.pick(REFS)));
            }
            1 | 2 => {
                let n = self.0.usize(1..4);
                let members: Vec<Value> = (0..n).map(|_| self.schema(depth + 1)).collect();
                let key = *self.pick(&["anyOf", "oneOf", "allOf"]);
                map.insert(key.into(), Value::Array(members));
            }
            3 => {
                let n = self.0.usize(0..5);
                map.insert(
                    "enum".into(),
                    Value::Array((0..n).map(|_| self.scalar()).collect()),
                );
            }
            4 => {
                map.insert("const".into(), self.scalar());
            }
            5 => {
                map.insert("type".into(), json!("array"));
                if self.0.bool() {
                    let n = self.0.usize(1..3);
                    map.insert(
                        "prefixItems".into(),
                        Value::Array((0..n).map(|_| self.schema(depth + 1)).collect()),
                    );
                    map.insert("items".into(), json!(false));
                } else {
                    map.insert("items".into(), self.schema(depth + 1));
                }
            }
            6..=8 => {
                let mut props = Map::new();
                let mut required = Vec::new();
                for _ in 0..self.0.usize(0..4) {
                    let name = *self.pick(NAMES);
                    props.insert(name.into(), self.schema(depth + 1));
                    if self.0.bool() {
                        required.push(json!(name));
                    }
                }
                map.insert("type".into(), json!("object"));
                map.insert("properties".into(), Value::Object(props));
                map.insert("required".into(), Value::Array(required));
                match self.0.u8(0..3) {
                    0 => {
                        map.insert("additionalProperties".into(), json!(false));
                    }
                    1 => {
                        map.insert("additionalProperties".into(), self.schema(depth + 1));
                    }
                    _ => {}
                }
            }
            9 => {
                map.insert("type".into(), json!(["string", "null"]));
            }
            10 => {
                map.insert("type".into(), json!("integer"));
                map.insert("minimum".into(), json!(self.0.i64(-200..200)));
                map.insert("maximum".into(), json!(self.0.i64(200..70000)));
            }
            _ => {
                map.insert(
                    "type".into(),
                    json!(*self.pick(&["string", "number", "boolean", "object"])),
                );
            }
        }
        if self.0.u8(0..4) == 0 {
            map.insert(
                "description".into(),
                json!("```\npanic!()\n```\n*/ \"quoted\""),
            );
        }
        Value::Object(map)
    }

    fn root(&mut self) -> Value {
        let mut root = self.schema(0);
        if let Value::Object(map) = &mut root {
            let mut props = Map::new();
            props.insert("x".into(), self.schema(1));
            map.insert("type".into(), json!("object"));
            map.entry("properties").or_insert(Value::Object(props));
            map.insert(
                "$defs".into(),
                json!({"A": self.schema(1), "B": self.schema(1)}),
            );
        }
        root
    }
}

#[test]
fn random_schemas_never_panic() {
    let mut fuzz = Fuzz(fastrand::Rng::with_seed(20_260_728));
    let mut kept = Vec::new();
    for i in 0..250 {
        let schema = fuzz.root();
        let tool = json!({"name": format!("fuzz_{i}"), "inputSchema": schema});
        let list = parse_tools(&json!({"tools": [tool.clone()]}).to_string()).unwrap();
        match generate(&list, &Options::default()) {
            Ok(generated) => {
                syn::parse_file(&generated.code).unwrap();
                // Keep those the round-trip test can check (valid JSON Schema).
                if jsonschema::draft202012::new(&tool["inputSchema"]).is_ok() && kept.len() < 60 {
                    kept.push(tool);
                }
            }
            Err(Error::Internal(e)) => panic!("generated code did not parse for {tool}: {e}"),
            Err(_) => {}
        }
    }
    let corpus = serde_json::to_string_pretty(&json!({ "tools": kept })).unwrap() + "\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus/fuzz.json");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(path, corpus).unwrap();
    } else {
        assert_eq!(
            std::fs::read_to_string(path).unwrap_or_default(),
            corpus,
            "fuzz corpus is stale: rerun with UPDATE_SNAPSHOTS=1"
        );
    }
}
