//! `type`: scalars, arrays, maps and structs (with `additionalProperties`).

use serde_json::{Map, Value};

use super::*;

impl Mapper<'_> {
    pub(super) fn map_untyped(
        &mut self,
        d: &mut Doc,
        map: &Map<String, Value>,
        loc: &Loc,
        slot: Option<TypeId>,
    ) -> Result<Ty, Error> {
        let object_keys = [
            "properties",
            "additionalProperties",
            "patternProperties",
            "required",
        ];
        if object_keys.iter().any(|k| map.contains_key(*k)) {
            return self.map_type(d, map, "object", loc, slot);
        }
        if map.contains_key("items") || map.contains_key("prefixItems") {
            return self.map_type(d, map, "array", loc, slot);
        }
        Ok(Ty::Value)
    }

    pub(super) fn map_type(
        &mut self,
        d: &mut Doc,
        map: &Map<String, Value>,
        ty: &str,
        loc: &Loc,
        slot: Option<TypeId>,
    ) -> Result<Ty, Error> {
        Ok(match ty {
            "string" => Ty::String,
            "boolean" => Ty::Bool,
            "number" => Ty::F64,
            "null" => Ty::Unit,
            "integer" => Ty::Int(int_kind(map)),
            "array" => self.map_array(d, map, loc)?,
            "object" => {
                let is_struct = map.contains_key("properties")
                    || (map.get("additionalProperties") == Some(&Value::Bool(false))
                        && !map.contains_key("patternProperties"));
                let width = map
                    .get("properties")
                    .and_then(Value::as_object)
                    .map_or(0, Map::len);
                if is_struct && self.too_wide("the number of properties", width) {
                    Ty::Value
                } else if is_struct {
                    let id = match slot {
                        Some(id) => id,
                        None => match self.reserve_hint(d, loc) {
                            Some(id) => id,
                            None => return Ok(Ty::Value),
                        },
                    };
                    self.map_object(d, map, loc, id)?;
                    Ty::Named(id)
                } else {
                    let value = self.map_extra(d, map, loc)?;
                    Ty::Map(Box::new(value.unwrap_or(Ty::Value)))
                }
            }
            other => self.fallback(&format!("unknown type `{other}`")),
        })
    }

    pub(super) fn map_array(
        &mut self,
        d: &mut Doc,
        map: &Map<String, Value>,
        loc: &Loc,
    ) -> Result<Ty, Error> {
        if let Some(prefix) = map.get("prefixItems") {
            let Some(prefix) = prefix.as_array() else {
                return Ok(self.fallback("`prefixItems` is not an array"));
            };
            if self.too_wide("the number of tuple items", prefix.len()) {
                return Ok(Ty::Value);
            }
            let len = prefix.len() as u64;
            let closed = map.get("items") == Some(&Value::Bool(false))
                || map
                    .get("maxItems")
                    .and_then(Value::as_u64)
                    .is_some_and(|m| m <= len);
            let complete = map.get("minItems").and_then(Value::as_u64).unwrap_or(0) >= len;
            if !closed || !complete {
                return Ok(self.fallback("a tuple with optional or additional items"));
            }
            let mut items = Vec::with_capacity(prefix.len());
            for (i, item) in prefix.iter().enumerate() {
                let mut child = loc.descend("prefixItems", format!("{}{}", loc.hint, i), false);
                child.pointer = format!("{}/{i}", child.pointer);
                items.push(self.map(d, item, &child, None)?);
            }
            return Ok(Ty::Tuple(items));
        }
        match map.get("items") {
            Some(items) => {
                let child = loc.descend("items", format!("{}Item", loc.hint), true);
                Ok(Ty::Vec(Box::new(self.map(d, items, &child, None)?)))
            }
            None => Ok(Ty::Vec(Box::new(Ty::Value))),
        }
    }

    /// The type of properties beyond the declared ones, if they are allowed
    /// and constrained.
    pub(super) fn map_extra(
        &mut self,
        d: &mut Doc,
        map: &Map<String, Value>,
        loc: &Loc,
    ) -> Result<Option<Ty>, Error> {
        let hint = format!("{}Value", loc.hint);
        let patterns = map.get("patternProperties").and_then(Value::as_object);
        match (map.get("additionalProperties"), patterns) {
            (Some(Value::Object(_)) | None | Some(Value::Bool(true)), Some(p)) if p.len() == 1 => {
                let (pattern, schema) = p.iter().next().expect("one pattern");
                let mut child = loc.descend("patternProperties", hint, true);
                child.pointer = format!("{}/{}", child.pointer, escape_segment(pattern));
                if map
                    .get("additionalProperties")
                    .is_some_and(Value::is_object)
                {
                    self.notes
                        .push("Values of keys outside the pattern are assumed to match it.".into());
                }
                Ok(Some(self.map(d, schema, &child, None)?))
            }
            (_, Some(p)) if !p.is_empty() => Ok(Some(self.fallback("several `patternProperties`"))),
            (Some(ap @ Value::Object(_)), _) => {
                let child = loc.descend("additionalProperties", hint, true);
                Ok(Some(self.map(d, ap, &child, None)?))
            }
            _ => Ok(None),
        }
    }

    pub(super) fn map_object(
        &mut self,
        d: &mut Doc,
        map: &Map<String, Value>,
        loc: &Loc,
        id: TypeId,
    ) -> Result<(), Error> {
        let name = self.types.defs[id].name.clone();
        let empty = Map::new();
        let props = map
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: BTreeSet<&str> = map
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut docs = docs_of(map);
        for note in std::mem::take(&mut self.notes) {
            push_note(&mut docs, note);
        }
        let mut scope = Scope::default();
        let mut fields = Vec::with_capacity(props.len());
        let props_loc = Loc {
            pointer: format!("{}/properties", loc.pointer),
            ..loc.clone()
        };
        for (wire, schema) in props {
            let ident = scope.claim(&snake_ident(wire, "field"), "_");
            let child =
                props_loc.descend(wire, format!("{name}{}", camel_ident(wire, "Field")), false);
            let ty = self.map(d, schema, &child, None)?;
            let mut field_docs = schema.as_object().map(docs_of).unwrap_or_default();
            for note in std::mem::take(&mut self.notes) {
                push_note(&mut field_docs, note);
            }
            if let Some(default) = schema.get("default") {
                let default = serde_json::to_string(default).unwrap_or_default();
                push_note(&mut field_docs, format!("Default: `{default}`."));
            }
            let (ty, presence) = match ty {
                _ if required.contains(wire.as_str()) => (ty, Presence::Required),
                Ty::Option(inner) if schema.get("default") == Some(&Value::Null) => {
                    (*inner, Presence::Optional)
                }
                Ty::Option(inner) => (*inner, Presence::OptionalNullable),
                ty => (ty, Presence::Optional),
            };
            fields.push(Field {
                ident,
                wire: wire.clone(),
                ty,
                presence,
                docs: field_docs,
            });
        }
        let extra = self
            .map_extra(d, map, loc)?
            .map(|ty| (scope.claim("additional_properties", "_"), ty));
        for note in std::mem::take(&mut self.notes) {
            push_note(&mut docs, note);
        }
        let deny_unknown = extra.is_none()
            && (map.get("additionalProperties") == Some(&Value::Bool(false))
                || map.get("unevaluatedProperties") == Some(&Value::Bool(false)));
        self.fill(
            id,
            docs,
            Kind::Struct {
                fields,
                deny_unknown,
                extra,
            },
        );
        Ok(())
    }
}
