//! `const` and `enum`: Rust enums of the listed values.

use serde_json::{Map, Value};

use super::*;

impl Mapper<'_> {
    pub(super) fn map_const(
        &mut self,
        d: &mut Doc,
        map: &Map<String, Value>,
        value: &Value,
        loc: &Loc,
        slot: Option<TypeId>,
    ) -> Result<Ty, Error> {
        match value {
            Value::String(_) | Value::Number(_) => {
                self.map_enum(d, map, &Value::Array(vec![value.clone()]), loc, slot)
            }
            Value::Bool(b) => {
                self.notes.push(format!("Always `{b}`."));
                Ok(Ty::Bool)
            }
            Value::Null => Ok(Ty::Unit),
            _ => Ok(self.fallback("`const` of an array or object")),
        }
    }

    pub(super) fn map_enum(
        &mut self,
        d: &mut Doc,
        map: &Map<String, Value>,
        values: &Value,
        loc: &Loc,
        slot: Option<TypeId>,
    ) -> Result<Ty, Error> {
        let Some(values) = values.as_array() else {
            return Ok(self.fallback("`enum` is not an array"));
        };
        if self.too_wide("the number of enum values", values.len()) {
            return Ok(Ty::Value);
        }
        let mut unique: Vec<&Value> = Vec::new();
        for v in values {
            if !unique.contains(&v) {
                unique.push(v);
            }
        }
        let docs = docs_of(map);
        if unique.is_empty() {
            return Ok(self.fallback("`enum` is empty, no value is valid"));
        }
        if unique.iter().all(|v| v.is_boolean()) {
            return Ok(Ty::Bool);
        }
        if unique.iter().all(|v| v.is_null()) {
            return Ok(Ty::Unit);
        }
        if let Some(strings) = unique
            .iter()
            .map(|v| v.as_str())
            .collect::<Option<Vec<_>>>()
        {
            let id = match slot {
                Some(id) => id,
                None => match self.reserve_hint(d, loc) {
                    Some(id) => id,
                    None => return Ok(Ty::Value),
                },
            };
            let mut scope = Scope::default();
            let variants = strings
                .iter()
                .map(|s| (scope.claim(&camel_ident(s, "Value"), ""), (*s).to_owned()))
                .collect();
            self.fill(id, docs, Kind::StringEnum(variants));
            return Ok(Ty::Named(id));
        }
        if let Some(ints) = unique
            .iter()
            .map(|v| v.as_i64())
            .collect::<Option<Vec<_>>>()
        {
            let id = match slot {
                Some(id) => id,
                None => match self.reserve_hint(d, loc) {
                    Some(id) => id,
                    None => return Ok(Ty::Value),
                },
            };
            let mut scope = Scope::default();
            let variants = ints
                .iter()
                .map(|n| {
                    let ident = if *n < 0 {
                        format!("Minus{}", n.unsigned_abs())
                    } else {
                        format!("V{n}")
                    };
                    (scope.claim(&ident, "_"), *n)
                })
                .collect();
            self.fill(id, docs, Kind::IntEnum(variants));
            return Ok(Ty::Named(id));
        }
        Ok(self.fallback("`enum` mixes values of different kinds"))
    }
}
