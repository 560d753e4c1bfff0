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
use std::collections::HashMap;
use std::fmt::{self, Write as _};

use serde_json::{Map, Number, Value};

/// How deep one check, or the compilation of a schema, may nest `$ref`s
/// and subschemas, so that `{"$ref": "#"}` cannot recurse forever nor a
/// chain of `$ref`s exhaust the stack.
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

/// A schema checked to use only what [`errors`](LeanSchema::errors) knows,
/// compiled to a tree of checks, so that a call matches no keyword names
/// and resolves no `$ref`s.
pub(crate) struct LeanSchema {
    /// Every subschema reachable from the root (which is the first) or
    /// from its definitions, each once; checks refer to one another by
    /// index.
    nodes: Vec<Node>,
}

impl LeanSchema {
    /// Compiles `schema` in one walk, refusing it when a keyword is one
    /// this validator does not implement, a keyword's value is malformed,
    /// a `$ref` does not point into the document, or subschemas and
    /// `$ref`s nest more than [`MAX_DEPTH`] deep.
    pub(crate) fn compile(schema: &Value) -> Result<Self, String> {
        let mut build = Build {
            root: schema,
            nodes: Vec::new(),
            built: HashMap::new(),
            depth: 0,
        };
        build.node(schema, "#")?;
        Ok(LeanSchema { nodes: build.nodes })
    }

    /// Every violation of `instance`, one `(pointer, message)` each; empty
    /// when it is valid.
    pub(crate) fn errors(&self, instance: &Value) -> Vec<(String, String)> {
        let mut run = Run::new(&self.nodes, instance);
        run.validate(ROOT, instance, &Path::Root);
        run.errors
    }

    /// Whether `instance` is valid.
    #[cfg(any(test, feature = "fuzzing"))]
    pub(crate) fn is_valid(&self, instance: &Value) -> bool {
        Run::new(&self.nodes, instance).passes(ROOT, instance)
    }
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

/// The index of the root schema among a [`LeanSchema`]'s nodes.
const ROOT: usize = 0;

/// One subschema, compiled.
enum Node {
    /// `true`: every value passes.
    Any,
    /// `false`: no value passes.
    Nothing,
    /// An object schema: its checks, in the order of its keywords (the
    /// order violations are reported in).
    Checks(Vec<Check>),
}

/// One keyword of an object schema, compiled. Subschemas are node indexes;
/// a value kept as the schema wrote it is there for the messages.
enum Check {
    /// `$ref` or `allOf`: the value must pass each of these too.
    Also(Vec<usize>),
    /// `anyOf`.
    AnyOf(Vec<usize>),
    /// `oneOf`.
    OneOf(Vec<usize>),
    /// `not`, with the subschema as written.
    Not(usize, Value),
    /// `properties`: each member named here must pass its subschema.
    Properties(Vec<(String, usize)>),
    /// `additionalProperties` with a subschema: members that `properties`
    /// (its names here) does not name must pass it.
    Additional {
        declared: Map<String, Value>,
        schema: usize,
    },
    /// `additionalProperties: false`.
    NoAdditional { declared: Map<String, Value> },
    /// `prefixItems`.
    PrefixItems(Vec<usize>),
    /// `items` with a subschema, for the items after `prefixItems`'.
    Items { skip: usize, schema: usize },
    /// `items: false`: no items after `prefixItems`' `allowed`.
    NoItems { allowed: usize },
    /// `type`: the kinds it allows, and the names as written.
    Type { kinds: u8, named: Value },
    /// `enum`, the array as written.
    Enum(Value),
    /// `const`.
    Const(Value),
    /// `required`.
    Required(Vec<String>),
    /// `minProperties`, `maxItems`, `minLength` and the like.
    Size { of: Size, least: bool, bound: u64 },
    /// `uniqueItems: true`.
    UniqueItems,
    /// `minimum`, `exclusiveMaximum` and the like.
    Bound { kind: BoundKind, limit: Number },
    /// `multipleOf`.
    MultipleOf(Number),
}

/// What a size keyword counts.
#[derive(Clone, Copy)]
enum Size {
    Properties,
    Items,
    Chars,
}

/// Which numeric bound.
#[derive(Clone, Copy)]
enum BoundKind {
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
}

/// The bits of [`Check::Type`]'s kinds.
const NULL: u8 = 1;
const BOOLEAN: u8 = 1 << 1;
const OBJECT: u8 = 1 << 2;
const ARRAY: u8 = 1 << 3;
const NUMBER: u8 = 1 << 4;
const INTEGER: u8 = 1 << 5;
const STRING: u8 = 1 << 6;

/// The compilation of a schema into [`Node`]s, refusing what the validator
/// cannot honour: a keyword it does not implement, a malformed keyword
/// value, a `$ref` that does not point into the document.
struct Build<'a> {
    root: &'a Value,
    nodes: Vec<Node>,
    /// The node of each subschema compiled so far, by its address in the
    /// schema: each is compiled once however many `$ref`s reach it (so a
    /// hostile schema gets at most one node per subschema), and a `$ref`
    /// loop compiles to a loop of indexes.
    built: HashMap<*const Value, usize>,
    /// How deep the walk is now, bounded by [`MAX_DEPTH`] like a check:
    /// a chain of `$ref`s must not exhaust the stack.
    depth: usize,
}

impl<'a> Build<'a> {
    /// The index of `schema`'s node (found at `at`, a JSON pointer for
    /// messages), compiling it first if need be.
    fn node(&mut self, schema: &'a Value, at: &str) -> Result<usize, String> {
        if let Some(&id) = self.built.get(&(schema as *const Value)) {
            return Ok(id);
        }
        if self.depth >= MAX_DEPTH {
            return Err(format!(
                "{at}: subschemas and `$ref`s nest more than {MAX_DEPTH} deep"
            ));
        }
        let id = self.nodes.len();
        self.nodes.push(Node::Any);
        self.built.insert(schema, id);
        self.nodes[id] = match schema {
            Value::Bool(true) => Node::Any,
            Value::Bool(false) => Node::Nothing,
            Value::Object(object) => {
                self.depth += 1;
                let checks = self.checks(object, at)?;
                self.depth -= 1;
                Node::Checks(checks)
            }
            _ => return Err(format!("{at}: a schema must be an object or a boolean")),
        };
        Ok(id)
    }

    /// The nodes of a non-empty array of subschemas (`allOf`, `prefixItems`, ...).
    fn nodes_of(&mut self, list: &'a Value, at: &str) -> Result<Vec<usize>, String> {
        let list = list
            .as_array()
            .filter(|list| !list.is_empty())
            .ok_or_else(|| format!("{at}: must be a non-empty array"))?;
        // Loops rather than `collect`s here: each `collect` of another
        // iterator type is more code in every server.
        let mut ids = Vec::with_capacity(list.len());
        for (i, sub) in list.iter().enumerate() {
            ids.push(self.node(sub, &format!("{at}/{i}"))?);
        }
        Ok(ids)
    }

    /// The nodes of an object of named subschemas (`properties`, `$defs`).
    fn named_nodes(
        &mut self,
        members: &'a Value,
        at: &str,
    ) -> Result<Vec<(String, usize)>, String> {
        let members = members
            .as_object()
            .ok_or_else(|| format!("{at}: must be an object"))?;
        let mut subs = Vec::with_capacity(members.len());
        for (name, sub) in members {
            let id = self.node(sub, &format!("{at}/{}", escape(name)))?;
            subs.push((name.clone(), id));
        }
        Ok(subs)
    }

    /// The checks of an object schema (at `at`), in its keyword order;
    /// keywords that check nothing (annotations, `true` subschemas,
    /// keywords JSON Schema does not define) compile to none.
    fn checks(&mut self, schema: &'a Map<String, Value>, at: &str) -> Result<Vec<Check>, String> {
        let mut checks = Vec::new();
        for (keyword, value) in schema {
            let keyword = keyword.as_str();
            if REFUSED.contains(&keyword) {
                return Err(format!(
                    "{at}: the keyword `{keyword}` needs mcp-toolkit-runtime's `validation` feature"
                ));
            }
            let here = || format!("{at}/{keyword}");
            let check = match keyword {
                "$ref" => {
                    let target = value
                        .as_str()
                        .ok_or_else(|| format!("{}: must be a string", here()))?;
                    let resolved = resolve(self.root, target).ok_or_else(|| {
                        format!(
                            "{}: `{target}` is not a JSON pointer into this schema \
                             (other references need mcp-toolkit-runtime's `validation` feature)",
                            here()
                        )
                    })?;
                    Some(Check::Also(vec![self.node(resolved, target)?]))
                }
                // Compiled where they are, so that no keyword escapes
                // refusal by sitting in a definition; a `$ref` to one finds
                // its node.
                "$defs" | "definitions" => {
                    self.named_nodes(value, &here())?;
                    None
                }
                "allOf" => Some(Check::Also(self.nodes_of(value, &here())?)),
                "anyOf" => Some(Check::AnyOf(self.nodes_of(value, &here())?)),
                "oneOf" => Some(Check::OneOf(self.nodes_of(value, &here())?)),
                "not" => Some(Check::Not(self.node(value, &here())?, value.clone())),
                "properties" => Some(Check::Properties(self.named_nodes(value, &here())?)),
                "additionalProperties" => match value {
                    Value::Bool(true) => None,
                    Value::Bool(false) => Some(Check::NoAdditional {
                        declared: declared(schema),
                    }),
                    sub => Some(Check::Additional {
                        declared: declared(schema),
                        schema: self.node(sub, &here())?,
                    }),
                },
                "prefixItems" => Some(Check::PrefixItems(self.nodes_of(value, &here())?)),
                "items" => match value {
                    Value::Bool(true) => None,
                    Value::Bool(false) => Some(Check::NoItems {
                        allowed: prefix_len(schema),
                    }),
                    Value::Array(_) => {
                        return Err(format!(
                            "{}: an array of `items` (drafts before 2020-12) needs mcp-toolkit-runtime's `validation` feature",
                            here()
                        ));
                    }
                    sub => Some(Check::Items {
                        skip: prefix_len(schema),
                        schema: self.node(sub, &here())?,
                    }),
                },
                "type" => {
                    let mut kinds = 0;
                    for name in type_names(value) {
                        match kind_named(name) {
                            0 => {
                                return Err(format!(
                                    "{}: {name} is not a JSON Schema type",
                                    here()
                                ));
                            }
                            kind => kinds |= kind,
                        }
                    }
                    Some(Check::Type {
                        kinds,
                        named: value.clone(),
                    })
                }
                "enum" if value.is_array() => Some(Check::Enum(value.clone())),
                "enum" => return Err(format!("{}: must be an array", here())),
                "const" => Some(Check::Const(value.clone())),
                "required" => {
                    let listed = value
                        .as_array()
                        .ok_or_else(|| format!("{}: must be an array", here()))?;
                    let mut names = Vec::with_capacity(listed.len());
                    for name in listed {
                        let name = name
                            .as_str()
                            .ok_or_else(|| format!("{}: must list strings", here()))?;
                        names.push(name.to_owned());
                    }
                    Some(Check::Required(names))
                }
                "minProperties" => Some(size(Size::Properties, true, value, here)?),
                "maxProperties" => Some(size(Size::Properties, false, value, here)?),
                "minItems" => Some(size(Size::Items, true, value, here)?),
                "maxItems" => Some(size(Size::Items, false, value, here)?),
                "minLength" => Some(size(Size::Chars, true, value, here)?),
                "maxLength" => Some(size(Size::Chars, false, value, here)?),
                "uniqueItems" => match value {
                    Value::Bool(unique) => unique.then_some(Check::UniqueItems),
                    _ => return Err(format!("{}: must be a boolean", here())),
                },
                "minimum" => Some(bound(BoundKind::Minimum, value, here)?),
                "maximum" => Some(bound(BoundKind::Maximum, value, here)?),
                "exclusiveMinimum" => Some(bound(BoundKind::ExclusiveMinimum, value, here)?),
                "exclusiveMaximum" => Some(bound(BoundKind::ExclusiveMaximum, value, here)?),
                "multipleOf" => match value.as_number() {
                    Some(m) if m.as_f64().is_some_and(|m| m > 0.0) => {
                        Some(Check::MultipleOf(m.clone()))
                    }
                    _ => return Err(format!("{}: must be a number above 0", here())),
                },
                _ => None,
            };
            checks.extend(check);
        }
        Ok(checks)
    }
}

/// The member names `properties` declares beside `additionalProperties`,
/// as the keys of a JSON object (whose lookup every server has already).
fn declared(schema: &Map<String, Value>) -> Map<String, Value> {
    let mut names = Map::new();
    let members = schema.get("properties").and_then(Value::as_object);
    for (name, _) in members.into_iter().flatten() {
        names.insert(name.clone(), Value::Null);
    }
    names
}

/// A size keyword's check; `at` names it for the error.
fn size(of: Size, least: bool, value: &Value, at: impl Fn() -> String) -> Result<Check, String> {
    match value.as_u64() {
        Some(bound) => Ok(Check::Size { of, least, bound }),
        None => Err(format!("{}: must be a non-negative integer", at())),
    }
}

/// A numeric bound's check; `at` names it for the error.
fn bound(kind: BoundKind, value: &Value, at: impl Fn() -> String) -> Result<Check, String> {
    match value.as_number() {
        Some(limit) => Ok(Check::Bound {
            kind,
            limit: limit.clone(),
        }),
        None => Err(format!("{}: must be a number", at())),
    }
}

/// The names a `type` value lists: itself, or its items.
fn type_names(value: &Value) -> &[Value] {
    match value {
        Value::Array(list) => list,
        single => std::slice::from_ref(single),
    }
}

/// The kind a JSON Schema type name names; 0 for anything else: the one
/// list of type names.
fn kind_named(name: &Value) -> u8 {
    match name.as_str() {
        Some("null") => NULL,
        Some("boolean") => BOOLEAN,
        Some("object") => OBJECT,
        Some("array") => ARRAY,
        Some("number") => NUMBER,
        Some("integer") => INTEGER,
        Some("string") => STRING,
        _ => 0,
    }
}

/// The kinds `instance` is of: one, and `integer` too for an integral number.
fn kinds_of(instance: &Value) -> u8 {
    match instance {
        Value::Null => NULL,
        Value::Bool(_) => BOOLEAN,
        Value::Object(_) => OBJECT,
        Value::Array(_) => ARRAY,
        Value::String(_) => STRING,
        Value::Number(n) => {
            let integral = n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0);
            if integral { NUMBER | INTEGER } else { NUMBER }
        }
    }
}

/// One check of one instance.
struct Run<'a> {
    nodes: &'a [Node],
    errors: Vec<(String, String)>,
    /// Violations found so far, reported or not.
    failures: usize,
    /// Inside [`passes`](Run::passes), where only whether a violation
    /// happens counts: no message is written, and the first ends the check.
    quiet: bool,
    /// [`failures`](Run::failures) when the innermost `passes` began.
    quiet_since: usize,
    depth: usize,
    steps: usize,
    /// The most subschema visits this check may make.
    budget: usize,
    /// The whole instance, until the budget has grown by its size (counted
    /// only then: most checks never reach [`MAX_STEPS`]).
    instance: Option<&'a Value>,
}

impl<'a> Run<'a> {
    fn new(nodes: &'a [Node], instance: &'a Value) -> Self {
        Run {
            nodes,
            errors: Vec::new(),
            failures: 0,
            quiet: false,
            quiet_since: 0,
            depth: 0,
            steps: 0,
            budget: MAX_STEPS,
            instance: Some(instance),
        }
    }

    /// Adds the violations of `instance` (at `path`) against node `id`.
    fn validate(&mut self, id: usize, instance: &Value, path: &Path<'_>) {
        // A branch already failed: its members and items need no visit.
        if self.decided() {
            return;
        }
        let compiled = self.nodes;
        let checks = match &compiled[id] {
            Node::Any => return,
            Node::Nothing => {
                return self.fail(path, || "False schema does not allow any value".into());
            }
            Node::Checks(checks) => checks,
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
            return self.fail(path, || {
                "the schema is too deep or too costly to check this value against".into()
            });
        }
        self.depth += 1;
        for check in checks {
            if self.decided() {
                break;
            }
            self.check(check, instance, path);
        }
        self.depth -= 1;
    }

    /// Adds the violations of `instance` against one check.
    fn check(&mut self, check: &'a Check, instance: &Value, path: &Path<'_>) {
        let shown = Short(instance);
        match (check, instance) {
            (Check::Also(subs), _) => {
                for &sub in subs {
                    self.validate(sub, instance, path);
                }
            }
            (Check::AnyOf(subs), _) if !subs.iter().any(|&sub| self.passes(sub, instance)) => {
                self.fail(path, || {
                    format!("{shown} is not valid under any of the schemas listed in the 'anyOf' keyword")
                });
            }
            (Check::OneOf(subs), _) => {
                // Whether one passes, or none, or more: two are enough to tell.
                let passing = subs.iter().filter(|&&sub| self.passes(sub, instance));
                match passing.take(2).count() {
                    1 => {}
                    0 => self.fail(path, || {
                        format!("{shown} is not valid under any of the schemas listed in the 'oneOf' keyword")
                    }),
                    _ => self.fail(path, || {
                        format!("{shown} is valid under more than one of the schemas listed in the 'oneOf' keyword")
                    }),
                }
            }
            (Check::Not(sub, written), _) if self.passes(*sub, instance) => {
                self.fail(path, || {
                    format!("{shown} should not be valid under {}", Short(written))
                });
            }
            (Check::Properties(subs), Value::Object(members)) => {
                for (name, sub) in subs {
                    if let Some(member) = members.get(name) {
                        self.validate(*sub, member, &Path::Member(path, name));
                    }
                }
            }
            (Check::Additional { declared, schema }, Value::Object(members)) => {
                for (name, member) in members {
                    if !declared.contains_key(name) {
                        self.validate(*schema, member, &Path::Member(path, name));
                    }
                }
            }
            (Check::NoAdditional { declared }, Value::Object(members)) => {
                let mut extra = members
                    .keys()
                    .filter(|name| !declared.contains_key(*name))
                    .peekable();
                // The common case, nothing extra, builds no message.
                if extra.peek().is_some() {
                    self.fail(path, || {
                        let extra: Vec<String> = extra.map(|name| format!("'{name}'")).collect();
                        let verb = if extra.len() == 1 { "was" } else { "were" };
                        format!(
                            "Additional properties are not allowed ({} {verb} unexpected)",
                            extra.join(", ")
                        )
                    });
                }
            }
            (Check::PrefixItems(subs), Value::Array(items)) => {
                for (i, (&sub, item)) in subs.iter().zip(items).enumerate() {
                    self.validate(sub, item, &Path::Item(path, i));
                }
            }
            (Check::Items { skip, schema }, Value::Array(items)) => {
                for (i, item) in items.iter().enumerate().skip(*skip) {
                    self.validate(*schema, item, &Path::Item(path, i));
                }
            }
            (Check::NoItems { allowed }, Value::Array(items)) if items.len() > *allowed => {
                self.fail(path, || format!("{shown} has more than {allowed} items"));
            }
            (Check::Type { kinds, named }, _) if kinds_of(instance) & kinds == 0 => {
                self.fail(path, || format!("{shown} is not of type {}", Short(named)));
            }
            (Check::Enum(listed), _) => {
                let options = listed.as_array().map(Vec::as_slice).unwrap_or_default();
                if !options.iter().any(|option| equal(option, instance)) {
                    self.fail(path, || format!("{shown} is not one of {}", Short(listed)));
                }
            }
            (Check::Const(expected), _) if !equal(expected, instance) => {
                self.fail(path, || format!("{} was expected", Short(expected)));
            }
            (Check::Required(names), Value::Object(members)) => {
                let mut missing = names
                    .iter()
                    .filter(|name| !members.contains_key(*name))
                    .peekable();
                if missing.peek().is_some() {
                    self.fail(path, || {
                        let missing: Vec<String> = missing
                            .map(|name| {
                                format!("{} is a required property", Value::from(name.as_str()))
                            })
                            .collect();
                        missing.join("; ")
                    });
                }
            }
            (Check::Size { of, least, bound }, _) => {
                let count = match (of, instance) {
                    (Size::Properties, Value::Object(members)) => members.len(),
                    (Size::Items, Value::Array(items)) => items.len(),
                    (Size::Chars, Value::String(text)) => text.chars().count(),
                    _ => return,
                };
                let count = count as u64;
                if (*least && count < *bound) || (!*least && count > *bound) {
                    let (words, unit) = match (of, least) {
                        (Size::Properties, true) => ("has less than", "properties"),
                        (Size::Properties, false) => ("has more than", "properties"),
                        (Size::Items, true) => ("has less than", "items"),
                        (Size::Items, false) => ("has more than", "items"),
                        (Size::Chars, true) => ("is shorter than", "characters"),
                        (Size::Chars, false) => ("is longer than", "characters"),
                    };
                    self.fail(path, || format!("{shown} {words} {bound} {unit}"));
                }
            }
            (Check::UniqueItems, Value::Array(items)) if repeats(items) => {
                self.fail(path, || format!("{shown} has non-unique elements"));
            }
            (Check::Bound { kind, limit }, Value::Number(n)) => {
                let order = compare(n, limit);
                let (ok, words) = match kind {
                    BoundKind::Minimum => (order != Ordering::Less, "less than the minimum of"),
                    BoundKind::Maximum => {
                        (order != Ordering::Greater, "greater than the maximum of")
                    }
                    BoundKind::ExclusiveMinimum => (
                        order == Ordering::Greater,
                        "less than or equal to the minimum of",
                    ),
                    BoundKind::ExclusiveMaximum => (
                        order == Ordering::Less,
                        "greater than or equal to the maximum of",
                    ),
                };
                if !ok {
                    let limit = Value::Number(limit.clone());
                    self.fail(path, || format!("{shown} is {words} {}", Short(&limit)));
                }
            }
            (Check::MultipleOf(factor), Value::Number(n)) if !multiple_of(n, factor) => {
                let factor = Value::Number(factor.clone());
                self.fail(path, || {
                    format!("{shown} is not a multiple of {}", Short(&factor))
                });
            }
            _ => {}
        }
    }

    /// Whether `instance` passes node `id`, leaving no errors behind.
    fn passes(&mut self, id: usize, instance: &Value) -> bool {
        let outer = (self.quiet, self.quiet_since);
        (self.quiet, self.quiet_since) = (true, self.failures);
        self.validate(id, instance, &Path::Root);
        let passed = self.failures == self.quiet_since;
        // What failed in there is no violation of the outer check.
        self.failures = self.quiet_since;
        (self.quiet, self.quiet_since) = outer;
        passed
    }

    /// Whether the innermost [`passes`](Run::passes) has its answer: a
    /// violation, after which nothing more is checked.
    fn decided(&self) -> bool {
        self.quiet && self.failures > self.quiet_since
    }

    /// Records a violation; its message is written only when reported.
    fn fail(&mut self, path: &Path<'_>, message: impl FnOnce() -> String) {
        self.failures += 1;
        if !self.quiet {
            self.report(path, message());
        }
    }

    /// One copy of the reporting, not one per kind of violation.
    #[inline(never)]
    fn report(&mut self, path: &Path<'_>, message: String) {
        let mut pointer = String::new();
        path.write(&mut pointer);
        self.errors.push((pointer, message));
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

/// How many items `prefixItems` covers, which `items` then skips.
fn prefix_len(schema: &Map<String, Value>) -> usize {
    schema
        .get("prefixItems")
        .and_then(Value::as_array)
        .map_or(0, Vec::len)
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
