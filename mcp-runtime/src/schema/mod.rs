//! JSON Schema 2020-12 validation of tool arguments and structured output.
//!
//! Schemas are compiled once when a tool is registered; a call only runs the
//! compiled validator. With the `validation` feature (off by default) that
//! is the `jsonschema` crate, which knows every keyword of every draft.
//! Without it, a small validator for the keywords schemars emits for Rust
//! types, which refuses, when the tool is registered, a schema that uses
//! any other validation keyword (`pattern`, `if`, ...), so that no check
//! is skipped silently.

use std::fmt::{self, Write};

use serde_json::Value;

#[cfg(any(test, feature = "fuzzing", not(feature = "validation")))]
pub(crate) mod lean;

/// A compiled JSON Schema (2020-12 unless the schema's `$schema` says otherwise).
pub struct CompiledSchema {
    #[cfg(feature = "validation")]
    validator: jsonschema::Validator,
    #[cfg(not(feature = "validation"))]
    validator: lean::LeanSchema,
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
    /// Without the `validation` feature, so does a keyword the small
    /// validator does not check.
    pub fn compile(schema: &Value) -> Result<Self, SchemaError> {
        #[cfg(feature = "validation")]
        let validator = jsonschema::options()
            .with_draft(draft_of(schema))
            .build(schema)
            .map_err(|e| SchemaError(e.to_string()))?;
        #[cfg(not(feature = "validation"))]
        let validator = lean::LeanSchema::compile(schema).map_err(SchemaError)?;
        Ok(CompiledSchema { validator })
    }

    /// Checks `instance`; on failure returns every violation, one per line,
    /// each prefixed with the JSON pointer of the offending value so that the
    /// message names the field.
    pub fn check(&self, instance: &Value) -> Result<(), String> {
        #[cfg(feature = "validation")]
        {
            if self.validator.is_valid(instance) {
                return Ok(());
            }
            let errors = self.validator.iter_errors(instance);
            Err(report(errors.map(|error| {
                (error.instance_path().to_string(), error.to_string())
            })))
        }
        // One pass: the built-in validator's errors are its verdict, so a
        // failing argument is not checked twice.
        #[cfg(not(feature = "validation"))]
        {
            let errors = self.validator.errors(instance);
            match errors.is_empty() {
                true => Ok(()),
                false => Err(report(errors.into_iter())),
            }
        }
    }
}

/// One `pointer: message` line per violation, `(root)` for the value itself.
fn report(errors: impl Iterator<Item = (String, String)>) -> String {
    let mut report = String::new();
    for (path, message) in errors {
        if !report.is_empty() {
            report.push('\n');
        }
        let at = if path.is_empty() {
            "(root)"
        } else {
            path.as_str()
        };
        let _ = write!(report, "{at}: {message}");
    }
    report
}

/// The draft named by `$schema`, 2020-12 when absent or unknown.
#[cfg(feature = "validation")]
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
    #[cfg(feature = "validation")]
    fn draft_07_schemas_use_draft_07() {
        let schema = json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}]});
        let compiled = CompiledSchema::compile(&schema).unwrap();
        assert!(compiled.check(&json!([1])).is_err());
    }
}
