//! Property-style round trip: for every tool schema of the corpus, random
//! values are generated from the schema, those that validate against it
//! (`jsonschema`) must deserialize into the generated type and serialize
//! back to equal JSON. The generated types are the snapshot files under
//! `tests/snapshots/types/`, compiled here against a local serde shim.

use std::borrow::Cow;

use jsonschema::Validator;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

type Case = (
    &'static str,
    &'static str,
    &'static str,
    fn(Value) -> Result<Value, String>,
);

include!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/snapshots/types/registry.rs"
));

fn roundtrip<T: Serialize + DeserializeOwned>(value: Value) -> Result<Value, String> {
    let typed: T = serde_json::from_value(value).map_err(|e| format!("deserialize: {e}"))?;
    serde_json::to_value(&typed).map_err(|e| format!("serialize: {e}"))
}

/// JSON equality where `3` and `3.0` are the same number, as in JSON Schema.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Generates candidate values from a schema; they need not all be valid.
struct Gen<'a> {
    root: &'a Value,
    rng: fastrand::Rng,
}

impl Gen<'_> {
    fn resolve(&self, reference: &str) -> Value {
        let fragment = reference.trim_start_matches('#');
        if fragment.is_empty() || fragment.starts_with('/') {
            return self
                .root
                .pointer(fragment)
                .cloned()
                .unwrap_or(Value::Bool(true));
        }
        for defs in ["$defs", "definitions"] {
            if let Some(Value::Object(map)) = self.root.get(defs) {
                for schema in map.values() {
                    if schema.get("$anchor").and_then(Value::as_str) == Some(fragment) {
                        return schema.clone();
                    }
                }
            }
        }
        Value::Bool(true)
    }

    /// `$ref` and `allOf` flattened into one object schema (shallowly);
    /// borrowed when there is nothing to flatten, since cloning every level
    /// of the corpus' 50-deep and 1,000-wide schemas dominated the test.
    fn flatten<'s>(&self, schema: &'s Value, depth: usize) -> Cow<'s, Map<String, Value>> {
        let Some(map) = schema.as_object() else {
            return Cow::Owned(Map::new());
        };
        if depth > 8 || !(map.contains_key("$ref") || map.contains_key("allOf")) {
            return Cow::Borrowed(map);
        }
        let mut out = map.clone();
        let mut parts = Vec::new();
        if let Some(Value::String(r)) = out.remove("$ref") {
            parts.push(self.resolve(&r));
        }
        if let Some(Value::Array(all)) = out.remove("allOf") {
            parts.extend(all);
        }
        for part in parts {
            for (k, v) in self.flatten(&part, depth + 1).into_owned() {
                match (out.get_mut(&k), v) {
                    (Some(Value::Object(a)), Value::Object(b)) if k == "properties" => a.extend(b),
                    (Some(Value::Array(a)), Value::Array(b)) if k == "required" => a.extend(b),
                    (Some(_), _) => {}
                    (None, v) => {
                        out.insert(k, v);
                    }
                }
            }
        }
        Cow::Owned(out)
    }

    fn value(&mut self, schema: &Value, depth: usize) -> Value {
        let map = match schema {
            Value::Object(_) => self.flatten(schema, 0),
            _ => return self.scalar(),
        };
        if let Some(c) = map.get("const") {
            return c.clone();
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            return values
                .get(self.rng.usize(..values.len().max(1)))
                .cloned()
                .unwrap_or(Value::Null);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(Value::Array(members)) = map.get(key) {
                let member = &members[self.rng.usize(..members.len())];
                let mut merged: Map<String, Value> = map
                    .iter()
                    .filter(|(k, _)| k.as_str() != key)
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                merged.insert("allOf".into(), json!([member]));
                return self.value(&Value::Object(merged), depth + 1);
            }
        }
        let ty = match map.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(ts)) if !ts.is_empty() => ts[self.rng.usize(..ts.len())]
                .as_str()
                .unwrap_or("null")
                .to_owned(),
            _ if map.contains_key("properties") || map.contains_key("additionalProperties") => {
                "object".into()
            }
            _ if map.contains_key("items") || map.contains_key("prefixItems") => "array".into(),
            _ => return self.scalar(),
        };
        let num = |k: &str| map.get(k).and_then(Value::as_f64);
        match ty.as_str() {
            "null" => Value::Null,
            "boolean" => Value::Bool(self.rng.bool()),
            "string" => self.string(),
            "integer" => {
                let lo = num("minimum")
                    .or(num("exclusiveMinimum").map(|x| x + 1.0))
                    .unwrap_or(-1000.0) as i64;
                let hi = num("maximum")
                    .or(num("exclusiveMaximum").map(|x| x - 1.0))
                    .unwrap_or(1000.0) as i64;
                json!(self.rng.i64(lo.min(hi)..=hi.max(lo)))
            }
            "number" => {
                let lo = num("minimum").unwrap_or(-1000.0);
                let hi = num("maximum").unwrap_or(1000.0);
                json!(lo + (hi - lo) * f64::from(self.rng.u8(0..=4)) / 4.0 + 0.0)
            }
            "array" => {
                let mut items = Vec::new();
                if let Some(Value::Array(prefix)) = map.get("prefixItems") {
                    for item in prefix {
                        items.push(self.value(item, depth + 1));
                    }
                } else if depth < 6 {
                    let item = map.get("items").cloned().unwrap_or(Value::Bool(true));
                    for _ in 0..self.rng.usize(0..3) {
                        items.push(self.value(&item, depth + 1));
                    }
                }
                Value::Array(items)
            }
            _ => self.object(&map, depth),
        }
    }

    fn object(&mut self, map: &Map<String, Value>, depth: usize) -> Value {
        let mut out = Map::new();
        let required: Vec<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(Value::Object(props)) = map.get("properties") {
            for (name, schema) in props {
                let needed = required.contains(&name.as_str());
                if !needed && (depth > 4 || self.rng.bool()) {
                    continue;
                }
                let v = self.value(schema, depth + 1);
                // `default: null` makes null and absent the same thing.
                if !needed && v.is_null() && schema.get("default") == Some(&Value::Null) {
                    continue;
                }
                out.insert(name.clone(), v);
            }
        }
        let extra = map
            .get("additionalProperties")
            .filter(|s| s.is_object())
            .or_else(|| {
                map.get("patternProperties")
                    .and_then(|p| p.as_object()?.values().next())
            })
            .cloned();
        if let Some(extra) = extra {
            for key in ["abc", "a1", "zz"] {
                if self.rng.bool() && !out.contains_key(key) {
                    let v = self.value(&extra, depth + 1);
                    out.insert(key.to_owned(), v);
                }
            }
        }
        Value::Object(out)
    }

    fn string(&mut self) -> Value {
        const PARTS: &[&str] = &["a", "Z", "é", "名", " ", "\"", "\\", "0", "-", "😀"];
        let len = self.rng.usize(0..5);
        Value::String(
            (0..len)
                .map(|_| PARTS[self.rng.usize(..PARTS.len())])
                .collect(),
        )
    }

    fn scalar(&mut self) -> Value {
        match self.rng.u8(0..5) {
            0 => Value::Null,
            1 => Value::Bool(true),
            2 => json!(self.rng.i64(-5..5)),
            3 => self.string(),
            _ => json!({"k": [1, "x"]}),
        }
    }
}

fn corpus_schema(file: &str, tool: &str, which: &str) -> Value {
    let path = format!("{}/tests/corpus/{file}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let list: Value = serde_json::from_str(&text).unwrap();
    list["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == tool)
        .unwrap()[which]
        .clone()
}

#[test]
fn valid_values_round_trip_through_generated_types() {
    let mut failures = Vec::new();
    for (i, (file, tool, which, roundtrip)) in CASES.iter().enumerate() {
        let schema = corpus_schema(file, tool, which);
        // The `invalid` corpus holds schemas that are not valid JSON Schema:
        // generation must cope, but there is nothing to validate against.
        let validator: Validator = match jsonschema::draft202012::new(&schema) {
            Ok(validator) => validator,
            Err(_) if *file == "invalid" => continue,
            Err(e) => panic!("{file}/{tool}/{which}: invalid schema: {e}"),
        };
        let mut generator = Gen {
            root: &schema,
            rng: fastrand::Rng::with_seed(0x5eed + i as u64),
        };
        let mut valid = 0;
        for _ in 0..300 {
            let value = generator.value(&schema, 0);
            if !validator.is_valid(&value) {
                continue;
            }
            valid += 1;
            match roundtrip(value.clone()) {
                Ok(back) if same(&value, &back) => {}
                Ok(back) => failures.push(format!(
                    "{file}/{tool}/{which}: {value} came back as {back}"
                )),
                Err(e) => failures.push(format!("{file}/{tool}/{which}: {value}: {e}")),
            }
        }
        // Random fuzz schemas may admit few values (or none).
        assert!(
            *file == "fuzz" || valid >= 10,
            "{file}/{tool}/{which}: only {valid} of 300 generated values were valid"
        );
    }
    failures.truncate(20);
    assert!(failures.is_empty(), "{failures:#?}");
}
