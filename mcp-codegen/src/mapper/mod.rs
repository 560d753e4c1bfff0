//! JSON Schema 2020-12 -> Rust types ([`crate::ir`]). One [`Mapper`] serves
//! a whole generated module (type names are unique across it); each tool
//! schema is mapped as its own document (its `$ref`s resolve inside it).
//!
//! Whatever cannot be typed becomes `serde_json::Value` with a note in the
//! docs saying why; hostile input ends in an [`Error`], never a panic.

mod enums;
mod objects;
mod refs;
mod unions;

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
        if let Some(Value::Array(types)) = map.get("type")
            && types.len() > 1
            && types.contains(&Value::String("null".into()))
        {
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
        if let Some(Value::Array(values)) = map.get("enum")
            && values.len() > 1
            && values.contains(&Value::Null)
        {
            let rest = values.iter().filter(|v| !v.is_null()).cloned().collect();
            return without("enum", Some(Value::Array(rest)));
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(members)) = map.get(key)
                && members.len() > 1
                && members.iter().any(is_null_schema)
            {
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
        None
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
