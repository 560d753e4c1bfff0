//! Hostile and random schemas: generation ends in a clear error or in code
//! that parses, and never panics. A seeded batch of random schemas that do
//! generate is kept as `tests/corpus/fuzz.json` (`UPDATE_SNAPSHOTS=1`
//! rewrites it), so the snapshot test and the round-trip test compile and
//! exercise their generated code too; so are legitimate schemas at and
//! beyond the default limits (`deep.json`, `wide.json`).

use mcp_toolkit_codegen::{Error, Limits, Options, generate, parse_tools};
use serde_json::{Map, Value, json};

use crate::support;

fn tools(schema: Value) -> Vec<mcp_toolkit_runtime::protocol::Tool> {
    parse_tools(&json!({"tools": [{"name": "t", "inputSchema": schema}]}).to_string()).unwrap()
}

fn run(schema: Value) -> Result<String, Error> {
    generate(&tools(schema), &Options::default()).map(|g| g.code)
}

fn nested(depth: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for _ in 0..depth {
        schema = json!({"type": "object", "properties": {"x": schema}, "required": ["x"]});
    }
    schema
}

/// The note of a part degraded by the limit `field`.
fn degraded_by(code: &str, field: &str) -> bool {
    code.contains("Untyped (`serde_json::Value`)") && code.contains(&format!("(`Limits::{field}`)"))
}

/// A list of `hostile` and an ordinary tool, which must still be typed.
fn beside_an_ordinary_tool(hostile: Value) -> String {
    let list = json!({"tools": [
        {"name": "hostile", "inputSchema": hostile},
        {"name": "ordinary", "inputSchema": {"type": "object",
            "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]}},
    ]});
    let tools = parse_tools(&list.to_string()).unwrap();
    let generated = generate(&tools, &Options::default()).unwrap();
    syn::parse_file(&generated.code).unwrap();
    assert!(
        generated.code.contains("pub n: u64,"),
        "the ordinary tool is not typed:\n{}",
        generated.code
    );
    generated.code
}

#[test]
fn deep_nesting_degrades_beyond_the_limit() {
    assert!(!degraded_by(&run(nested(20)).unwrap(), "max_depth"));
    let code = beside_an_ordinary_tool(nested(60));
    assert!(degraded_by(&code, "max_depth"), "{code}");
    assert!(
        code.contains("the nesting depth exceeds the limit of 48"),
        "{code}"
    );
}

#[test]
fn wide_enum_union_tuple_and_object_degrade_beyond_the_limit() {
    let many = |n: usize| (0..n).map(|i| json!(format!("v{i}"))).collect::<Vec<_>>();
    let properties: Map<String, Value> = many(2_001)
        .into_iter()
        .map(|name| (name.as_str().unwrap().to_owned(), json!({"type": "string"})))
        .collect();
    let members: Vec<Value> = (0..2_001)
        .map(|i| {
            json!({"type": "object",
        "properties": {"k": {"const": i}}, "required": ["k"]})
        })
        .collect();
    let prefix: Vec<Value> = (0..2_001).map(|_| json!({"type": "string"})).collect();
    for (what, schema) in [
        ("enum values", json!({"enum": many(50_000)})),
        ("union members", json!({"anyOf": members})),
        (
            "tuple items",
            json!({"type": "array", "prefixItems": prefix, "items": false, "minItems": 2_001}),
        ),
        (
            "properties",
            json!({"type": "object", "properties": properties}),
        ),
    ] {
        let code =
            beside_an_ordinary_tool(json!({"type": "object", "properties": {"wide": schema}}));
        assert!(degraded_by(&code, "max_width"), "{what}: {code}");
        assert!(
            code.contains(&format!("the number of {what} exceeds")),
            "{what}"
        );
    }
}

#[test]
fn too_many_types_degrade_beyond_the_limit() {
    let properties: Map<String, Value> = (0..20)
        .map(|i| {
            (
                format!("p{i:02}"),
                json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            )
        })
        .collect();
    let schema = json!({"type": "object", "properties": properties});
    let options = Options {
        limits: Limits {
            max_types: 10,
            ..Limits::default()
        },
        ..Options::default()
    };
    let code = generate(&tools(schema), &options).unwrap().code;
    syn::parse_file(&code).unwrap();
    assert!(degraded_by(&code, "max_types"), "{code}");
    assert!(code.contains("pub struct TArgsP08 "), "{code}");
    assert!(!code.contains("pub struct TArgsP09 "), "{code}");
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
    // allOf that includes itself: the depth bound ends it, the rest is untyped.
    let all_of = json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"type": "object", "allOf": [{"$ref": "#/$defs/A"}]}}});
    assert!(degraded_by(&run(all_of).unwrap(), "max_depth"));
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
    assert!(
        matches!(
            err,
            Error::Limit {
                field: "max_work",
                ..
            }
        ),
        "{err}"
    );
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
    let code = generate(&tools(nested(60)), &options).unwrap().code;
    assert!(!code.contains("Untyped"), "{code}");
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
    keep_corpus("fuzz.json", &corpus);
}

/// Writes `text` to `tests/corpus/{file}` (`UPDATE_SNAPSHOTS=1`) or checks
/// that the committed file is the same.
fn keep_corpus(file: &str, text: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(file);
    if support::updating_snapshots() {
        std::fs::write(&path, text).unwrap();
    } else {
        assert!(
            std::fs::read_to_string(&path).unwrap_or_default() == text,
            "{} is stale: rerun with UPDATE_SNAPSHOTS=1",
            path.display()
        );
    }
}

const PRIMITIVES: [&str; 3] = ["string", "integer", "boolean"];

/// A `tools/list` with one tool per line.
fn tool_list(tools: &[Value]) -> String {
    let lines: Vec<String> = tools.iter().map(Value::to_string).collect();
    format!("{{\"tools\": [\n{}\n]}}\n", lines.join(",\n"))
}

/// Legitimate schemas at and beyond the default limits, kept in the corpus
/// so the snapshot, client-compiling and round-trip tests cover them: 50
/// levels of nesting (objects, and `$ref`s to `$defs`), a 1,000-member
/// tagged union, a 1,000-value enum, 1,000 properties, and a union wider
/// than `max_width` that degrades.
#[test]
fn limit_corpus_is_current() {
    let chain: Map<String, Value> = (0..50)
        .map(|i| {
            let next = if i == 49 {
                json!({"type": "string"})
            } else {
                json!({"$ref": format!("#/$defs/Level{}", i + 1)})
            };
            (
                format!("Level{i}"),
                json!({"type": "object", "properties": {"next": next}}),
            )
        })
        .collect();
    let deep = [
        json!({"name": "deep_objects", "inputSchema": nested(50)}),
        json!({"name": "deep_refs", "inputSchema": {"type": "object",
            "properties": {"next": {"$ref": "#/$defs/Level0"}}, "$defs": chain}}),
    ];
    keep_corpus("deep.json", &tool_list(&deep));

    // One member in ten carries a payload struct: enough to cover them,
    // few enough to keep compiling the clients cheap on CI.
    let members: Vec<Value> = (0..1_000)
        .map(|i| {
            let mut properties = json!({"kind": {"const": format!("event_{i}")}});
            if i % 10 == 0 {
                properties["at"] = json!({"type": "integer"});
            }
            json!({"type": "object", "properties": properties, "required": ["kind"]})
        })
        .collect();
    let properties: Map<String, Value> = (0..1_000)
        .map(|i| (format!("field_{i}"), json!({"type": PRIMITIVES[i % 3]})))
        .collect();
    let values: Vec<Value> = (0..1_000).map(|i| json!(format!("value_{i}"))).collect();
    let too_wide: Vec<Value> = (0..2_001).map(|i| json!({"const": i})).collect();
    let wide = [
        json!({"name": "wide_union", "inputSchema": {"type": "object",
            "properties": {"event": {"oneOf": members}}, "required": ["event"]}}),
        json!({"name": "wide_object", "inputSchema": {"type": "object", "properties": properties}}),
        json!({"name": "wide_enum", "inputSchema": {"type": "object",
            "properties": {"value": {"enum": values}}}}),
        json!({"name": "too_wide", "inputSchema": {"type": "object",
            "properties": {"value": {"anyOf": too_wide}}}}),
    ];
    keep_corpus("wide.json", &tool_list(&wide));
}

/// A listing of `prompts`, `templates` and `resources` beside one tool.
fn listing(
    prompts: Vec<Value>,
    templates: Vec<Value>,
    resources: Vec<Value>,
) -> mcp_toolkit_codegen::Listing {
    let tool = json!({"name": "t", "inputSchema": {"type": "object"}});
    mcp_toolkit_codegen::parse_listing(
        &json!({"tools": [tool], "prompts": prompts,
                "resourceTemplates": templates, "resources": resources})
        .to_string(),
    )
    .unwrap()
}

#[test]
fn a_listing_without_prompts_or_resources_generates_what_its_tools_do() {
    let corpus = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/corpus/output.json"
    ))
    .unwrap();
    let tools = parse_tools(&corpus).unwrap();
    let alone = generate(&tools, &Options::default()).unwrap();
    let empty = mcp_toolkit_codegen::Listing::from(tools);
    assert_eq!(
        mcp_toolkit_codegen::generate_listing(&empty, &Options::default()).unwrap(),
        alone
    );
    assert!(!alone.code.contains("PROMPTS_JSON") && !alone.code.contains("codegen::verify"));
}

#[test]
fn huge_lists_of_prompts_templates_and_resources_are_bounded() {
    let prompts = (0..3_000)
        .map(|i| json!({"name": format!("p{i}"), "arguments": [{"name": "a", "required": true}, {"name": "b"}]}))
        .collect();
    let templates = (0..3_000)
        .map(|i| json!({"name": format!("t{i}"), "uriTemplate": format!("x://{i}/{{id}}{{?q}}")}))
        .collect();
    let resources = (0..50_000)
        .map(|i| json!({"name": format!("r{i}"), "uri": format!("x://r/{i}")}))
        .collect();
    let generated = mcp_toolkit_codegen::generate_listing(
        &listing(prompts, templates, resources),
        &Options::default(),
    )
    .unwrap();
    syn::parse_file(&generated.code).unwrap();
    assert_eq!(generated.prompts.len(), 3_000);
    assert_eq!(generated.resource_templates.len(), 3_000);
    assert_eq!(
        generated.notes,
        [
            "the static resources beyond the first 2000 (`Limits::max_width`); \
          read them with `inner().read_resource(uri)`"
        ]
    );
    assert!(generated.code.contains("R1999,") && !generated.code.contains("R2000"));
}

#[test]
fn odd_prompt_and_template_names_always_compile_and_collide_visibly() {
    let tool_named = |name: &str| json!({"name": name, "inputSchema": {"type": "object"}});
    let mut list = listing(
        vec![
            json!({"name": "t", "arguments": [{"name": "self", "required": true}]}),
            json!({"name": "verify"}),
            json!({"name": "", "arguments": [{"name": "\u{202e}"}, {"name": "_"}]}),
        ],
        vec![
            json!({"name": "t", "uriTemplate": "a://{self}/{_}/{crate}"}),
            json!({"name": "\u{2067}", "uriTemplate": "b://{x}"}),
            json!({"name": "bad", "uriTemplate": "c://{x"}),
        ],
        vec![json!({"name": "\u{202e}", "uri": "d://\u{202e}"})],
    );
    list.tools
        .push(serde_json::from_value(tool_named("read")).unwrap());
    let generated = mcp_toolkit_codegen::generate_listing(&list, &Options::default()).unwrap();
    syn::parse_file(&generated.code).unwrap();
    let methods: Vec<(&str, &str)> = generated
        .prompts
        .iter()
        .chain(&generated.resource_templates)
        .map(|m| (m.name.as_str(), m.method.as_str()))
        .collect();
    assert_eq!(
        methods,
        [
            ("t", "t_prompt"),
            ("verify", "verify_prompt"),
            ("", "prompt"),
            ("t", "t_template"),
            ("\u{2067}", "u2067"),
        ]
    );
    assert!(
        generated.code.contains("pub fn read_resource("),
        "{}",
        generated.code
    );
    assert_eq!(generated.notes.len(), 1, "{:?}", generated.notes);
    assert!(
        generated.notes[0].contains("`bad`"),
        "{:?}",
        generated.notes
    );

    let twice = listing(
        vec![json!({"name": "p"}), json!({"name": "p"})],
        vec![],
        vec![],
    );
    let error = mcp_toolkit_codegen::generate_listing(&twice, &Options::default()).unwrap_err();
    assert!(
        error.to_string().contains("two prompts are named `p`"),
        "{error}"
    );
}

#[test]
fn random_prompts_and_templates_never_panic() {
    let mut rng = fastrand::Rng::with_seed(31);
    let pieces = [
        "a", "{", "}", "{x}", "{+p}", "{?q,r}", "{/s*}", "{x:3}", "{;m}", "%", "%41", "\u{202e}",
        "é", " ", "{self}", "{}", "{x", "-", "{#f}", "{.l}", "{&c}",
    ];
    let pick = |rng: &mut fastrand::Rng, n: usize| -> String {
        (0..rng.usize(0..n))
            .map(|_| pieces[rng.usize(..pieces.len())])
            .collect()
    };
    for _ in 0..200 {
        let prompts = (0..rng.usize(0..4))
            .map(|_| {
                let arguments: Vec<Value> = (0..rng.usize(0..4))
                    .map(|_| json!({"name": pick(&mut rng, 3), "required": rng.bool(), "description": pick(&mut rng, 5)}))
                    .collect();
                json!({"name": pick(&mut rng, 3), "arguments": arguments})
            })
            .collect();
        let templates = (0..rng.usize(0..4))
            .map(|_| json!({"name": pick(&mut rng, 3), "uriTemplate": pick(&mut rng, 6)}))
            .collect();
        let resources = (0..rng.usize(0..3))
            .map(|_| json!({"name": pick(&mut rng, 3), "uri": pick(&mut rng, 4)}))
            .collect();
        match mcp_toolkit_codegen::generate_listing(
            &listing(prompts, templates, resources),
            &Options::default(),
        ) {
            Ok(generated) => {
                syn::parse_file(&generated.code).unwrap();
            }
            Err(Error::Input(why)) => assert!(why.contains("two prompts are named"), "{why}"),
            Err(other) => panic!("{other}"),
        }
    }
}
