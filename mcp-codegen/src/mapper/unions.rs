//! `oneOf` / `anyOf`: tagged enums where a discriminating property exists,
//! untagged ones otherwise, within the width limit.

use serde_json::{Map, Value};

use super::*;

impl Mapper<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn map_union(
        &mut self,
        d: &mut Doc,
        map: &Map<String, Value>,
        base: &Map<String, Value>,
        key: &str,
        members: &[Value],
        loc: &Loc,
        slot: Option<TypeId>,
    ) -> Result<Ty, Error> {
        if self.too_wide("the number of union members", members.len()) {
            return Ok(Ty::Value);
        }
        // Sibling assertions (e.g. a shared `properties`) apply to every member.
        let members: Vec<Value> = if has_assertions(base, &[]) {
            members
                .iter()
                .map(|m| {
                    let mut merged = base.clone();
                    merged.remove("title");
                    merged.remove("description");
                    merged.insert("allOf".into(), Value::Array(vec![m.clone()]));
                    Value::Object(merged)
                })
                .collect()
        } else {
            members.to_vec()
        };
        // Members no value can satisfy (e.g. `type` intersected to nothing
        // by the siblings) are dropped: as untagged variants they could only
        // swallow values meant for others.
        let mut possible = Vec::with_capacity(members.len());
        for member in members {
            let flat = self.flatten(d, &member, loc)?;
            if flat.get("type") != Some(&Value::Array(Vec::new())) {
                possible.push(member);
            }
        }
        let members = possible;
        if members.is_empty() {
            return Ok(self.fallback("no member of the union can be satisfied"));
        }
        if let [only] = members.as_slice() {
            return self.map(
                d,
                only,
                &loc.child(key, loc.hint.clone(), loc.indirect),
                slot,
            );
        }
        if let Some(ty) = self.try_tagged(d, map, key, &members, loc, slot)? {
            return Ok(ty);
        }
        let id = match slot {
            Some(id) => id,
            None => match self.reserve_hint(d, loc) {
                Some(id) => id,
                None => return Ok(Ty::Value),
            },
        };
        let name = self.types.defs[id].name.clone();
        let mut variants: Vec<Ty> = Vec::new();
        let mut notes = Vec::new();
        for (i, member) in members.iter().enumerate() {
            let mut child = loc.child(key, format!("{name}Variant{}", i + 1), false);
            child.pointer = format!("{}/{i}", child.pointer);
            let mark = self.notes.len();
            let ty = self.map(d, member, &child, None)?;
            notes.extend(self.notes.split_off(mark));
            if !variants.contains(&ty) {
                variants.push(ty);
            }
        }
        // Narrow first: primitives by rank, then structs with more required
        // fields (an untagged struct without them would swallow the value).
        variants.sort_by_key(|ty| {
            let (required, fields) = self.struct_size(ty);
            (
                rank(ty),
                std::cmp::Reverse(required),
                std::cmp::Reverse(fields),
            )
        });
        let mut scope = Scope::default();
        let variants = variants
            .into_iter()
            .map(|ty| (scope.claim(&self.variant_name(&ty), ""), ty))
            .collect();
        let mut docs = docs_of(map);
        for note in notes {
            push_note(&mut docs, note);
        }
        self.fill(id, docs, Kind::Untagged(variants));
        Ok(Ty::Named(id))
    }

    /// (required fields, all fields) when `ty` names a struct.
    pub(super) fn struct_size(&self, ty: &Ty) -> (usize, usize) {
        match ty {
            Ty::Named(id) => match &self.types.defs[*id].kind {
                Kind::Struct { fields, .. } => (
                    fields
                        .iter()
                        .filter(|f| f.presence == Presence::Required)
                        .count(),
                    fields.len(),
                ),
                _ => (0, 0),
            },
            Ty::Boxed(inner) => self.struct_size(inner),
            _ => (0, 0),
        }
    }

    pub(super) fn variant_name(&self, ty: &Ty) -> String {
        match ty {
            Ty::Bool => "Bool".into(),
            Ty::Int(_) => "Integer".into(),
            Ty::F64 => "Number".into(),
            Ty::String => "String".into(),
            Ty::Unit => "Null".into(),
            Ty::Value => "Value".into(),
            Ty::Named(id) => self.types.defs[*id].name.clone(),
            Ty::Option(inner) => format!("Optional{}", self.variant_name(inner)),
            Ty::Boxed(inner) => self.variant_name(inner),
            Ty::Vec(_) => "Array".into(),
            Ty::Map(_) => "Object".into(),
            Ty::Tuple(_) => "Tuple".into(),
        }
    }

    /// An internally tagged enum, when every member is an object with a
    /// required property whose `const` (or one-value `enum`) string differs.
    pub(super) fn try_tagged(
        &mut self,
        d: &mut Doc,
        map: &Map<String, Value>,
        key: &str,
        members: &[Value],
        loc: &Loc,
        slot: Option<TypeId>,
    ) -> Result<Option<Ty>, Error> {
        let mut flat = Vec::with_capacity(members.len());
        for member in members {
            let m = self.flatten(d, member, loc)?;
            let width = m.get("properties").and_then(Value::as_object).map(Map::len);
            // A payload too wide for a struct is left to the untagged form,
            // which degrades that member alone.
            if width.is_none_or(|w| w > self.limits.max_width) {
                return Ok(None);
            }
            flat.push(m);
        }
        let tag_of = |m: &Map<String, Value>, prop: &str| -> Option<String> {
            let required = m.get("required")?.as_array()?;
            if !required.iter().any(|r| r.as_str() == Some(prop)) {
                return None;
            }
            let schema = m.get("properties")?.get(prop)?;
            match (schema.get("const"), schema.get("enum")) {
                (Some(Value::String(s)), _) => Some(s.clone()),
                (None, Some(Value::Array(one))) if one.len() == 1 => {
                    one[0].as_str().map(str::to_owned)
                }
                _ => None,
            }
        };
        let candidates: Vec<String> = flat[0]
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let Some((tag, values)) = candidates.into_iter().find_map(|prop| {
            let values: Option<Vec<String>> = flat.iter().map(|m| tag_of(m, &prop)).collect();
            let values = values?;
            let distinct: BTreeSet<&String> = values.iter().collect();
            (distinct.len() == values.len()).then_some((prop, values))
        }) else {
            return Ok(None);
        };
        // The enum and every payload need a slot; without room for all of
        // them, the untagged form degrades member by member instead.
        if self.types_left(d) <= flat.len() {
            return Ok(None);
        }
        let id = slot.unwrap_or_else(|| {
            let name = self.claim_name(&loc.hint);
            self.reserve(name)
        });
        let name = self.types.defs[id].name.clone();
        let mut scope = Scope::default();
        let mut variants = Vec::new();
        for (i, (mut member, value)) in flat.into_iter().zip(values).enumerate() {
            let ident = scope.claim(&camel_ident(&value, "Variant"), "");
            let docs = docs_of(&member);
            if let Some(Value::Object(props)) = member.get_mut("properties") {
                props.remove(&tag);
            }
            if let Some(Value::Array(required)) = member.get_mut("required") {
                required.retain(|r| r.as_str() != Some(tag.as_str()));
            }
            let empty = member
                .get("properties")
                .and_then(Value::as_object)
                .is_none_or(Map::is_empty)
                && !member
                    .get("additionalProperties")
                    .is_some_and(Value::is_object);
            let payload = if empty {
                None
            } else {
                let hint = members[i]
                    .get("$ref")
                    .and_then(Value::as_str)
                    .map(|r| name_from_pointer(r.rsplit_once('#').map_or(r, |(_, f)| f)))
                    .unwrap_or_else(|| format!("{name}{ident}"));
                let mut child = loc.child(key, hint, false);
                child.pointer = format!("{}/{i}", child.pointer);
                member.remove("title");
                member.remove("description");
                // Counted above; types nested in earlier payloads may have
                // used that room, so this can overrun `max_types` by at most
                // the member count.
                let payload_name = self.claim_name(&child.hint);
                let payload_id = self.reserve(payload_name);
                self.map_object(d, &member, &child, payload_id)?;
                Some(payload_id)
            };
            variants.push(TaggedVariant {
                ident,
                tag_value: value,
                payload,
                docs,
            });
        }
        self.fill(id, docs_of(map), Kind::Tagged { tag, variants });
        Ok(Some(Ty::Named(id)))
    }
}
