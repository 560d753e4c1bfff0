//! JSON-RPC request ids: strings or integers, echoed exactly.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A request id. MCP allows strings and integers only (never `null`,
/// booleans or fractions); integers keep their full 64-bit value so that ids
/// beyond 2^53 come back unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RequestId {
    /// A signed integer id.
    Int(i64),
    /// An unsigned integer id above `i64::MAX`.
    UInt(u64),
    /// A string id.
    String(String),
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Int(n) => write!(f, "{n}"),
            RequestId::UInt(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

impl From<i64> for RequestId {
    fn from(n: i64) -> Self {
        RequestId::Int(n)
    }
}

impl From<&str> for RequestId {
    fn from(s: &str) -> Self {
        RequestId::String(s.to_owned())
    }
}

impl Serialize for RequestId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RequestId::Int(n) => serializer.serialize_i64(*n),
            RequestId::UInt(n) => serializer.serialize_u64(*n),
            RequestId::String(s) => serializer.serialize_str(s),
        }
    }
}

impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;

        impl Visitor<'_> for IdVisitor {
            type Value = RequestId;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string or an integer")
            }

            fn visit_i64<E: de::Error>(self, n: i64) -> Result<RequestId, E> {
                Ok(RequestId::Int(n))
            }

            fn visit_u64<E: de::Error>(self, n: u64) -> Result<RequestId, E> {
                Ok(i64::try_from(n).map_or(RequestId::UInt(n), RequestId::Int))
            }

            fn visit_str<E: de::Error>(self, s: &str) -> Result<RequestId, E> {
                Ok(RequestId::String(s.to_owned()))
            }

            fn visit_string<E: de::Error>(self, s: String) -> Result<RequestId, E> {
                Ok(RequestId::String(s))
            }
        }

        deserializer.deserialize_any(IdVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_beyond_2_pow_53_round_trip_exactly() {
        for text in [
            "9007199254740993",
            "18446744073709551615",
            "-9223372036854775808",
        ] {
            let id: RequestId = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&id).unwrap(), text);
        }
    }

    #[test]
    fn strings_round_trip() {
        let id: RequestId = serde_json::from_str(r#""a\"b""#).unwrap();
        assert_eq!(id, RequestId::String("a\"b".into()));
        assert_eq!(serde_json::to_string(&id).unwrap(), r#""a\"b""#);
    }

    #[test]
    fn null_bool_and_fractions_are_rejected() {
        for text in ["null", "true", "1.5", "1e3", "[]", "{}"] {
            assert!(
                serde_json::from_str::<RequestId>(text).is_err(),
                "{text} accepted"
            );
        }
    }
}
