//! Schema documents: resolving local `$ref`s (JSON pointers, `$anchor`s,
//! the document's own `$id`) and merging `allOf` constituents. Nothing here
//! ever fetches anything: a non-local reference is reported as remote.

use serde_json::{Map, Value};

/// Why a reference did not resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefProblem {
    /// Not local to this document.
    Remote,
    /// Local, but nothing is there.
    Missing(String),
}

/// Resolves `reference` inside `root`; returns the target and its JSON
/// pointer (without the leading `#`).
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Result<(&'a Value, String), RefProblem> {
    let fragment = match reference.split_once('#') {
        Some(("", fragment)) => fragment,
        Some((base, fragment)) if is_own_id(root, base) => fragment,
        None if is_own_id(root, reference) => "",
        _ => return Err(RefProblem::Remote),
    };
    let fragment = percent_decode(fragment);
    if fragment.is_empty() || fragment.starts_with('/') {
        return root
            .pointer(&fragment)
            .map(|target| (target, fragment.clone()))
            .ok_or_else(|| RefProblem::Missing(format!("no value at JSON pointer `{fragment}`")));
    }
    find_anchor(root, &fragment, String::new(), 0)
        .map(|pointer| (root.pointer(&pointer).unwrap_or(root), pointer))
        .ok_or_else(|| RefProblem::Missing(format!("no `$anchor` named `{fragment}`")))
}

fn is_own_id(root: &Value, base: &str) -> bool {
    let id = root.get("$id").and_then(Value::as_str).unwrap_or_default();
    !base.is_empty() && id.trim_end_matches('#') == base
}

/// Decodes `%XX` escapes of a URI fragment; invalid escapes stay as written.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| {
            std::str::from_utf8(h)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        });
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Escapes one JSON pointer segment.
pub fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Depth-first search for `"$anchor": name` (or `$dynamicAnchor`); bounded
/// by the nesting serde_json allows when parsing.
fn find_anchor(value: &Value, name: &str, pointer: String, depth: usize) -> Option<String> {
    if depth > 256 {
        return None;
    }
    match value {
        Value::Object(map) => {
            for key in ["$anchor", "$dynamicAnchor"] {
                if map.get(key).and_then(Value::as_str) == Some(name) {
                    return Some(pointer);
                }
            }
            map.iter().find_map(|(k, v)| {
                find_anchor(
                    v,
                    name,
                    format!("{pointer}/{}", escape_segment(k)),
                    depth + 1,
                )
            })
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| find_anchor(v, name, format!("{pointer}/{i}"), depth + 1)),
        _ => None,
    }
}

/// Keywords that only annotate: a `$ref` with only these beside it is a plain reference.
pub const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$schema",
    "$id",
    "$anchor",
    "$defs",
    "definitions",
];

/// Whether `map` has any keyword besides `except` and annotations.
pub fn has_assertions(map: &Map<String, Value>, except: &[&str]) -> bool {
    map.keys()
        .any(|k| !except.contains(&k.as_str()) && !ANNOTATIONS.contains(&k.as_str()))
}

/// Merges the object schema `b` into `a` as an `allOf` would require:
/// properties and `required` are united, types and enums intersected,
/// bounds tightened; `a`'s annotations win.
pub fn merge_into(a: &mut Map<String, Value>, b: &Map<String, Value>) {
    for (key, bv) in b {
        let Some(av) = a.get_mut(key) else {
            if !matches!(key.as_str(), "$id" | "$schema" | "$defs" | "definitions") {
                a.insert(key.clone(), bv.clone());
            }
            continue;
        };
        if av == bv {
            continue;
        }
        match key.as_str() {
            "properties" => {
                if let (Value::Object(ap), Value::Object(bp)) = (av, bv) {
                    for (name, schema) in bp {
                        match ap.get_mut(name) {
                            Some(existing) if existing != schema => {
                                let both = Value::Array(vec![existing.clone(), schema.clone()]);
                                *existing = Value::Object(Map::from_iter([("allOf".into(), both)]));
                            }
                            Some(_) => {}
                            None => {
                                ap.insert(name.clone(), schema.clone());
                            }
                        }
                    }
                }
            }
            "required" => {
                if let (Value::Array(ar), Value::Array(br)) = (av, bv) {
                    for name in br {
                        if !ar.contains(name) {
                            ar.push(name.clone());
                        }
                    }
                }
            }
            "type" => *av = intersect_types(av, bv),
            "enum" => {
                if let (Value::Array(ae), Value::Array(be)) = (av, bv) {
                    ae.retain(|v| be.contains(v));
                }
            }
            "additionalProperties" if *bv == Value::Bool(false) => *av = Value::Bool(false),
            "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties"
                if bv.as_f64() > av.as_f64() =>
            {
                *av = bv.clone();
            }
            "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties" if matches!((av.as_f64(), bv.as_f64()), (Some(x), Some(y)) if y < x) =>
            {
                *av = bv.clone();
            }
            _ => {}
        }
    }
}

fn type_list(v: &Value) -> Vec<&str> {
    match v {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn intersect_types(a: &Value, b: &Value) -> Value {
    let bs = type_list(b);
    let mut out: Vec<&str> = Vec::new();
    for t in type_list(a) {
        let kept = match t {
            _ if bs.contains(&t) => Some(t),
            "number" if bs.contains(&"integer") => Some("integer"),
            "integer" if bs.contains(&"number") => Some("integer"),
            _ => None,
        };
        if let Some(t) = kept.filter(|t| !out.contains(t)) {
            out.push(t);
        }
    }
    match out.as_slice() {
        [one] => Value::String((*one).to_owned()),
        _ => Value::Array(
            out.into_iter()
                .map(|t| Value::String(t.to_owned()))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_pointers_anchors_and_own_id() {
        let doc = json!({
            "$id": "https://example.com/s.json",
            "$defs": {"a/b": {"type": "string"}, "n": {"$anchor": "node", "type": "integer"}},
            "items": [{"type": "boolean"}]
        });
        assert_eq!(resolve(&doc, "#/$defs/a~1b").unwrap().1, "/$defs/a~1b");
        assert_eq!(
            resolve(&doc, "#/items/0").unwrap().0,
            &json!({"type": "boolean"})
        );
        assert_eq!(resolve(&doc, "#node").unwrap().1, "/$defs/n");
        assert_eq!(resolve(&doc, "#/%24defs/n").unwrap().1, "/$defs/n");
        assert_eq!(
            resolve(&doc, "https://example.com/s.json#/$defs/n")
                .unwrap()
                .1,
            "/$defs/n"
        );
        assert_eq!(resolve(&doc, "#").unwrap().1, "");
        assert_eq!(
            resolve(&doc, "https://evil.example/x.json").unwrap_err(),
            RefProblem::Remote
        );
        assert_eq!(
            resolve(&doc, "other.json#/a").unwrap_err(),
            RefProblem::Remote
        );
        assert!(matches!(
            resolve(&doc, "#/nope"),
            Err(RefProblem::Missing(_))
        ));
    }

    #[test]
    fn merges_all_of() {
        let mut a =
            json!({"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]});
        let b = json!({"type": ["object", "null"], "properties": {"y": {"type": "string"}}, "required": ["y"], "additionalProperties": false});
        merge_into(a.as_object_mut().unwrap(), b.as_object().unwrap());
        assert_eq!(
            a,
            json!({"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "string"}}, "required": ["x", "y"], "additionalProperties": false})
        );
    }
}
