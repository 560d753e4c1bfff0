//! The intermediate representation between schema mapping and emitting:
//! Rust types described as data, with names already final and unique.

/// Index of a named type in [`Types`].
pub type TypeId = usize;

/// The integer type chosen from a schema's bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int {
    /// `i8`
    I8,
    /// `i16`
    I16,
    /// `i32`
    I32,
    /// `i64`
    I64,
    /// `u8`
    U8,
    /// `u16`
    U16,
    /// `u32`
    U32,
    /// `u64`
    U64,
}

/// A Rust type expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// `bool`
    Bool,
    /// An integer type.
    Int(Int),
    /// `f64`
    F64,
    /// `String`
    String,
    /// `()`, which serde writes as `null`.
    Unit,
    /// `serde_json::Value`: anything.
    Value,
    /// A generated named type.
    Named(TypeId),
    /// `Option<T>`: the value may be `null`.
    Option(Box<Ty>),
    /// `Vec<T>`
    Vec(Box<Ty>),
    /// `BTreeMap<String, T>`
    Map(Box<Ty>),
    /// `(A, B, ...)`
    Tuple(Vec<Ty>),
    /// `Box<T>`, breaking a recursive cycle.
    Boxed(Box<Ty>),
}

/// How a struct field is present on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Required: the type is used as is.
    Required,
    /// Optional: `Option<T>`, absent when `None`.
    Optional,
    /// Optional and nullable, with absent and `null` distinct:
    /// `Option<Option<T>>` (absent, `null`, value).
    OptionalNullable,
}

/// A struct field.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The Rust identifier (possibly `r#`-prefixed).
    pub ident: String,
    /// The property name on the wire.
    pub wire: String,
    /// The field's type, without the `Option` that [`Presence`] adds.
    pub ty: Ty,
    /// How the field is present on the wire.
    pub presence: Presence,
    /// Documentation lines.
    pub docs: Vec<String>,
}

/// A variant of an internally tagged enum.
#[derive(Debug, Clone, PartialEq)]
pub struct TaggedVariant {
    /// The Rust identifier.
    pub ident: String,
    /// The tag value on the wire.
    pub tag_value: String,
    /// The struct holding the variant's other properties; `None` for a
    /// variant with no other properties.
    pub payload: Option<TypeId>,
    /// Documentation lines.
    pub docs: Vec<String>,
}

/// What a named type is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A struct with named fields.
    Struct {
        /// The fields, in schema order.
        fields: Vec<Field>,
        /// `additionalProperties: false`.
        deny_unknown: bool,
        /// A flattened map catching further properties: (field ident, value type).
        extra: Option<(String, Ty)>,
    },
    /// A `#[serde(transparent)]` newtype struct (used for recursive aliases).
    Newtype(Ty),
    /// A type alias.
    Alias(Ty),
    /// A fieldless enum over string values: (variant ident, wire value).
    StringEnum(Vec<(String, String)>),
    /// A fieldless enum over integer values: (variant ident, wire value).
    IntEnum(Vec<(String, i64)>),
    /// An internally tagged enum.
    Tagged {
        /// The discriminating property.
        tag: String,
        /// The variants.
        variants: Vec<TaggedVariant>,
    },
    /// An untagged enum: (variant ident, payload type), tried in order.
    Untagged(Vec<(String, Ty)>),
}

/// A named type.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    /// The Rust identifier.
    pub name: String,
    /// Documentation lines.
    pub docs: Vec<String>,
    /// What it is.
    pub kind: Kind,
}

/// All named types of one generated module, in emission order. A slot is
/// reserved (with its final name) before it is filled, so recursion can
/// refer to a type still being built.
#[derive(Debug, Default)]
pub struct Types {
    /// The named types, indexed by [`TypeId`].
    pub defs: Vec<TypeDef>,
}
