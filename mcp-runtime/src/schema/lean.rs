//! The validator used without the `validation` feature: JSON Schema
//! 2020-12 for the keywords schemars emits for Rust types (types, objects,
//! arrays, tuples, numbers with bounds, enums, unions, local `$ref`s), in
//! a few kilobytes of code instead of a general validator and two regex
//! engines.
//!
//! A schema that uses any other validation keyword (`pattern`,
//! `if`/`then`/`else`, `unevaluatedProperties`, ...) is refused when it is
//! compiled, naming the keyword, so a check is never skipped silently.
//! Keywords that only annotate (`title`, `format`, `default`, ...) and
//! keywords JSON Schema does not define are ignored, as the specification
//! says. The `differential` tests check it against the `jsonschema` crate.

use std::cmp::Ordering;
use std::fmt::{self, Write as _};
use std::sync::Arc;

use serde_json::{Map, Number, Value};

/// How deep one check may nest `$ref`s and subschemas, so that
/// `{"$ref": "#"}` cannot recurse forever.
const MAX_DEPTH: usize = 256;

/// How many subschemas one check may visit, on top of
/// [`STEPS_PER_NODE`] for every value in the instance, so that a schema
/// whose `anyOf` branches refer back to itself (a mounted server's, say)
/// cannot make a check take exponential time, while a large instance still
/// gets the visits its size needs.
const MAX_STEPS: usize = 100_000;

/// Subschema visits allowed per value (array item, member) of the instance.
const STEPS_PER_NODE: usize = 256;

/// Arrays up to this length are checked for `uniqueItems` pair by pair;
/// longer ones through a set of canonical forms, in linear time.
const PAIRWISE_UNIQUE: usize = 16;

/// The longest rendering of a value in a message; the rest is cut, so that
/// a failing multi-megabyte argument costs no more than a small one to
/// report.
const SHOWN_BYTES: usize = 120;

/// Keywords that hold subschemas to be reached by `$ref` or that only
/// annotate: nothing to check.
const IGNORED: &[&str] = &[
    "$schema",
    "$comment",
    "$defs",
    "definitions",
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// Validation keywords of JSON Schema (any draft) this validator does not
/// implement: a schema using one is refused.
const REFUSED: &[&str] = &[
    "pattern",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "if",
    "then",
    "else",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "$id",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
];

/// A schema checked to use only what [`check`](LeanSchema::check) knows.
pub(crate) struct LeanSchema {
    root: Arc<Value>,
}

impl LeanSchema {
    /// Checks that every keyword of `schema` is one this validator checks
    /// or may ignore, and that every `$ref` points into the document.
    pub(crate) fn compile(schema: &Value) -> Result<Self, String> {
        Audit {
            root: schema,
            followed: Vec::new(),
        }
        .schema(schema, "#")?;
        Ok(LeanSchema {
            root: Arc::new(schema.clone()),
        })
    }

    /// Every violation of `instance`, one `(pointer, message)` each; empty
    /// when it is valid.
    pub(crate) fn errors(&self, instance: &Value) -> Vec<(String, String)> {
        let mut run = Run {
            root: &self.root,
            errors: Vec::new(),
            depth: 0,
            steps: 0,
            budget: MAX_STEPS,
            instance: Some(instance),
        };
        run.validate(&self.root, instance, &Path::Root);
        run.errors
    }

    /// Whether `instance` is valid.
    #[cfg(any(test, feature = "fuzzing"))]
    pub(crate) fn is_valid(&self, instance: &Value) -> bool {
        // Messages are built only for what fails, so on a valid instance,
        // the common case, this is the check alone.
        self.errors(instance).is_empty()
    }
}

/// The walk of a schema that refuses what the validator cannot honour.
struct Audit<'a> {
    root: &'a Value,
    /// The `$ref` targets already walked, so that each is walked once.
    followed: Vec<&'a str>,
}

impl<'a> Audit<'a> {
    /// Walks `schema`, found at `at`.
    fn schema(&mut self, schema: &'a Value, at: &str) -> Result<(), String> {
        let object = match schema {
            Value::Bool(_) => return Ok(()),
            Value::Object(object) => object,
            _ => return Err(format!("{at}: a schema must be an object or a boolean")),
        };
        for (keyword, value) in object {
            let keyword = keyword.as_str();
            if REFUSED.contains(&keyword) {
                return Err(format!(
                    "{at}: the keyword `{keyword}` needs mcp-toolkit-runtime's `validation` feature"
                ));
            }
            if IGNORED.contains(&keyword) && !matches!(keyword, "$defs" | "definitions") {
                continue;
            }
            let here = format!("{at}/{keyword}");
            match keyword {
                "type" => audit_type(value, &here)?,
                "properties" | "$defs" | "definitions" => {
                    let members = value
                        .as_object()
                        .ok_or_else(|| format!("{here}: must be an object"))?;
                    for (name, sub) in members {
                        self.schema(sub, &format!("{here}/{}", escape(name)))?;
                    }
                }
                "additionalProperties" | "not" => self.schema(value, &here)?,
                "items" => {
                    if value.is_array() {
                        return Err(format!(
                            "{here}: an array of `items` (drafts before 2020-12) needs mcp-toolkit-runtime's `validation` feature"
                        ));
                    }
                    self.schema(value, &here)?;
                }
                "prefixItems" | "allOf" | "anyOf" | "oneOf" => {
                    let list = value
                        .as_array()
                        .filter(|list| !list.is_empty())
                        .ok_or_else(|| format!("{here}: must be a non-empty array"))?;
                    for (i, sub) in list.iter().enumerate() {
                        self.schema(sub, &format!("{here}/{i}"))?;
                    }
                }
                "required" => {
                    let names = value
                        .as_array()
                        .ok_or_else(|| format!("{here}: must be an array"))?;
                    if !names.iter().all(Value::is_string) {
                        return Err(format!("{here}: must list strings"));
                    }
                }
                "enum" => {
                    value
                        .as_array()
                        .ok_or_else(|| format!("{here}: must be an array"))?;
                }
                "uniqueItems" => {
                    value
                        .as_bool()
                        .ok_or_else(|| format!("{here}: must be a boolean"))?;
                }
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                    value
                        .as_number()
                        .ok_or_else(|| format!("{here}: must be a number"))?;
                }
                "multipleOf" if !value.as_f64().is_some_and(|m| m > 0.0) => {
                    return Err(format!("{here}: must be a number above 0"));
                }
                "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
                | "maxProperties"
                    if value.as_u64().is_none() =>
                {
                    return Err(format!("{here}: must be a non-negative integer"));
                }
                "$ref" => {
                    let target = value
                        .as_str()
                        .ok_or_else(|| format!("{here}: must be a string"))?;
                    let resolved = resolve(self.root, target).ok_or_else(|| {
                        format!(
                            "{here}: `{target}` is not a JSON pointer into this schema \
                         (other references need mcp-toolkit-runtime's `validation` feature)"
                        )
                    })?;
                    // A target outside `$defs` and the like is walked here, so
                    // that no keyword escapes the audit by hiding behind a `$ref`.
                    if !self.followed.contains(&target) {
                        self.followed.push(target);
                        self.schema(resolved, target)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
}

fn audit_type(value: &Value, at: &str) -> Result<(), String> {
    let names: Vec<&Value> = match value {
        Value::Array(list) => list.iter().collect(),
        single => vec![single],
    };
    for name in names {
        match name.as_str() {
            Some("null" | "boolean" | "object" | "array" | "number" | "integer" | "string") => {}
            _ => return Err(format!("{at}: {name} is not a JSON Schema type")),
        }
    }
    Ok(())
}

/// The subschema a local `$ref` (`#` or `#/json/pointer`) names.
fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    let pointer = percent_decode(pointer)?;
    root.pointer(&pointer)
        .filter(|target| target.is_object() || target.is_boolean())
}

/// `%XX` escapes of a URI fragment decoded, `None` when malformed.
fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A property name as a JSON pointer token.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// One check of one instance.
struct Run<'a> {
    root: &'a Value,
    errors: Vec<(String, String)>,
    depth: usize,
    steps: usize,
    /// The most subschema visits this check may make.
    budget: usize,
    /// The whole instance, until the budget has grown by its size (counted
    /// only then: most checks never reach [`MAX_STEPS`]).
    instance: Option<&'a Value>,
}

impl<'a> Run<'a> {
    /// Adds the violations of `instance` (at `path`) against `schema`.
    fn validate(&mut self, schema: &'a Value, instance: &Value, path: &Path<'_>) {
        let object = match schema {
            Value::Bool(true) => return,
            Value::Bool(false) => return self.fail(path, "False schema does not allow any value"),
            Value::Object(object) => object,
            _ => return,
        };
        self.steps += 1;
        if self.steps > self.budget
            && let Some(whole) = self.instance.take()
        {
            self.budget = self
                .budget
                .saturating_add(STEPS_PER_NODE.saturating_mul(nodes(whole)));
        }
        if self.depth >= MAX_DEPTH || self.steps > self.budget {
            return self.fail(
                path,
                "the schema is too deep or too costly to check this value against",
            );
        }
        self.depth += 1;
        for (keyword, value) in object {
            self.keyword(object, keyword, value, instance, path);
        }
        self.depth -= 1;
    }

    /// Adds the violations of `instance` against one keyword of `schema`.
    fn keyword(
        &mut self,
        schema: &'a Map<String, Value>,
        keyword: &str,
        value: &'a Value,
        instance: &Value,
        path: &Path<'_>,
    ) {
        // Keywords that look into members and items report at their paths.
        match (keyword, instance) {
            ("$ref", _) => {
                if let Some(target) = value.as_str().and_then(|r| resolve(self.root, r)) {
                    self.validate(target, instance, path);
                }
                return;
            }
            ("allOf", _) => {
                for sub in value.as_array().into_iter().flatten() {
                    self.validate(sub, instance, path);
                }
                return;
            }
            ("properties", Value::Object(members)) => {
                for (name, sub) in value.as_object().into_iter().flatten() {
                    if let Some(member) = members.get(name) {
                        self.validate(sub, member, &Path::Member(path, name));
                    }
                }
                return;
            }
            ("additionalProperties", Value::Object(members)) if value != &Value::Bool(false) => {
                let declared = schema.get("properties").and_then(Value::as_object);
                for (name, member) in members {
                    if !declared.is_some_and(|d| d.contains_key(name)) {
                        self.validate(value, member, &Path::Member(path, name));
                    }
                }
                return;
            }
            ("prefixItems", Value::Array(items)) => {
                let subs = value.as_array().into_iter().flatten();
                for (i, (sub, item)) in subs.zip(items).enumerate() {
                    self.validate(sub, item, &Path::Item(path, i));
                }
                return;
            }
            ("items", Value::Array(items)) if value != &Value::Bool(false) => {
                for (i, item) in items.iter().enumerate().skip(prefix_len(schema)) {
                    self.validate(value, item, &Path::Item(path, i));
                }
                return;
            }
            _ => {}
        }
        if let Some(message) = self.violation(schema, keyword, value, instance) {
            self.fail(path, &message);
        }
    }

    /// What `instance` itself breaks of one keyword, if anything.
    fn violation(
        &mut self,
        schema: &'a Map<String, Value>,
        keyword: &str,
        value: &'a Value,
        instance: &Value,
    ) -> Option<String> {
        let subschemas = || value.as_array().map(Vec::as_slice).unwrap_or_default();
        let (shown, bound) = (Short(instance), Short(value));
        let message = match (keyword, instance) {
            ("type", _) => {
                let fits = match value {
                    Value::Array(names) => names.iter().any(|name| is_type(name, instance)),
                    name => is_type(name, instance),
                };
                (!fits).then(|| format!("{shown} is not of type {bound}"))?
            }
            ("enum", _) => {
                let listed = subschemas().iter().any(|v| equal(v, instance));
                (!listed).then(|| format!("{shown} is not one of {bound}"))?
            }
            ("const", _) if !equal(value, instance) => format!("{bound} was expected"),
            ("anyOf", _) if !subschemas().iter().any(|sub| self.passes(sub, instance)) => {
                format!(
                    "{shown} is not valid under any of the schemas listed in the 'anyOf' keyword"
                )
            }
            ("oneOf", _) => match subschemas()
                .iter()
                .filter(|sub| self.passes(sub, instance))
                .count()
            {
                1 => return None,
                0 => format!(
                    "{shown} is not valid under any of the schemas listed in the 'oneOf' keyword"
                ),
                _ => format!(
                    "{shown} is valid under more than one of the schemas listed in the 'oneOf' keyword"
                ),
            },
            ("not", _) if self.passes(value, instance) => {
                format!("{shown} should not be valid under {bound}")
            }
            ("additionalProperties", Value::Object(members)) => {
                let declared = schema.get("properties").and_then(Value::as_object);
                let mut extra = members
                    .keys()
                    .filter(|name| !declared.is_some_and(|d| d.contains_key(*name)))
                    .peekable();
                // The common case, nothing extra, builds no message.
                extra.peek()?;
                let extra: Vec<String> = extra.map(|name| format!("'{name}'")).collect();
                let verb = if extra.len() == 1 { "was" } else { "were" };
                format!(
                    "Additional properties are not allowed ({} {verb} unexpected)",
                    extra.join(", ")
                )
            }
            ("required", Value::Object(members)) => {
                let names = value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str);
                let mut missing = names.filter(|name| !members.contains_key(*name)).peekable();
                missing.peek()?;
                let missing: Vec<String> = missing
                    .map(|name| format!("{} is a required property", Value::from(name)))
                    .collect();
                missing.join("; ")
            }
            ("minProperties", Value::Object(members)) if below(members.len(), value) => {
                format!("{shown} has less than {bound} properties")
            }
            ("maxProperties", Value::Object(members)) if above(members.len(), value) => {
                format!("{shown} has more than {bound} properties")
            }
            ("items", Value::Array(items)) if items.len() > prefix_len(schema) => {
                format!("{shown} has more than {} items", prefix_len(schema))
            }
            ("minItems", Value::Array(items)) if below(items.len(), value) => {
                format!("{shown} has less than {bound} items")
            }
            ("maxItems", Value::Array(items)) if above(items.len(), value) => {
                format!("{shown} has more than {bound} items")
            }
            ("uniqueItems", Value::Array(items))
                if value == &Value::Bool(true) && repeats(items) =>
            {
                format!("{shown} has non-unique elements")
            }
            ("minLength", Value::String(text)) if below(text.chars().count(), value) => {
                format!("{shown} is shorter than {bound} characters")
            }
            ("maxLength", Value::String(text)) if above(text.chars().count(), value) => {
                format!("{shown} is longer than {bound} characters")
            }
            ("minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum", Value::Number(n)) => {
                let order = compare(n, value.as_number()?);
                let (ok, words) = match keyword {
                    "minimum" => (order != Ordering::Less, "less than the minimum of"),
                    "maximum" => (order != Ordering::Greater, "greater than the maximum of"),
                    "exclusiveMinimum" => (
                        order == Ordering::Greater,
                        "less than or equal to the minimum of",
                    ),
                    _ => (
                        order == Ordering::Less,
                        "greater than or equal to the maximum of",
                    ),
                };
                (!ok).then(|| format!("{shown} is {words} {bound}"))?
            }
            ("multipleOf", Value::Number(n))
                if !value.as_number().is_some_and(|m| multiple_of(n, m)) =>
            {
                format!("{shown} is not a multiple of {bound}")
            }
            _ => return None,
        };
        Some(message)
    }

    /// Whether `instance` passes `schema`, leaving no errors behind.
    fn passes(&mut self, schema: &'a Value, instance: &Value) -> bool {
        let before = self.errors.len();
        self.validate(schema, instance, &Path::Root);
        let passed = self.errors.len() == before;
        self.errors.truncate(before);
        passed
    }

    fn fail(&mut self, path: &Path<'_>, message: &str) {
        let mut pointer = String::new();
        path.write(&mut pointer);
        self.errors.push((pointer, message.to_owned()));
    }
}

/// Where a value is in the instance: the member names and item indexes
/// from the root, each on the stack of the check that descended there.
/// It is written out as a JSON pointer only for a violation, so checking a
/// valid instance allocates no path.
enum Path<'p> {
    Root,
    Member(&'p Path<'p>, &'p str),
    Item(&'p Path<'p>, usize),
}

impl Path<'_> {
    /// Appends the JSON pointer (`/name/0`, `~` and `/` escaped; empty for
    /// the root). As deep as the check, which [`MAX_DEPTH`] bounds.
    fn write(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Member(parent, name) => {
                parent.write(out);
                out.push('/');
                for c in name.chars() {
                    match c {
                        '~' => out.push_str("~0"),
                        '/' => out.push_str("~1"),
                        c => out.push(c),
                    }
                }
            }
            Path::Item(parent, index) => {
                parent.write(out);
                // Writing to a String cannot fail.
                let _ = write!(out, "/{index}");
            }
        }
    }
}

fn is_type(name: &Value, instance: &Value) -> bool {
    match (name.as_str(), instance) {
        (Some("null"), Value::Null)
        | (Some("boolean"), Value::Bool(_))
        | (Some("object"), Value::Object(_))
        | (Some("array"), Value::Array(_))
        | (Some("number"), Value::Number(_))
        | (Some("string"), Value::String(_)) => true,
        (Some("integer"), Value::Number(n)) => {
            n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
        }
        _ => false,
    }
}

/// How many items `prefixItems` covers, which `items` then skips.
fn prefix_len(schema: &Map<String, Value>) -> usize {
    schema
        .get("prefixItems")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
}

fn below(count: usize, bound: &Value) -> bool {
    bound.as_u64().is_some_and(|b| (count as u64) < b)
}

fn above(count: usize, bound: &Value) -> bool {
    bound.as_u64().is_some_and(|b| (count as u64) > b)
}

/// The number of values in `value`, itself included.
fn nodes(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(nodes).sum::<usize>(),
        Value::Object(members) => 1 + members.values().map(nodes).sum::<usize>(),
        _ => 1,
    }
}

/// Whether two items of `items` are equal as JSON.
fn repeats(items: &[Value]) -> bool {
    if items.len() <= PAIRWISE_UNIQUE {
        return items
            .iter()
            .enumerate()
            .any(|(i, a)| items[i + 1..].iter().any(|b| equal(a, b)));
    }
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    items.iter().any(|item| {
        let mut form = String::new();
        canonical(item, &mut form);
        !seen.insert(form)
    })
}

/// A text that two values have in common exactly when they are equal as
/// JSON: members sorted by name, and numbers written the same way whatever
/// their representation (`1`, `1.0` and `1e0` all as `1`).
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => out.push_str(&i.to_string()),
            (_, Some(u), _) => out.push_str(&u.to_string()),
            // An integral float within i64 or u64 is written as that
            // integer (the casts are exact there).
            (_, _, Some(f)) if f.fract() == 0.0 && (-9.2e18..9.2e18).contains(&f) => {
                out.push_str(&(f as i64).to_string())
            }
            (_, _, Some(f)) if f.fract() == 0.0 && (0.0..1.8e19).contains(&f) => {
                out.push_str(&(f as u64).to_string())
            }
            (_, _, Some(f)) => out.push_str(&format!("{f:e}")),
            _ => out.push_str(&n.to_string()),
        },
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut names: Vec<&String> = members.keys().collect();
            names.sort();
            out.push('{');
            for name in names {
                out.push_str(&Value::from(name.as_str()).to_string());
                out.push(':');
                canonical(&members[name], out);
                out.push(',');
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// A value as JSON in a message, cut after [`SHOWN_BYTES`].
struct Short<'a>(&'a Value);

impl fmt::Display for Short<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Bounded(Vec::new());
        // Stops with an error once the limit is reached: never more work.
        let cut = serde_json::to_writer(&mut text, self.0).is_err();
        let shown = String::from_utf8_lossy(&text.0);
        match cut {
            false => f.write_str(&shown),
            true => write!(f, "{}…", shown.trim_end_matches('\u{fffd}')),
        }
    }
}

/// A buffer that refuses to grow past [`SHOWN_BYTES`].
struct Bounded(Vec<u8>);

impl std::io::Write for Bounded {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let room = SHOWN_BYTES - self.0.len();
        if room == 0 {
            return Err(std::io::ErrorKind::WriteZero.into());
        }
        let taken = bytes.len().min(room);
        self.0.extend_from_slice(&bytes[..taken]);
        Ok(taken)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// JSON equality, under which `1` and `1.0` are the same number.
fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

/// Numeric order, exact between integers and through `f64` otherwise.
fn compare(a: &Number, b: &Number) -> Ordering {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return x.cmp(&y);
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x.cmp(&y);
    }
    match (a.as_i64(), b.as_u64(), a.as_u64(), b.as_i64()) {
        // A negative i64 against a u64 above i64::MAX, either way round.
        (Some(_), Some(_), None, None) => return Ordering::Less,
        (None, None, Some(_), Some(_)) => return Ordering::Greater,
        _ => {}
    }
    let (x, y) = (
        a.as_f64().unwrap_or(f64::NAN),
        b.as_f64().unwrap_or(f64::NAN),
    );
    x.partial_cmp(&y).unwrap_or(Ordering::Equal)
}

fn multiple_of(n: &Number, m: &Number) -> bool {
    if let (Some(x), Some(y)) = (n.as_i64(), m.as_i64()) {
        return y != 0 && x % y == 0;
    }
    if let (Some(x), Some(y)) = (n.as_u64(), m.as_u64()) {
        return y != 0 && x % y == 0;
    }
    let (x, y) = (
        n.as_f64().unwrap_or(f64::NAN),
        m.as_f64().unwrap_or(f64::NAN),
    );
    let quotient = x / y;
    quotient.is_finite() && quotient.fract() == 0.0
}

#[cfg(test)]
mod tests;
