//! JSON Schema 2020-12 for macro-built tools: the input object assembled from
//! the parameters, and the output schema of structured results. Both are
//! built once, when the tool definition is made.

use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema};
use serde_json::{Map, Value, json};

use crate::protocol::headers::X_MCP_HEADER;

/// The 2020-12 dialect URI put on every generated schema.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// How generated schemas are shaped for the clients that read them.
///
/// The default, [`Standard`](Self::Standard), is plain 2020-12: shared
/// types go to `$defs` and are referenced with `$ref`, and an optional
/// parameter's schema admits `null` (`"type": ["string", "null"]`), which is
/// exactly what the function accepts. Choose
/// [`Compatible`](Self::Compatible) for clients known to reject `$ref` or
/// type arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SchemaProfile {
    /// 2020-12 as generated: `$defs` + `$ref`, nullable optional parameters.
    #[default]
    Standard,
    /// Definitions inlined (recursive types still use `$ref`), and optional
    /// parameters described by their inner type, simply left out of
    /// `required`.
    Compatible,
}

impl SchemaProfile {
    fn generator(self) -> SchemaGenerator {
        let mut settings = SchemaSettings::draft2020_12();
        settings.inline_subschemas = self == SchemaProfile::Compatible;
        SchemaGenerator::new(settings)
    }
}

/// A property of the input object: how to describe one parameter.
pub(crate) struct PropertySchema {
    pub(crate) schema: fn(&mut SchemaGenerator) -> Schema,
    pub(crate) required: bool,
}

/// The schema of `T` itself.
pub(crate) fn schema_of<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}

/// Assembles the input schema of a tool, one parameter at a time.
pub struct InputSchema {
    profile: SchemaProfile,
    generator: SchemaGenerator,
    properties: Map<String, Value>,
    required: Vec<Value>,
}

impl InputSchema {
    /// An empty input object for `profile`.
    pub fn new(profile: SchemaProfile) -> Self {
        InputSchema {
            profile,
            generator: profile.generator(),
            properties: Map::new(),
            required: Vec::new(),
        }
    }

    /// Adds a property; `header` names the HTTP header (`x-mcp-header`)
    /// that mirrors it.
    pub(crate) fn property(
        &mut self,
        name: &str,
        property: &PropertySchema,
        description: Option<&str>,
        header: Option<&str>,
    ) {
        let mut schema = (property.schema)(&mut self.generator).to_value();
        if let Value::Object(members) = &mut schema {
            if let Some(text) = description {
                members.insert("description".into(), text.into());
            }
            if let Some(header) = header {
                members.insert(X_MCP_HEADER.into(), header.into());
            }
        }
        if property.required {
            self.required.push(name.into());
        }
        self.properties.insert(name.to_owned(), schema);
    }

    /// The finished object schema: `$schema`, `type`, `properties`,
    /// `required`, `additionalProperties: false` and any `$defs`.
    pub fn finish(mut self) -> Value {
        let mut schema = json!({
            "$schema": DIALECT,
            "type": "object",
            "properties": self.properties,
        });
        if !self.required.is_empty() {
            schema["required"] = Value::Array(self.required);
        }
        schema["additionalProperties"] = Value::Bool(false);
        let defs = self.generator.take_definitions(true);
        if !defs.is_empty() {
            schema["$defs"] = Value::Object(defs);
        }
        if self.profile == SchemaProfile::Compatible {
            drop_null_from_optional_properties(&mut schema);
        }
        schema
    }
}

/// The output schema of a structured result, and whether values are wrapped
/// as `{"result": value}` because MCP requires an object at the root.
pub struct OutputSchema {
    /// The schema listed as `outputSchema`.
    pub schema: Value,
    /// Whether `structuredContent` is `{"result": value}`.
    pub wrapped: bool,
}

/// The output schema of `T` for `profile`.
pub(crate) fn output_schema_of<T: JsonSchema>(profile: SchemaProfile) -> OutputSchema {
    let mut root = profile.generator().into_root_schema_for::<T>().to_value();
    if profile == SchemaProfile::Compatible {
        drop_null_from_optional_properties(&mut root);
    }
    if root.get("type").and_then(Value::as_str) == Some("object") {
        return OutputSchema {
            schema: root,
            wrapped: false,
        };
    }
    let Value::Object(mut inner) = root else {
        // `true` or `false`: any value (or none) as the result member.
        return OutputSchema {
            schema: wrap(root, None),
            wrapped: true,
        };
    };
    inner.remove("$schema");
    let defs = inner.remove("$defs");
    OutputSchema {
        schema: wrap(Value::Object(inner), defs),
        wrapped: true,
    }
}

fn wrap(inner: Value, defs: Option<Value>) -> Value {
    let mut schema = json!({
        "$schema": DIALECT,
        "type": "object",
        "properties": { "result": inner },
        "required": ["result"],
    });
    if let Some(defs) = defs {
        schema["$defs"] = defs;
    }
    schema
}

/// For the compatible profile: an optional property (not in `required`)
/// whose type is `[T, "null"]` becomes `T`, recursively.
fn drop_null_from_optional_properties(schema: &mut Value) {
    let Value::Object(members) = schema else {
        return;
    };
    let required: Vec<String> = members
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    if let Some(Value::Object(properties)) = members.get_mut("properties") {
        for (name, property) in properties.iter_mut() {
            if !required.contains(name) {
                strip_null_type(property);
            }
        }
    }
    for value in members.values_mut() {
        match value {
            Value::Object(_) => drop_null_from_optional_properties(value),
            Value::Array(items) => items
                .iter_mut()
                .for_each(drop_null_from_optional_properties),
            _ => {}
        }
    }
}

fn strip_null_type(property: &mut Value) {
    let Some(Value::Array(types)) = property.get("type") else {
        return;
    };
    let others: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
    if others.len() == types.len() {
        return;
    }
    property["type"] = match <[Value; 1]>::try_from(others) {
        Ok([single]) => single,
        Err(many) => Value::Array(many),
    };
}
