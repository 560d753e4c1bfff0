//! The reference the frontmatter parser is checked against (a unit test
//! over tricky cases here, the `frontmatter` fuzz target in `fuzz/`, which
//! includes this file): saphyr, a maintained YAML 1.2 parser, with its
//! result mapped to JSON the way our loader documents it. Whenever ours
//! accepts a frontmatter, saphyr must accept it too and yield the same
//! values; ours may refuse what saphyr reads (flow collections, anchors...).
//!
//! The mapping: keys are their text (`1:` is the key `"1"`); quoted and
//! block scalars are strings; plain scalars resolve with the core schema
//! (saphyr's resolver), except that a float without a JSON number
//! (`.inf`, `.nan`, `1e999`) stays the string it was written as.

use std::borrow::Cow;

use saphyr::{Scalar, ScalarStyle, Yaml, YamlLoader};
use serde_json::{Map, Number, Value};

/// `yaml` (the text between the `---` lines) read by saphyr as our loader
/// would map it, or why saphyr refused it or cannot be compared.
pub fn load(yaml: &str) -> Result<Map<String, Value>, String> {
    let mut loader = YamlLoader::<Yaml<'_>>::default();
    loader.early_parse(false);
    let mut parser = saphyr_parser::Parser::new_from_str(yaml);
    parser.load(&mut loader, true).map_err(|e| e.to_string())?;
    if let Some(error) = loader.error() {
        return Err(error.to_string());
    }
    let documents = loader.into_documents();
    match documents.as_slice() {
        [] => Ok(Map::new()),
        [Yaml::Mapping(_)] => match json(&documents[0])? {
            Value::Object(fields) => Ok(fields),
            _ => unreachable!("a mapping maps to an object"),
        },
        [other] => Err(format!("the document is not a mapping: {other:?}")),
        _ => Err(format!("{} documents", documents.len())),
    }
}

fn json(node: &Yaml<'_>) -> Result<Value, String> {
    match node {
        Yaml::Representation(text, style, None) => Ok(scalar(text, *style)),
        Yaml::Sequence(items) => items
            .iter()
            .map(json)
            .collect::<Result<_, _>>()
            .map(Value::Array),
        Yaml::Mapping(entries) => {
            let mut fields = Map::new();
            for (key, value) in entries {
                let Yaml::Representation(key, _, None) = key else {
                    return Err(format!("a key that is not an untagged scalar: {key:?}"));
                };
                fields.insert(key.to_string(), json(value)?);
            }
            Ok(Value::Object(fields))
        }
        other => Err(format!("not comparable: {other:?}")),
    }
}

fn scalar(text: &str, style: ScalarStyle) -> Value {
    // saphyr's own resolution: quoted and block scalars are strings, an
    // empty plain one is null, other plain ones follow the core schema.
    match Scalar::parse_from_cow_and_metadata(Cow::Borrowed(text), style, None) {
        None | Some(Scalar::String(_)) => Value::String(text.to_string()),
        Some(Scalar::Null) => Value::Null,
        Some(Scalar::Boolean(b)) => Value::Bool(b),
        Some(Scalar::Integer(n)) => Value::Number(n.into()),
        Some(Scalar::FloatingPoint(f)) => {
            Number::from_f64(*f).map_or_else(|| Value::String(text.to_string()), Value::Number)
        }
    }
}
