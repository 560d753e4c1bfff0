//! The restricted JSON Schema subset used by form-mode elicitation (`requestedSchema`).

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

use super::serde_util::{bad_tag, from_object, object, opt_f64_canonical, str_member};

/// The schema of an elicitation form: a flat object of primitive properties.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "object", rename_all = "camelCase")]
pub struct RequestedSchema {
    /// Optional `$schema` dialect URI.
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// The form fields.
    pub properties: BTreeMap<String, PrimitiveSchemaDefinition>,
    /// Names of the fields that must be filled in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<Vec<String>>,
}

/// Allowed string formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StringFormat {
    /// An email address.
    Email,
    /// A URI.
    Uri,
    /// A calendar date.
    Date,
    /// A date and time.
    DateTime,
}

/// A string field (`"type": "string"`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "string", rename_all = "camelCase")]
pub struct StringSchema {
    /// Field label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Field description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Minimum length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    /// Maximum length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
    /// Required format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<StringFormat>,
    /// Default value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// Whether a number field accepts any number or integers only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NumberType {
    /// Any number.
    Number,
    /// Integers only.
    Integer,
}

/// A numeric field (`"type": "number"` or `"integer"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NumberSchema {
    /// `number` or `integer`.
    pub r#type: NumberType,
    /// Field label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Field description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Minimum value.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "opt_f64_canonical"
    )]
    pub minimum: Option<f64>,
    /// Maximum value.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "opt_f64_canonical"
    )]
    pub maximum: Option<f64>,
    /// Default value.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "opt_f64_canonical"
    )]
    pub default: Option<f64>,
}

/// A boolean field (`"type": "boolean"`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "boolean", rename_all = "camelCase")]
pub struct BooleanSchema {
    /// Field label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Field description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Default value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<bool>,
}

/// A selectable value with a display title.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnumOption {
    /// The value.
    pub r#const: String,
    /// Its display label.
    pub title: String,
}

/// Single choice among plain values (`"type": "string"` with `enum`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "string", rename_all = "camelCase")]
pub struct UntitledSingleSelectEnumSchema {
    /// Field label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Field description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The allowed values.
    pub r#enum: Vec<String>,
    /// Default value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// Single choice among titled values (`"type": "string"` with `oneOf`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "string", rename_all = "camelCase")]
pub struct TitledSingleSelectEnumSchema {
    /// Field label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Field description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The allowed values with their labels.
    pub one_of: Vec<EnumOption>,
    /// Default value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// Item schema of an untitled multi-select: plain string values.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "string", rename_all = "camelCase")]
pub struct UntitledEnumItems {
    /// The allowed values.
    pub r#enum: Vec<String>,
}

/// Item schema of a titled multi-select.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TitledEnumItems {
    /// The allowed values with their labels.
    pub any_of: Vec<EnumOption>,
}

/// Multiple choice among plain values (`"type": "array"`, `items.enum`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "array", rename_all = "camelCase")]
pub struct UntitledMultiSelectEnumSchema {
    /// Field label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Field description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Minimum number of selections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    /// Maximum number of selections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    /// The allowed values.
    pub items: UntitledEnumItems,
    /// Default selection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Vec<String>>,
}

/// Multiple choice among titled values (`"type": "array"`, `items.anyOf`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "array", rename_all = "camelCase")]
pub struct TitledMultiSelectEnumSchema {
    /// Field label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Field description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Minimum number of selections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    /// Maximum number of selections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    /// The allowed values with their labels.
    pub items: TitledEnumItems,
    /// Default selection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Vec<String>>,
}

/// Deprecated single choice with parallel `enumNames` labels.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "string", rename_all = "camelCase")]
pub struct LegacyTitledEnumSchema {
    /// Field label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Field description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The allowed values.
    pub r#enum: Vec<String>,
    /// Display labels, parallel to `enum`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enum_names: Option<Vec<String>>,
    /// Default value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// One field of an elicitation form (schema `PrimitiveSchemaDefinition`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PrimitiveSchemaDefinition {
    /// Free text.
    String(StringSchema),
    /// A number or integer.
    Number(NumberSchema),
    /// A boolean.
    Boolean(BooleanSchema),
    /// Single choice, plain values.
    UntitledSingleSelectEnum(UntitledSingleSelectEnumSchema),
    /// Single choice, titled values.
    TitledSingleSelectEnum(TitledSingleSelectEnumSchema),
    /// Multiple choice, plain values.
    UntitledMultiSelectEnum(UntitledMultiSelectEnumSchema),
    /// Multiple choice, titled values.
    TitledMultiSelectEnum(TitledMultiSelectEnumSchema),
    /// Deprecated single choice with `enumNames`.
    LegacyTitledEnum(LegacyTitledEnumSchema),
}

impl<'de> Deserialize<'de> for PrimitiveSchemaDefinition {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let obj = object(deserializer)?;
        match str_member(&obj, "type") {
            Some("string") if obj.contains_key("oneOf") => {
                from_object(obj).map(Self::TitledSingleSelectEnum)
            }
            Some("string") if obj.contains_key("enumNames") => {
                from_object(obj).map(Self::LegacyTitledEnum)
            }
            Some("string") if obj.contains_key("enum") => {
                from_object(obj).map(Self::UntitledSingleSelectEnum)
            }
            Some("string") => from_object(obj).map(Self::String),
            Some("number" | "integer") => from_object(obj).map(Self::Number),
            Some("boolean") => from_object(obj).map(Self::Boolean),
            Some("array") => {
                let titled = obj
                    .get("items")
                    .and_then(|items| items.as_object())
                    .is_some_and(|items| items.contains_key("anyOf"));
                if titled {
                    from_object(obj).map(Self::TitledMultiSelectEnum)
                } else {
                    from_object(obj).map(Self::UntitledMultiSelectEnum)
                }
            }
            other => Err(bad_tag("primitive schema", "type", other)),
        }
    }
}
