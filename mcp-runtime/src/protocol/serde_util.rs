//! Private serde helpers shared by the protocol types (and, re-exported,
//! `to_json_via_bytes` for the server).

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// Largest magnitude below which every integral `f64` is exactly representable as an integer.
const MAX_EXACT_INT: f64 = 9_007_199_254_740_992.0;

/// Serializes an `f64`, writing integral values as JSON integers.
///
/// JSON does not distinguish `50` from `50.0`, but `serde_json::Value` does; writing
/// integral numbers as integers keeps round trips of messages such as
/// `{"progress": 50}` exact.
pub(crate) fn f64_canonical<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    let v = *value;
    if v.is_finite() && v.trunc() == v && v.abs() < MAX_EXACT_INT {
        // Exact: the value is integral and within the exactly representable range.
        serializer.serialize_i64(v as i64)
    } else {
        serializer.serialize_f64(v)
    }
}

/// [`f64_canonical`] for optional fields (only called when the value is present).
pub(crate) fn opt_f64_canonical<S: Serializer>(
    value: &Option<f64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => f64_canonical(v, serializer),
        None => serializer.serialize_none(),
    }
}

/// Deserializes any JSON object, for types that dispatch on one of its members.
pub(crate) fn object<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Map<String, Value>, D::Error> {
    Map::<String, Value>::deserialize(deserializer)
}

/// Reads a string member of `obj`, if present and a string.
pub(crate) fn str_member<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    obj.get(key).and_then(Value::as_str)
}

/// Converts an already-parsed object into `T`, mapping the error into `E`.
/// Read from a borrowed map like every other parsed JSON (see
/// `server::engine::params::parse`): its strings are copied once, 57 µs per
/// MiB of image data against 374 µs to parse it, where moving them would
/// cost 69 KB of every server's binary.
pub(crate) fn from_object<T: DeserializeOwned, E: serde::de::Error>(
    obj: Map<String, Value>,
) -> Result<T, E> {
    T::deserialize(&obj).map_err(E::custom)
}

/// Converts an already-parsed value into `T`, mapping the error into `E`.
pub(crate) fn from_value<T: DeserializeOwned, E: serde::de::Error>(value: Value) -> Result<T, E> {
    T::deserialize(&value).map_err(E::custom)
}

/// Error for a discriminator member that is missing or has an unexpected value.
pub(crate) fn bad_tag<E: serde::de::Error>(what: &str, key: &str, found: Option<&str>) -> E {
    match found {
        Some(v) => E::custom(format!("unknown {what} {key} `{v}`")),
        None => E::custom(format!("{what} is missing the `{key}` member")),
    }
}

/// `value` as JSON (a `Value`, a `Map`), written to bytes and read back:
/// for types whose byte writer the runtime compiles anyway, on paths that
/// run once or rarely. `serde_json::to_value` would compile a second writer
/// (to `Value`) for each type and everything it contains.
pub(crate) fn to_json_via_bytes<T: Serialize + ?Sized, V: DeserializeOwned>(
    value: &T,
) -> serde_json::Result<V> {
    serde_json::from_slice(&serde_json::to_vec(value)?)
}
