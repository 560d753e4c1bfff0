//! The value of a template variable (RFC 6570 section 2.3).

/// A variable's value: a string, a list, or an associative array (ordered
/// pairs). An empty list or array counts as undefined, like a missing one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A plain string.
    String(String),
    /// A list of strings.
    List(Vec<String>),
    /// An associative array of `(name, value)` pairs, in order.
    Assoc(Vec<(String, String)>),
}

impl Value {
    /// Whether the value takes part in an expansion (RFC 6570 section 2.3).
    pub fn is_defined(&self) -> bool {
        match self {
            Value::String(_) => true,
            Value::List(items) => !items.is_empty(),
            Value::Assoc(pairs) => !pairs.is_empty(),
        }
    }

    /// The value as one string: a list's items or an array's names and
    /// values joined by `,`, the way a non-exploded expansion writes them.
    pub fn into_flat_string(self) -> String {
        match self {
            Value::String(text) => text,
            Value::List(items) => items.join(","),
            Value::Assoc(pairs) => pairs
                .into_iter()
                .flat_map(|(name, value)| [name, value])
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::String(text.to_owned())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Value::String(text)
    }
}

impl From<Vec<String>> for Value {
    fn from(items: Vec<String>) -> Self {
        Value::List(items)
    }
}

impl From<Vec<(String, String)>> for Value {
    fn from(pairs: Vec<(String, String)>) -> Self {
        Value::Assoc(pairs)
    }
}
