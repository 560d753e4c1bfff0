//! Internally tagged unions: the tag first, then the variant's own
//! properties, as serde's `#[serde(tag = "...")]` writes them, from one
//! shared function instead of a derived body per variant (for a union of a
//! thousand variants, most of what its crate costs to check).

use erased_serde::Serialize as Erased;
use serde::ser::{Error as _, Impossible, Serialize, SerializeMap, SerializeStruct, Serializer};

/// A variant of an internally tagged union: its tag value and, unless the
/// tag is all it has, the struct of its other properties.
pub struct Tagged<'a>(pub &'static str, pub Option<&'a dyn Erased>);

/// Writes `variant` as one object: `tag_field` set to its tag, followed by
/// the properties of its struct. The struct must serialize as an object
/// (generated structs always do).
pub fn serialize_tagged<S: Serializer>(
    serializer: S,
    tag_field: &'static str,
    variant: Tagged<'_>,
) -> Result<S::Ok, S::Error> {
    let Tagged(tag, content) = variant;
    let mut map = serializer.serialize_map(None)?;
    map.serialize_entry(tag_field, tag)?;
    if let Some(content) = content {
        content.serialize(Flatten(&mut map))?;
    }
    map.end()
}

/// A serializer that writes an object's entries into a map already open,
/// and refuses anything that is not an object.
struct Flatten<'a, M>(&'a mut M);

impl<M: SerializeMap> Flatten<'_, M> {
    fn refuse(what: &str) -> M::Error {
        M::Error::custom(format!(
            "a tagged union's variant must be an object, not {what}"
        ))
    }
}

impl<'a, M: SerializeMap> Serializer for Flatten<'a, M> {
    type Ok = ();
    type Error = M::Error;
    type SerializeSeq = Impossible<(), M::Error>;
    type SerializeTuple = Impossible<(), M::Error>;
    type SerializeTupleStruct = Impossible<(), M::Error>;
    type SerializeTupleVariant = Impossible<(), M::Error>;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), M::Error>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, M::Error> {
        Ok(self)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self, M::Error> {
        Ok(self)
    }

    fn serialize_bool(self, _: bool) -> Result<(), M::Error> {
        Err(Self::refuse("a boolean"))
    }

    fn serialize_i64(self, _: i64) -> Result<(), M::Error> {
        Err(Self::refuse("a number"))
    }

    fn serialize_u64(self, _: u64) -> Result<(), M::Error> {
        Err(Self::refuse("a number"))
    }

    fn serialize_f64(self, _: f64) -> Result<(), M::Error> {
        Err(Self::refuse("a number"))
    }

    // The narrower integer and float widths, and `char`, all widen to the
    // refusals above.
    fn serialize_i8(self, v: i8) -> Result<(), M::Error> {
        self.serialize_i64(v.into())
    }

    fn serialize_i16(self, v: i16) -> Result<(), M::Error> {
        self.serialize_i64(v.into())
    }

    fn serialize_i32(self, v: i32) -> Result<(), M::Error> {
        self.serialize_i64(v.into())
    }

    fn serialize_u8(self, v: u8) -> Result<(), M::Error> {
        self.serialize_u64(v.into())
    }

    fn serialize_u16(self, v: u16) -> Result<(), M::Error> {
        self.serialize_u64(v.into())
    }

    fn serialize_u32(self, v: u32) -> Result<(), M::Error> {
        self.serialize_u64(v.into())
    }

    fn serialize_f32(self, v: f32) -> Result<(), M::Error> {
        self.serialize_f64(v.into())
    }

    fn serialize_char(self, _: char) -> Result<(), M::Error> {
        Err(Self::refuse("a string"))
    }

    fn serialize_str(self, _: &str) -> Result<(), M::Error> {
        Err(Self::refuse("a string"))
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<(), M::Error> {
        Err(Self::refuse("bytes"))
    }

    fn serialize_none(self) -> Result<(), M::Error> {
        Err(Self::refuse("null"))
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), M::Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), M::Error> {
        Err(Self::refuse("null"))
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), M::Error> {
        Err(Self::refuse("null"))
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<(), M::Error> {
        Err(Self::refuse("a string"))
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), M::Error> {
        Err(Self::refuse("an enum variant"))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, M::Error> {
        Err(Self::refuse("an array"))
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, M::Error> {
        Err(Self::refuse("an array"))
    }

    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, M::Error> {
        Err(Self::refuse("an array"))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, M::Error> {
        Err(Self::refuse("an enum variant"))
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, M::Error> {
        Err(Self::refuse("an enum variant"))
    }
}

impl<M: SerializeMap> SerializeStruct for Flatten<'_, M> {
    type Ok = ();
    type Error = M::Error;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        self.0.serialize_entry(key, value)
    }

    fn end(self) -> Result<(), M::Error> {
        Ok(())
    }
}

impl<M: SerializeMap> SerializeMap for Flatten<'_, M> {
    type Ok = ();
    type Error = M::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), M::Error> {
        self.0.serialize_key(key)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), M::Error> {
        self.0.serialize_value(value)
    }

    fn end(self) -> Result<(), M::Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::super::Property::{Optional, Required};
    use super::super::{serialize_struct, serialize_struct_and_map};
    use super::*;

    struct Circle {
        radius: f64,
        label: Option<String>,
    }

    impl Serialize for Circle {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serialize_struct(
                serializer,
                "Circle",
                &[
                    Required("radius", &self.radius),
                    Optional("label", &self.label),
                ],
            )
        }
    }

    struct Open {
        extra: BTreeMap<String, i64>,
    }

    impl Serialize for Open {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serialize_struct_and_map(serializer, &[], &self.extra)
        }
    }

    enum Shape {
        Circle(Circle),
        Open(Open),
        Point,
        Number(i64),
    }

    impl Serialize for Shape {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let variant = match self {
                Shape::Circle(content) => Tagged("circle", Some(content)),
                Shape::Open(content) => Tagged("open", Some(content)),
                Shape::Point => Tagged("point", None),
                Shape::Number(content) => Tagged("number", Some(content)),
            };
            serialize_tagged(serializer, "kind", variant)
        }
    }

    #[test]
    fn the_tag_comes_first_then_the_variants_properties() {
        let circle = Shape::Circle(Circle {
            radius: 2.0,
            label: None,
        });
        assert_eq!(
            serde_json::to_string(&circle).unwrap(),
            r#"{"kind":"circle","radius":2.0}"#
        );
        let open = Shape::Open(Open {
            extra: BTreeMap::from([("a".to_owned(), 1)]),
        });
        assert_eq!(
            serde_json::to_value(&open).unwrap(),
            json!({"kind": "open", "a": 1})
        );
        assert_eq!(
            serde_json::to_string(&Shape::Point).unwrap(),
            r#"{"kind":"point"}"#
        );
    }

    #[test]
    fn a_variant_that_is_not_an_object_is_an_error() {
        let error = serde_json::to_string(&Shape::Number(3)).unwrap_err();
        assert!(error.to_string().contains("must be an object"), "{error}");
    }
}
