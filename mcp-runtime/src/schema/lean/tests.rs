#[cfg(feature = "validation")]
use proptest::prelude::*;
use serde_json::{Value, json};

use super::{LeanSchema, MAX_DEPTH};

fn errors(schema: Value, instance: Value) -> Vec<(String, String)> {
    LeanSchema::compile(&schema).unwrap().errors(&instance)
}

#[test]
fn schemars_shapes_are_checked() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "integer", "format": "int64"},
            "n": {"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}],
                     "items": false, "minItems": 2, "maxItems": 2},
            "note": {"type": ["string", "null"]},
            "mode": {"$ref": "#/$defs/Mode"}
        },
        "required": ["a"],
        "additionalProperties": false,
        "$defs": {"Mode": {"oneOf": [{"const": "fast"}, {"type": "string", "enum": ["slow"]}]}}
    });
    let good = json!({"a": 1.0, "n": 255, "tags": ["x", "y"], "pair": ["p", 2.5],
                      "note": null, "mode": "slow"});
    assert_eq!(errors(schema.clone(), good), vec![]);
    let bad = json!({"n": 256, "tags": ["x", "x"], "pair": ["p", 1, 2], "note": 3,
                     "mode": "medium", "extra": true});
    let found: Vec<String> = errors(schema, bad).into_iter().map(|(at, _)| at).collect();
    for at in ["", "/n", "/tags", "/pair", "/note", "/mode"] {
        assert!(
            found.iter().any(|f| f == at),
            "no error at {at:?}: {found:?}"
        );
    }
}

#[test]
fn messages_name_the_field() {
    let schema = json!({"type": "object", "properties": {"b": {"type": "integer"}},
                        "required": ["a"]});
    let found = errors(schema, json!({"b": "two"}));
    assert!(
        found.contains(&("".into(), "\"a\" is a required property".into())),
        "{found:?}"
    );
    assert!(
        found.contains(&("/b".into(), "\"two\" is not of type \"integer\"".into())),
        "{found:?}"
    );
}

/// A violation deep in the instance is reported at its JSON pointer:
/// member names escaped (`~0`, `~1`), item indexes as numbers, in the
/// order of the schema's keywords (`items` before `prefixItems`).
#[test]
fn violations_are_reported_at_their_json_pointer() {
    let schema = json!({"properties": {"a/b~c": {
        "items": {"properties": {"x": {"type": "integer"}}},
        "prefixItems": [{"type": "object"}]
    }}});
    let found = errors(schema, json!({"a/b~c": [3, {"x": 1}, {"x": "no"}]}));
    assert_eq!(
        found,
        vec![
            (
                "/a~1b~0c/2/x".to_owned(),
                "\"no\" is not of type \"integer\"".to_owned()
            ),
            (
                "/a~1b~0c/0".to_owned(),
                "3 is not of type \"object\"".to_owned()
            ),
        ]
    );
}

/// What fails inside a branch of `anyOf`, `oneOf` or `not` decides that
/// branch only: it is neither reported nor counted against the schema
/// around it, however deep the branches nest.
#[test]
fn failures_inside_branches_stay_there() {
    // The inner `not` fails on `null` and on 5, so `prefixItems` fails,
    // so the outer `not` passes; on -1 it passes, and the outer fails.
    let nested = json!({"not": {"prefixItems": [{"not": {"minimum": 0}}]}});
    assert_eq!(errors(nested.clone(), json!([null])), vec![]);
    assert_eq!(errors(nested.clone(), json!([5])), vec![]);
    assert_eq!(
        errors(nested, json!([-1])),
        vec![(
            String::new(),
            "[-1] should not be valid under {\"prefixItems\":[{\"not\":{\"minimum\":0}}]}"
                .to_owned()
        )]
    );
    // The first branch fails twice before the second passes.
    let either = json!({"anyOf": [{"type": "string", "minLength": 9}, {"minimum": 1}],
                        "maximum": 10});
    assert_eq!(errors(either.clone(), json!(5)), vec![]);
    assert_eq!(
        errors(either, json!(0)),
        vec![(
            String::new(),
            "0 is not valid under any of the schemas listed in the 'anyOf' keyword".to_owned()
        )]
    );
    let one = json!({"oneOf": [{"type": "integer"}, {"minimum": 3}]});
    assert_eq!(errors(one.clone(), json!(3.5)), vec![]);
    assert_eq!(
        errors(one, json!(4))[0].1,
        "4 is valid under more than one of the schemas listed in the 'oneOf' keyword"
    );
}

#[test]
fn keywords_it_cannot_check_are_refused_at_compile_time() {
    for schema in [
        json!({"type": "string", "pattern": "^a"}),
        json!({"properties": {"x": {"if": {"type": "string"}}}}),
        json!({"unevaluatedProperties": false}),
        json!({"$ref": "https://example.com/s.json"}),
        json!({"$ref": "#/$defs/missing"}),
        json!({"items": [{"type": "string"}]}),
        json!({"type": "text"}),
        // Hidden behind a $ref to a place that is not a schema keyword.
        json!({"$ref": "#/x-hidden", "x-hidden": {"pattern": "^a"}}),
        // Inside a `$ref` loop, reached again while still being compiled.
        json!({"$ref": "#/properties/p/not",
               "properties": {"p": {"not": {"$ref": "#/properties/p", "pattern": "x"}}}}),
    ] {
        let refused = LeanSchema::compile(&schema).err();
        assert!(refused.is_some(), "accepted {schema}");
    }
    let refused = LeanSchema::compile(&json!({"pattern": "^a"}))
        .err()
        .unwrap();
    assert!(
        refused.contains("`pattern`") && refused.contains("`validation` feature"),
        "{refused}"
    );
    // Annotations and unknown keywords are not validation: accepted.
    assert!(
        LeanSchema::compile(&json!({"format": "email", "x-extension": 1, "title": "t"})).is_ok()
    );
}

#[test]
fn malformed_keyword_values_are_refused_where_they_are() {
    for (schema, at) in [
        (
            json!({"properties": {"a": {"minLength": -1}}}),
            "#/properties/a/minLength",
        ),
        (json!({"multipleOf": 0}), "#/multipleOf"),
        (json!({"required": ["a", 1]}), "#/required"),
        (json!({"enum": 5}), "#/enum"),
        (json!({"uniqueItems": 1}), "#/uniqueItems"),
        (json!({"minimum": "1"}), "#/minimum"),
        (json!({"anyOf": []}), "#/anyOf"),
        (json!({"allOf": [{}, 5]}), "#/allOf/1"),
        (json!({"properties": 5}), "#/properties"),
        (json!({"properties": {"a/b": 5}}), "#/properties/a~1b"),
        (json!({"not": 5}), "#/not"),
        (json!({"$ref": 5}), "#/$ref"),
        (json!({"type": ["string", "text"]}), "#/type"),
        // A definition no `$ref` uses is refused all the same.
        (
            json!({"$defs": {"unused": {"pattern": "^a"}}}),
            "#/$defs/unused",
        ),
        // Reached only through a `$ref`, the place is the reference's.
        (
            json!({"$ref": "#/x-hidden", "x-hidden": {"maxItems": 1.5}}),
            "#/x-hidden/maxItems",
        ),
    ] {
        let refused = LeanSchema::compile(&schema).err();
        let refused = refused.unwrap_or_else(|| panic!("accepted {schema}"));
        assert!(
            refused.starts_with(&format!("{at}: ")),
            "{schema}: {refused}"
        );
    }
}

/// A chain of definitions, each referring to the next: compiling it
/// recurses once per link, so past `MAX_DEPTH` it is refused rather than
/// allowed to exhaust the stack (a check could not go that deep anyway).
#[test]
fn a_chain_of_refs_deeper_than_a_check_may_go_is_refused() {
    let chain = |links: usize| {
        let mut defs = serde_json::Map::new();
        for i in 0..links {
            let next = if i + 1 < links {
                json!({"$ref": format!("#/$defs/d{}", i + 1)})
            } else {
                json!({"type": "integer"})
            };
            defs.insert(format!("d{i}"), next);
        }
        json!({"$ref": "#/$defs/d0", "$defs": defs})
    };
    let compiled = LeanSchema::compile(&chain(200)).unwrap();
    assert!(compiled.is_valid(&json!(1)));
    assert!(!compiled.is_valid(&json!("one")));
    let refused = LeanSchema::compile(&chain(MAX_DEPTH + 50)).err().unwrap();
    let bound = format!("nest more than {MAX_DEPTH} deep");
    assert!(refused.contains(&bound), "{refused}");
    // Far past the bound, still a refusal, not a stack overflow.
    assert!(LeanSchema::compile(&chain(20_000)).is_err());
}

#[test]
fn recursive_schemas_end() {
    let endless = LeanSchema::compile(&json!({"$ref": "#"})).unwrap();
    assert!(!endless.errors(&json!(1)).is_empty());
    // Every level doubles the work: bounded by the step budget, not 2^256.
    let bomb = json!({"anyOf": [{"$ref": "#"}, {"$ref": "#"}]});
    let started = std::time::Instant::now();
    assert!(
        !LeanSchema::compile(&bomb)
            .unwrap()
            .errors(&json!(1))
            .is_empty()
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    // A recursive schema that matches real data still works.
    let tree = json!({"type": "object", "properties": {"kids": {"type": "array",
                      "items": {"$ref": "#"}}}});
    let tree = LeanSchema::compile(&tree).unwrap();
    assert!(tree.is_valid(&json!({"kids": [{"kids": []}, {}]})));
    assert!(!tree.is_valid(&json!({"kids": [{"kids": [1]}]})));
}

/// Each subschema compiles to one node however many `$ref`s reach it: a
/// chain of nested objects, each with a member that refers to the next
/// one down (which its other member holds), is as many nodes as
/// subschemas, not a copy of the rest of the chain per reference.
#[test]
fn a_subschema_reached_again_by_ref_compiles_once() {
    let depth = 100;
    let mut schema = json!({"type": "integer"});
    for level in (0..depth).rev() {
        let next = format!("#{}", "/properties/n".repeat(level + 1));
        schema = json!({"type": "object", "properties": {"n": schema, "m": {"$ref": next}}});
    }
    let compiled = LeanSchema::compile(&schema).unwrap();
    // Per level an object and its `{"$ref": ...}`, and the leaf.
    assert_eq!(compiled.nodes.len(), 2 * depth + 1);
    let (mut valid, mut invalid) = (json!(5), json!("five"));
    for _ in 0..depth {
        valid = json!({"n": valid});
        invalid = json!({"n": invalid});
    }
    assert!(compiled.is_valid(&valid));
    assert!(!compiled.is_valid(&invalid));
}

#[test]
fn numbers_compare_as_numbers() {
    let check = |schema: Value, n: Value| errors(schema, n).is_empty();
    assert!(check(json!({"enum": [1]}), json!(1.0)));
    assert!(check(json!({"type": "integer"}), json!(2.0)));
    assert!(!check(json!({"type": "integer"}), json!(2.5)));
    assert!(check(json!({"maximum": u64::MAX}), json!(-1)));
    assert!(!check(json!({"minimum": u64::MAX}), json!(i64::MIN)));
    assert!(check(json!({"exclusiveMinimum": 0}), json!(0.5)));
    assert!(!check(json!({"exclusiveMaximum": 1}), json!(1.0)));
    assert!(check(json!({"multipleOf": 0.5}), json!(2.5)));
    assert!(!check(json!({"multipleOf": 3}), json!(7)));
    assert!(check(json!({"maxLength": 2}), json!("é!")));
}

#[cfg(feature = "validation")]
/// Schemas built from the keywords the lean validator checks.
fn schema() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!(true)),
        Just(json!(false)),
        prop::sample::select(vec![
            "null", "boolean", "object", "array", "number", "integer", "string"
        ])
        .prop_map(|t| json!({"type": t})),
        Just(json!({"type": ["string", "null"]})),
        small().prop_map(|v| json!({"const": v})),
        prop::collection::vec(small(), 1..3).prop_map(|v| json!({"enum": v})),
        (-3i64..3).prop_map(|n| json!({"minimum": n})),
        (-3i64..3).prop_map(|n| json!({"exclusiveMaximum": n})),
        (-3.0f64..3.0).prop_map(|n| json!({"maximum": n})),
        prop::sample::select(vec![json!(2), json!(0.5), json!(3)])
            .prop_map(|m| json!({"multipleOf": m})),
        (0u64..3).prop_map(|n| json!({"minLength": n, "maxLength": n + 1})),
        (0u64..3).prop_map(|n| json!({"minItems": n, "uniqueItems": true})),
        (0u64..2).prop_map(|n| json!({"maxProperties": n, "minProperties": n})),
        Just(json!({"required": ["a"]})),
        Just(json!({"$ref": "#/$defs/int"})),
        Just(json!({"format": "email"})),
    ];
    leaf.prop_recursive(3, 24, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| json!({"properties": {"a": a, "b": b}})),
            (inner.clone(), inner.clone()).prop_map(|(a, extra)| json!({
                "properties": {"a": a}, "additionalProperties": extra})),
            inner.clone().prop_map(|i| json!({"items": i})),
            (inner.clone(), inner.clone())
                .prop_map(|(p, i)| json!({"prefixItems": [p], "items": i})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"anyOf": v})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"oneOf": v})),
            prop::collection::vec(inner.clone(), 1..3).prop_map(|v| json!({"allOf": v})),
            inner.clone().prop_map(|n| json!({"not": n})),
            (inner.clone(), inner).prop_map(|(a, b)| {
                let mut merged = a.as_object().cloned().unwrap_or_default();
                merged.extend(b.as_object().cloned().unwrap_or_default());
                Value::Object(merged)
            }),
        ]
    })
    .prop_map(|schema| match schema {
        Value::Object(mut object) => {
            object.insert("$defs".into(), json!({"int": {"type": "integer"}}));
            Value::Object(object)
        }
        other => other,
    })
}

#[cfg(feature = "validation")]
fn small() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..3).prop_map(Value::from),
        prop::sample::select(vec![-1.5, 0.0, 0.5, 1.0, 2.0]).prop_map(Value::from),
        prop::sample::select(vec!["", "a", "ab", "é", "x@y"]).prop_map(Value::from),
    ]
}

#[cfg(feature = "validation")]
/// Values shaped like the schemas above, often enough to reach their keywords.
fn instance() -> impl Strategy<Value = Value> {
    small().prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            prop::collection::btree_map(prop::sample::select(vec!["a", "b", "c"]), inner, 0..3)
                .prop_map(|m| json!(m)),
        ]
    })
}

#[cfg(feature = "validation")]
proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// The lean validator and `jsonschema` agree on every value.
    #[test]
    fn agrees_with_jsonschema(schema in schema(), values in prop::collection::vec(instance(), 1..6)) {
        let lean = LeanSchema::compile(&schema).expect("uses only checked keywords");
        let reference = jsonschema::draft202012::new(&schema).expect("a valid schema");
        for value in values {
            prop_assert_eq!(
                lean.is_valid(&value),
                reference.is_valid(&value),
                "schema {} value {}", schema, value
            );
        }
    }
}

#[test]
fn large_instances_are_checked_in_linear_time() {
    let set = LeanSchema::compile(&json!({"type": "array", "uniqueItems": true,
                                          "items": {"type": "integer"}}))
    .unwrap();
    let started = std::time::Instant::now();
    let distinct: Vec<Value> = (0..200_000).map(Value::from).collect();
    assert!(
        set.is_valid(&Value::from(distinct.clone())),
        "a big valid array passes"
    );
    let mut repeated = distinct;
    repeated.push(json!(7.0)); // equal to 7 as JSON
    assert!(!set.is_valid(&Value::from(repeated)));
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    // Canonical forms agree with pairwise equality, object order and number
    // spelling aside.
    let objects: Vec<Value> = (0..20).map(|i| json!({"a": i, "b": [i, 1.0]})).collect();
    let mut with_twin = objects.clone();
    with_twin.push(json!({"b": [3.0, 1], "a": 3}));
    let unique = LeanSchema::compile(&json!({"uniqueItems": true})).unwrap();
    assert!(unique.is_valid(&Value::from(objects)));
    assert!(!unique.is_valid(&Value::from(with_twin)));
}

#[test]
fn messages_show_at_most_a_short_prefix_of_a_value() {
    let long = "x".repeat(1_000_000);
    let found = errors(json!({"type": "integer"}), json!([long]));
    let (_, message) = &found[0];
    assert!(message.len() < 300, "{} bytes", message.len());
    assert!(
        message.starts_with("[\"xxx") && message.contains("… is not of type"),
        "{message}"
    );
}
