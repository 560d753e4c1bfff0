//! `$ref` and `allOf`: references resolved inside the document, and
//! `allOf` members flattened into one object where they agree.

use serde_json::{Map, Value};

use super::*;

impl Mapper<'_> {
    pub(super) fn map_ref(&mut self, d: &mut Doc, reference: &str, loc: &Loc) -> Result<Ty, Error> {
        let (target, pointer) = match resolve::resolve(d.root, reference) {
            Ok(found) => found,
            Err(RefProblem::Remote) => {
                return Err(Error::RemoteRef {
                    at: Self::at(d, loc),
                    reference: reference.to_owned(),
                });
            }
            Err(RefProblem::Missing(reason)) => {
                return Err(Error::BadRef {
                    at: Self::at(d, loc),
                    reference: reference.to_owned(),
                    reason,
                });
            }
        };
        if let Some(ty) = d.done.get(&pointer) {
            return Ok(ty.clone());
        }
        if let Some(&id) = d.slots.get(&pointer) {
            if d.entered.get(&id) == Some(&loc.level) {
                return Ok(self.fallback("a reference cycle that never descends into a value"));
            }
            if d.in_progress.contains(&id) {
                d.recursive.insert(id);
                return Ok(if loc.indirect {
                    Ty::Named(id)
                } else {
                    Ty::Boxed(Box::new(Ty::Named(id)))
                });
            }
        }
        let target_loc = Loc {
            pointer: pointer.clone(),
            hint: name_from_pointer(&pointer),
            depth: loc.depth + 1,
            indirect: false,
            level: loc.level,
        };
        let Some(id) = self.reserve_hint(d, &target_loc) else {
            return Ok(Ty::Value);
        };
        d.slots.insert(pointer.clone(), id);
        d.in_progress.insert(id);
        d.entered.insert(id, loc.level);
        let outer_notes = std::mem::take(&mut self.notes);
        let ty = self.map(d, target, &target_loc, Some(id))?;
        let ty = self.finish_slot(d, id, ty, target);
        self.notes = outer_notes;
        d.in_progress.remove(&id);
        d.entered.remove(&id);
        d.done.insert(pointer, ty.clone());
        Ok(ty)
    }

    /// Resolves `schema` to an object schema with `$ref`s followed and
    /// `allOf` merged at the top level.
    pub(super) fn flatten(
        &mut self,
        d: &mut Doc,
        schema: &Value,
        loc: &Loc,
    ) -> Result<Map<String, Value>, Error> {
        d.work += 1;
        if d.work > self.limits.max_work {
            return Err(self.limit(
                d,
                loc,
                "the number of subschemas visited",
                self.limits.max_work,
                "max_work",
            ));
        }
        if loc.depth > self.limits.max_depth {
            // Merged as no constraint: the part beyond the limit is untyped.
            self.over_limit(
                "the nesting depth of `$ref` and `allOf`",
                self.limits.max_depth,
                "max_depth",
            );
            return Ok(Map::new());
        }
        let Some(map) = schema.as_object() else {
            return Ok(Map::new());
        };
        let deeper = Loc {
            depth: loc.depth + 1,
            ..loc.clone()
        };
        let mut out = map.clone();
        let mut parts = Vec::new();
        if let Some(reference) = out.remove("$ref").as_ref().and_then(Value::as_str) {
            let target = match resolve::resolve(d.root, reference) {
                Ok((target, _)) => target,
                Err(RefProblem::Remote) => {
                    return Err(Error::RemoteRef {
                        at: Self::at(d, loc),
                        reference: reference.to_owned(),
                    });
                }
                Err(RefProblem::Missing(reason)) => {
                    return Err(Error::BadRef {
                        at: Self::at(d, loc),
                        reference: reference.to_owned(),
                        reason,
                    });
                }
            };
            parts.push(self.flatten(d, target, &deeper)?);
        }
        if let Some(Value::Array(all_of)) = out.remove("allOf") {
            for part in &all_of {
                parts.push(self.flatten(d, part, &deeper)?);
            }
        }
        for part in &parts {
            merge_into(&mut out, part);
        }
        Ok(out)
    }

    pub(super) fn map_all_of(
        &mut self,
        d: &mut Doc,
        map: &Map<String, Value>,
        all_of: &Value,
        loc: &Loc,
        slot: Option<TypeId>,
    ) -> Result<Ty, Error> {
        let Some(parts) = all_of.as_array() else {
            return Ok(self.fallback("`allOf` is not an array"));
        };
        // `allOf: [{$ref}]` with only annotations beside it is a plain reference.
        if let [only] = parts.as_slice() {
            let plain_ref = only
                .as_object()
                .is_some_and(|o| !has_assertions(o, &["$ref"]));
            if let Some(reference) = only.get("$ref").and_then(Value::as_str)
                && plain_ref
                && !has_assertions(map, &["allOf"])
            {
                return self.map_ref(d, reference, loc);
            }
        }
        let merged = self.flatten(d, &Value::Object(map.clone()), loc)?;
        self.map(
            d,
            &Value::Object(merged),
            &Loc {
                depth: loc.depth + 1,
                ..loc.clone()
            },
            slot,
        )
    }
}
