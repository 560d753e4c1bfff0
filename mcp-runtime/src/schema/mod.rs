//! JSON Schema 2020-12 validation of tool arguments and structured output.
//!
//! Schemas are compiled once when a tool is registered; a call only runs the
//! compiled validator.

use std::fmt::{self, Write};

use serde_json::Value;

/// A compiled JSON Schema (2020-12 unless the schema's `$schema` says otherwise).
pub struct CompiledSchema {
    validator: jsonschema::Validator,
}

/// A schema that could not be compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError(String);

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SchemaError {}

impl CompiledSchema {
    /// Compiles `schema`. Remote `$ref`s are never fetched: they fail here.
    pub fn compile(schema: &Value) -> Result<Self, SchemaError> {
        jsonschema::options()
            .with_draft(draft_of(schema))
            .build(schema)
            .map(|validator| CompiledSchema { validator })
            .map_err(|e| SchemaError(e.to_string()))
    }

    /// Checks `instance`; on failure returns every violation, one per line,
    /// each prefixed with the JSON pointer of the offending value so that the
    /// message names the field.
    pub fn check(&self, instance: &Value) -> Result<(), String> {
        if self.validator.is_valid(instance) {
            return Ok(());
        }
        let mut report = String::new();
        for error in self.validator.iter_errors(instance) {
            if !report.is_empty() {
                report.push('\n');
            }
            let path = error.instance_path().to_string();
            let at = if path.is_empty() {
                "(root)"
            } else {
                path.as_str()
            };
            let _ = write!(report, "{at}: {error}");
        }
        Err(report)
    }
}

/// The draft named by `$schema`, 2020-12 when absent or unknown.
fn draft_of(schema: &Value) -> jsonschema::Draft {
    use jsonschema::Draft;
    let uri = schema
        .get("$schema")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let uri = uri.trim_end_matches('#');
    match uri {
        "http://json-schema.org/draft-04/schema" => Draft::Draft4,
        "http://json-schema.org/draft-06/schema" => Draft::Draft6,
        "http://json-schema.org/draft-07/schema" => Draft::Draft7,
        "https://json-schema.org/draft/2019-09/schema" => Draft::Draft201909,
        _ => Draft::Draft202012,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn add_schema() -> CompiledSchema {
        CompiledSchema::compile(&json!({
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
            "additionalProperties": false
        }))
        .unwrap()
    }

    #[test]
    fn valid_instance_passes() {
        assert_eq!(add_schema().check(&json!({"a": 1, "b": 2})), Ok(()));
    }

    #[test]
    fn violation_names_the_field() {
        let report = add_schema()
            .check(&json!({"a": 1, "b": "two"}))
            .unwrap_err();
        assert!(report.starts_with("/b: "), "{report}");
        assert!(report.contains("integer"), "{report}");
        let report = add_schema().check(&json!({"a": 1})).unwrap_err();
        assert!(report.contains("\"b\""), "{report}");
    }

    #[test]
    fn invalid_schema_is_an_error_not_a_panic() {
        assert!(CompiledSchema::compile(&json!({"type": 12})).is_err());
        assert!(CompiledSchema::compile(&json!({"$ref": "https://example.com/s.json"})).is_err());
    }

    #[test]
    fn draft_07_schemas_use_draft_07() {
        let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}]});
        let compiled = CompiledSchema::compile(&schema).unwrap();
        assert!(compiled.check(&json!([1])).is_err());
    }
}
