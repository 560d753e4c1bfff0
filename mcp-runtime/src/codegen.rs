//! Support for the code mcp-codegen generates; not meant to be called by
//! hand (its items change with mcp-codegen's output).
//!
//! A generated struct's `Serialize` impl is a list of its properties handed
//! to [`serialize_struct`], one function shared by every struct, with each
//! value type-erased. serde's derive writes a body per field instead (a
//! branch, two calls and two `?` for each optional one), which in a client
//! for a large server is most of what the crate costs to compile. The
//! output is the same: the properties in order, absent optional ones
//! skipped.
//!
//! A generated internally tagged union's `Serialize` impl maps each variant
//! to a [`Tagged`] (its tag value and its struct) and hands that to
//! [`serialize_tagged`].
//!
//! A generated string enum's `Serialize` impl needs nothing from here: it
//! is one `serialize_str` of the variant's string.
//!
//! A generated client's methods for prompts, resource templates and static
//! resources call `get_prompt`, `read_template` and `read_resource`, and
//! its `verify` calls `verify` when the server has prompts or templates
//! (all with the `client` feature).
//!
//! ```
//! use mcp_toolkit_runtime::codegen::Property::{Optional, Required};
//! use mcp_toolkit_runtime::codegen::serialize_struct;
//! use serde::{Serialize, Serializer};
//!
//! struct Args {
//!     path: String,
//!     depth: Option<u32>,
//! }
//!
//! impl Serialize for Args {
//!     fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
//!         serialize_struct(
//!             serializer,
//!             "Args",
//!             &[Required("path", &self.path), Optional("depth", &self.depth)],
//!         )
//!     }
//! }
//!
//! let args = Args { path: "/tmp".into(), depth: None };
//! assert_eq!(serde_json::to_string(&args).unwrap(), r#"{"path":"/tmp"}"#);
//! ```

#[cfg(feature = "client")]
mod requests;
mod tagged;

use std::collections::BTreeMap;

use erased_serde::Serialize as Erased;
use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

#[cfg(feature = "client")]
pub use requests::{
    Request, get_prompt, prompt_arguments_schema, prompt_fingerprint, read_resource, read_template,
    verify,
};
pub use tagged::{Tagged, serialize_tagged};

/// One property of a generated struct: its name on the wire and its value
/// (a reference, coerced to a trait object where the list is written).
pub enum Property<'a> {
    /// Always written (`null` too, when its type is an `Option`).
    Required(&'static str, &'a dyn Erased),
    /// Written only when `Some` (`Some(None)` of a nullable one is written
    /// as `null`).
    Optional(&'static str, &'a dyn OptionalValue),
}

/// The value of an optional property: an `Option` of anything serializable.
pub trait OptionalValue {
    /// The value when present.
    fn present(&self) -> Option<&dyn Erased>;
}

impl<T: Serialize> OptionalValue for Option<T> {
    fn present(&self) -> Option<&dyn Erased> {
        self.as_ref().map(|value| value as &dyn Erased)
    }
}

impl<'a> Property<'a> {
    /// The name on the wire, and the value unless an optional one is absent.
    fn get(&self) -> (&'static str, Option<&'a dyn Erased>) {
        match *self {
            Property::Required(name, value) => (name, Some(value)),
            Property::Optional(name, value) => (name, value.present()),
        }
    }
}

/// Serializes a struct named `name` with these properties, in order.
pub fn serialize_struct<S: Serializer>(
    serializer: S,
    name: &'static str,
    properties: &[Property<'_>],
) -> Result<S::Ok, S::Error> {
    let present = properties.iter().filter(|p| p.get().1.is_some()).count();
    let mut state = serializer.serialize_struct(name, present)?;
    for property in properties {
        match property.get() {
            (name, Some(value)) => state.serialize_field(name, value)?,
            (name, None) => state.skip_field(name)?,
        }
    }
    state.end()
}

/// Serializes these properties, in order, then the entries of `extra` (the
/// properties beyond the declared ones), as one map: what serde writes for
/// a struct with a `#[serde(flatten)]` map.
pub fn serialize_struct_and_map<S: Serializer, V: Serialize>(
    serializer: S,
    properties: &[Property<'_>],
    extra: &BTreeMap<String, V>,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(None)?;
    for property in properties {
        if let (name, Some(value)) = property.get() {
            map.serialize_entry(name, value)?;
        }
    }
    for (key, value) in extra {
        map.serialize_entry(key, value)?;
    }
    map.end()
}

#[cfg(test)]
mod tests {
    use super::Property::{Optional, Required};
    use super::*;
    use serde_json::json;

    struct Nested {
        inner: Option<Option<i64>>,
        list: Vec<String>,
    }

    impl Serialize for Nested {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serialize_struct(
                serializer,
                "Nested",
                &[Optional("inner", &self.inner), Required("list", &self.list)],
            )
        }
    }

    struct Outer {
        nested: Nested,
        maybe: Option<String>,
        extra: BTreeMap<String, i64>,
    }

    impl Serialize for Outer {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serialize_struct_and_map(
                serializer,
                &[
                    Required("nested", &self.nested),
                    Optional("maybe", &self.maybe),
                ],
                &self.extra,
            )
        }
    }

    #[test]
    fn absent_optionals_are_left_out_and_present_nulls_written() {
        let absent = Nested {
            inner: None,
            list: vec![],
        };
        let null = Nested {
            inner: Some(None),
            list: vec!["a".into()],
        };
        assert_eq!(serde_json::to_value(&absent).unwrap(), json!({"list": []}));
        assert_eq!(
            serde_json::to_value(&null).unwrap(),
            json!({"inner": null, "list": ["a"]})
        );
        // Property order is kept (serde_json's Value would sort; the text does not).
        assert_eq!(
            serde_json::to_string(&null).unwrap(),
            r#"{"inner":null,"list":["a"]}"#
        );
    }

    #[test]
    fn the_extra_map_follows_the_declared_properties() {
        let outer = Outer {
            nested: Nested {
                inner: Some(Some(3)),
                list: vec![],
            },
            maybe: None,
            extra: BTreeMap::from([("z".to_owned(), 1), ("a".to_owned(), 2)]),
        };
        assert_eq!(
            serde_json::to_string(&outer).unwrap(),
            r#"{"nested":{"inner":3,"list":[]},"a":2,"z":1}"#
        );
    }
}
