//! JSON Schema 2020-12 -> Rust types ([`crate::ir`]). One [`Mapper`] serves
//! a whole generated module (type names are unique across it); each tool
//! schema is mapped as its own document (its `$ref`s resolve inside it).
//!
//! Whatever cannot be typed becomes `serde_json::Value` with a note in the
//! docs saying why; hostile input ends in an [`Error`], never a panic.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::error::{At, Error};
use crate::ir::{Field, Int, Kind, Presence, TaggedVariant, Ty, TypeDef, TypeId, Types};
use crate::naming::{Scope, camel_ident, snake_ident};
use crate::options::Limits;
use crate::resolve::{self, RefProblem, escape_segment, has_assertions, merge_into};

/// Maps schemas to named Rust types, accumulating them.
pub struct Mapper<'l> {
    /// The named types generated so far.
    pub types: Types,
    /// Type names taken in the module.
    names: Scope,
    limits: &'l Limits,
    /// Slots reserved but not yet filled.
    pending: BTreeSet<TypeId>,
    /// Fallback notes not yet attached to a field or type.
    notes: Vec<String>,
}

/// Per-document state.
struct Doc<'d> {
    root: &'d Value,
    tool: String,
    schema: &'static str,
    /// Slot of the named type for a `$ref` target, by JSON pointer.
    slots: BTreeMap<String, TypeId>,
    /// The type a finished `$ref` target maps to, by JSON pointer.
    done: BTreeMap<String, Ty>,
    in_progress: BTreeSet<TypeId>,
    /// The descent level at which each in-progress slot was entered.
    entered: BTreeMap<TypeId, usize>,
    /// Slots referenced while still being built.
    recursive: BTreeSet<TypeId>,
    work: usize,
    types_at_start: usize,
}

/// Where the mapper is in a document.
#[derive(Clone)]
struct Loc {
    pointer: String,
    hint: String,
    depth: usize,
    /// Behind a `Vec`/`BTreeMap`, so a recursive reference needs no `Box`.
    indirect: bool,
    /// How many times the path descended into a value (property, item,
    /// map value); a reference cycle that never descends has no structure.
    level: usize,
}

impl Loc {
    fn child(&self, segment: &str, hint: String, indirect: bool) -> Loc {
        Loc {
            pointer: format!("{}/{}", self.pointer, escape_segment(segment)),
            hint,
            depth: self.depth + 1,
            indirect,
            level: self.level,
        }
    }

    /// A child that descends into the value (a property, item or map value).
    fn descend(&self, segment: &str, hint: String, indirect: bool) -> Loc {
        Loc {
            level: self.level + 1,
            ..self.child(segment, hint, indirect)
        }
    }
}

fn docs_of(map: &Map<String, Value>) -> Vec<String> {
    let mut docs = Vec::new();
    for key in ["title", "description"] {
        if let Some(text) = map.get(key).and_then(Value::as_str) {
            if !docs.is_empty() {
                docs.push(String::new());
            }
            docs.extend(text.lines().map(str::to_owned));
        }
    }
    if map.get("deprecated") == Some(&Value::Bool(true)) {
        push_note(&mut docs, "Deprecated.".to_owned());
    }
    docs
}

fn push_note(docs: &mut Vec<String>, note: String) {
    if !docs.is_empty() {
        docs.push(String::new());
    }
    docs.push(note);
}

fn types_of(map: &Map<String, Value>) -> Vec<&str> {
    match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn is_null_schema(v: &Value) -> bool {
    v.get("type").and_then(Value::as_str) == Some("null")
        || v.get("const") == Some(&Value::Null)
        || v.get("enum") == Some(&Value::Array(vec![Value::Null]))
}

/// Rank for ordering untagged variants so narrower types are tried first
/// (`null` before anything, integers before floats, `Value` last).
fn rank(ty: &Ty) -> u8 {
    match ty {
        Ty::Unit => 0,
        Ty::Bool => 1,
        Ty::Int(_) => 2,
        Ty::F64 => 3,
        Ty::String => 4,
        Ty::Value => 9,
        Ty::Boxed(inner) | Ty::Option(inner) => rank(inner),
        _ => 5,
    }
}

impl<'l> Mapper<'l> {
    /// A mapper whose type names avoid `reserved`.
    pub fn new(limits: &'l Limits, reserved: &[&str]) -> Self {
        Mapper {
            types: Types::default(),
            names: Scope::with_reserved(reserved),
            limits,
            pending: BTreeSet::new(),
            notes: Vec::new(),
        }
    }

    /// Claims a unique type name derived from `hint`.
    pub fn claim_name(&mut self, hint: &str) -> String {
        self.names.claim(&camel_ident(hint, "T"), "")
    }

    fn reserve(&mut self, name: String) -> TypeId {
        self.types.defs.push(TypeDef {
            name,
            docs: Vec::new(),
            kind: Kind::Alias(Ty::Value),
        });
        let id = self.types.defs.len() - 1;
        self.pending.insert(id);
        id
    }

    /// How many more named types this document may generate.
    fn types_left(&self, d: &Doc) -> usize {
        let used = self.types.defs.len() - d.types_at_start;
        self.limits.max_types.saturating_sub(used)
    }

    /// A slot named after `loc`'s hint; `None` (with a note) when the
    /// document has generated `max_types` already, so the caller degrades
    /// to `serde_json::Value`.
    fn reserve_hint(&mut self, d: &Doc, loc: &Loc) -> Option<TypeId> {
        if self.types_left(d) == 0 {
            self.over_limit(
                "the number of generated types",
                self.limits.max_types,
                "max_types",
            );
            return None;
        }
        let name = self.claim_name(&loc.hint);
        Some(self.reserve(name))
    }

    fn fill(&mut self, id: TypeId, docs: Vec<String>, kind: Kind) {
        self.pending.remove(&id);
        let def = &mut self.types.defs[id];
        def.docs = docs;
        def.kind = kind;
    }

    fn at(d: &Doc, loc: &Loc) -> At {
        At {
            tool: d.tool.clone(),
            schema: d.schema,
            pointer: loc.pointer.clone(),
        }
    }

    fn limit(
        &self,
        d: &Doc,
        loc: &Loc,
        what: &'static str,
        limit: usize,
        field: &'static str,
    ) -> Error {
        Error::Limit {
            at: Self::at(d, loc),
            what,
            limit,
            field,
        }
    }

    fn fallback(&mut self, why: &str) -> Ty {
        let note = format!("Untyped (`serde_json::Value`): {why}.");
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
        Ty::Value
    }

    /// `serde_json::Value` for the part of a schema beyond a limit, with a
    /// note naming the limit: limits degrade a legitimate schema, they never
    /// refuse it (only `max_work`, the bound against expansion bombs, does).
    fn over_limit(&mut self, what: &str, limit: usize, field: &str) -> Ty {
        self.fallback(&format!(
            "{what} exceeds the limit of {limit} (`Limits::{field}`)"
        ))
    }

    /// Whether `len` members, values or properties exceed `max_width`
    /// (noted, so the caller degrades to `serde_json::Value`).
    fn too_wide(&mut self, what: &str, len: usize) -> bool {
        let wide = len > self.limits.max_width;
        if wide {
            self.over_limit(what, self.limits.max_width, "max_width");
        }
        wide
    }

    /// Maps one tool schema (a whole document) into the type named `name`.
    pub fn map_document(
        &mut self,
        tool: &str,
        schema: &'static str,
        root: &Value,
        name: String,
    ) -> Result<TypeId, Error> {
        let mut d = Doc {
            root,
            tool: tool.to_owned(),
            schema,
            slots: BTreeMap::new(),
            done: BTreeMap::new(),
            in_progress: BTreeSet::new(),
            entered: BTreeMap::new(),
            recursive: BTreeSet::new(),
            work: 0,
            types_at_start: self.types.defs.len(),
        };
        let loc = Loc {
            pointer: String::new(),
            hint: name.clone(),
            depth: 0,
            indirect: false,
            level: 0,
        };
        let id = self.reserve(name);
        d.slots.insert(String::new(), id);
        d.in_progress.insert(id);
        d.entered.insert(id, 0);
        self.notes.clear();
        let ty = self.map(&mut d, root, &loc, Some(id))?;
        self.finish_slot(&d, id, ty, root);
        Ok(id)
    }

    /// Fills a `$ref` target's or root's slot if mapping did not: with an
    /// alias, or a newtype when the target refers to itself.
    fn finish_slot(&mut self, d: &Doc, id: TypeId, ty: Ty, schema: &Value) -> Ty {
        if !self.pending.contains(&id) {
            return ty;
        }
        let mut docs = schema.as_object().map(docs_of).unwrap_or_default();
        for note in std::mem::take(&mut self.notes) {
            push_note(&mut docs, note);
        }
        let kind = if d.recursive.contains(&id) || d.slots.get("") == Some(&id) {
            Kind::Newtype(ty)
        } else {
            Kind::Alias(ty)
        };
        self.fill(id, docs, kind);
        Ty::Named(id)
    }

    fn map(
        &mut self,
        d: &mut Doc,
        schema: &Value,
        loc: &Loc,
        slot: Option<TypeId>,
    ) -> Result<Ty, Error> {
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
            return Ok(self.over_limit("the nesting depth", self.limits.max_depth, "max_depth"));
        }
        let map = match schema {
            Value::Bool(true) => return Ok(Ty::Value),
            Value::Bool(false) => {
                return Ok(self.fallback("the schema is `false`, no value is valid"));
            }
            Value::Object(map) => map,
            _ => return Ok(self.fallback("the schema is neither an object nor a boolean")),
        };
        if let Some(reference) = map.get("$ref").or_else(|| map.get("$dynamicRef")) {
            let Some(reference) = reference.as_str() else {
                return Ok(self.fallback("`$ref` is not a string"));
            };
            if !has_assertions(map, &["$ref", "$dynamicRef"]) {
                return self.map_ref(d, reference, loc);
            }
            let mut rest = map.clone();
            let target = rest.remove("$ref").or_else(|| rest.remove("$dynamicRef"));
            let all_of = vec![Value::Object(Map::from_iter([(
                "$ref".to_owned(),
                target.unwrap_or_default(),
            )]))];
            rest.insert("allOf".to_owned(), Value::Array(all_of));
            return self.map(d, &Value::Object(rest), loc, slot);
        }
        if let Some(all_of) = map.get("allOf") {
            return self.map_all_of(d, map, all_of, loc, slot);
        }
        if let Some(inner) = self.strip_null(map) {
            let ty = self.map(d, &Value::Object(inner), loc, slot)?;
            return Ok(match ty {
                Ty::Option(_) | Ty::Unit | Ty::Value => ty,
                ty => Ty::Option(Box::new(ty)),
            });
        }
        for unsupported in [
            "not",
            "if",
            "dependentSchemas",
            "dependentRequired",
            "unevaluatedItems",
        ] {
            if map.contains_key(unsupported) {
                self.notes.push(format!(
                    "`{unsupported}` in the schema is not checked by this type."
                ));
            }
        }
        if let Some(value) = map.get("const") {
            return self.map_const(d, map, value, loc, slot);
        }
        if let Some(values) = map.get("enum") {
            return self.map_enum(d, map, values, loc, slot);
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(members) = map.get(key) {
                let Some(members) = members.as_array() else {
                    return Ok(self.fallback(&format!("`{key}` is not an array")));
                };
                let mut base = map.clone();
                base.remove("oneOf");
                base.remove("anyOf");
                return self.map_union(d, map, &base, key, members, loc, slot);
            }
        }
        let types = types_of(map);
        match types.as_slice() {
            [] => self.map_untyped(d, map, loc, slot),
            [one] => self.map_type(d, map, one, loc, slot),
            many => {
                let members: Vec<Value> = many
                    .iter()
                    .map(|t| {
                        let mut m = map.clone();
                        m.insert("type".into(), Value::String((*t).to_owned()));
                        m.remove("title");
                        m.remove("description");
                        Value::Object(m)
                    })
                    .collect();
                self.map_union(d, map, &Map::new(), "type", &members, loc, slot)
            }
        }
    }

    /// If `map` admits `null` besides other values, the schema without the
    /// `null` alternative.
    fn strip_null(&self, map: &Map<String, Value>) -> Option<Map<String, Value>> {
        let without = |key: &str, value: Option<Value>| {
            let mut inner = map.clone();
            inner.remove(key);
            if let Some(value) = value {
                inner.insert(key.to_owned(), value);
            }
            Some(inner)
        };
        if map.get("nullable") == Some(&Value::Bool(true)) {
            return without("nullable", None);
        }
        if let Some(Value::Array(types)) = map.get("type") {
            if types.len() > 1 && types.contains(&Value::String("null".into())) {
                let rest: Vec<Value> = types
                    .iter()
                    .filter(|t| t.as_str() != Some("null"))
                    .cloned()
                    .collect();
                let ty = match rest.as_slice() {
                    [one] => one.clone(),
                    _ => Value::Array(rest),
                };
                return without("type", Some(ty));
            }
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            if values.len() > 1 && values.contains(&Value::Null) {
                let rest = values.iter().filter(|v| !v.is_null()).cloned().collect();
                return without("enum", Some(Value::Array(rest)));
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(members)) = map.get(key) {
                if members.len() > 1 && members.iter().any(is_null_schema) {
                    let rest: Vec<Value> = members
                        .iter()
                        .filter(|m| !is_null_schema(m))
                        .cloned()
                        .collect();
                    let mut inner = without(key, None)?;
                    match rest.as_slice() {
                        // Keep this level's annotations, take the member's shape.
                        [one] if !has_assertions(&inner, &[]) => {
                            inner.insert("allOf".into(), Value::Array(vec![one.clone()]));
                        }
                        _ => {
                            inner.insert(key.to_owned(), Value::Array(rest));
                        }
                    }
                    return Some(inner);
                }
            }
        }
        None
    }

    fn map_ref(&mut self, d: &mut Doc, reference: &str, loc: &Loc) -> Result<Ty, Error> {
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
    fn flatten(
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

    fn map_all_of(
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
            if let Some(reference) = only.get("$ref").and_then(Value::as_str) {
                if plain_ref && !has_assertions(map, &["allOf"]) {
                    return self.map_ref(d, reference, loc);
                }
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

    fn map_const(
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

    fn map_enum(
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

    #[allow(clippy::too_many_arguments)]
    fn map_union(
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
    fn struct_size(&self, ty: &Ty) -> (usize, usize) {
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

    fn variant_name(&self, ty: &Ty) -> String {
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
    fn try_tagged(
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

    fn map_untyped(
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

    fn map_type(
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

    fn map_array(&mut self, d: &mut Doc, map: &Map<String, Value>, loc: &Loc) -> Result<Ty, Error> {
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
    fn map_extra(
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

    fn map_object(
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

/// A type name for the target of a JSON pointer: its last segment that is
/// not a schema keyword or an index.
fn name_from_pointer(pointer: &str) -> String {
    const STRUCTURAL: &[&str] = &[
        "$defs",
        "definitions",
        "properties",
        "items",
        "prefixItems",
        "additionalProperties",
        "patternProperties",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "if",
        "then",
        "else",
        "contains",
    ];
    pointer
        .rsplit('/')
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .find(|s| !s.is_empty() && !STRUCTURAL.contains(&s.as_str()) && s.parse::<usize>().is_err())
        .unwrap_or_else(|| "Root".to_owned())
}

/// The integer type for an `integer` schema, from `format` or bounds.
fn int_kind(map: &Map<String, Value>) -> Int {
    let format = map
        .get("format")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match format {
        "int8" => return Int::I8,
        "int16" => return Int::I16,
        "int32" => return Int::I32,
        "int64" => return Int::I64,
        "uint8" => return Int::U8,
        "uint16" => return Int::U16,
        "uint32" => return Int::U32,
        "uint64" => return Int::U64,
        _ => {}
    }
    let bound = |inclusive: &str, exclusive: &str, step: f64| {
        let inc = map.get(inclusive).and_then(Value::as_f64);
        let exc = map.get(exclusive).and_then(Value::as_f64).map(|e| e + step);
        match (inc, exc) {
            (Some(a), Some(b)) => Some(if step > 0.0 { a.max(b) } else { a.min(b) }),
            (a, b) => a.or(b),
        }
    };
    let min = bound("minimum", "exclusiveMinimum", 1.0);
    let max = bound("maximum", "exclusiveMaximum", -1.0);
    match (min, max) {
        (Some(lo), hi) if lo >= 0.0 => match hi {
            Some(hi) if hi <= f64::from(u8::MAX) => Int::U8,
            Some(hi) if hi <= f64::from(u16::MAX) => Int::U16,
            Some(hi) if hi <= f64::from(u32::MAX) => Int::U32,
            _ => Int::U64,
        },
        (Some(lo), Some(hi)) if lo >= f64::from(i8::MIN) && hi <= f64::from(i8::MAX) => Int::I8,
        (Some(lo), Some(hi)) if lo >= f64::from(i16::MIN) && hi <= f64::from(i16::MAX) => Int::I16,
        (Some(lo), Some(hi)) if lo >= f64::from(i32::MIN) && hi <= f64::from(i32::MAX) => Int::I32,
        _ => Int::I64,
    }
}
