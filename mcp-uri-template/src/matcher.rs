//! Matching, the inverse of expansion: the template compiles to a small
//! backtracking program whose choices are ordered by the crate's documented
//! preferences; a memo of visited (instruction, position) pairs makes a run
//! take at most `program length × URI length` steps, whatever the input.

use std::collections::BTreeMap;

use crate::Value;
use crate::chars::{Allow, decode, match_literal, unit_at};
use crate::syntax::{Operator, Part, VarSpec};

/// Longest URI matched, in bytes; longer ones never match. Bounds the
/// memo (one bit per instruction and byte).
pub const MAX_URI_LEN: usize = 16 * 1024;

/// How a matched variable's text becomes a [`Value`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Non-exploded: one item is a string, several (`a,b`) a list.
    Text,
    List,
    Assoc,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Key,
    Item,
}

/// Recorded on the way through the program, read back after a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// Variable number `.0` of the template is defined with this shape.
    Var(usize, Shape),
    Open,
    Close(Role),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Inst {
    Literal(String),
    /// Zero or more characters of `allow`, one per step, preferring to take
    /// one more, except before an unencoded `split`, where it prefers to stop.
    Span {
        allow: Allow,
        split: u8,
    },
    /// Up to `max` characters of `allow`, in the order `Span` would try them.
    Prefix {
        allow: Allow,
        max: u16,
        split: u8,
    },
    /// Tries the first target, then the second.
    Split(usize, usize),
    Jump(usize),
    Mark(Mark),
    End,
}

/// A compiled template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Program {
    insts: Vec<Inst>,
    /// Each variable specification's name and prefix length, by index.
    vars: Vec<(String, Option<u16>)>,
}

impl Program {
    pub(crate) fn compile(parts: &[Part]) -> Self {
        let mut builder = Builder::default();
        let mut names: Vec<(String, Option<u16>)> = Vec::new();
        for part in parts {
            match part {
                Part::Literal(text) => {
                    builder.emit(Inst::Literal(text.clone()));
                }
                Part::Expression { operator, vars } => {
                    let first = names.len();
                    names.extend(vars.iter().map(|v| (v.name.clone(), v.prefix)));
                    builder.expression(*operator, vars, first);
                }
            }
        }
        builder.emit(Inst::End);
        Program {
            insts: builder.finish(),
            vars: names,
        }
    }

    /// The values of the variables `uri` defines, or `None` when it is no
    /// expansion of the template.
    pub(crate) fn matches(&self, uri: &str) -> Option<BTreeMap<String, Value>> {
        if uri.len() > MAX_URI_LEN {
            return None;
        }
        let trail = run(&self.insts, uri)?;
        // A template has a handful of variables: a list searched in order
        // compiles to far less than a map per element type.
        let mut seen: Vec<(&str, (Value, Option<u16>))> = Vec::new();
        for (index, value) in read_values(&trail, uri)? {
            let (name, prefix) = &self.vars[index];
            let occurrence = (value, *prefix);
            let kept = match seen.iter().position(|(seen_name, _)| seen_name == name) {
                Some(at) => agree(seen.swap_remove(at).1, occurrence)?,
                None => occurrence,
            };
            seen.push((name, kept));
        }
        let mut values = BTreeMap::new();
        for (name, (value, _)) in seen {
            values.insert(name.to_owned(), value);
        }
        Some(values)
    }
}

/// Two occurrences of one variable (`{x}/{x:2}`) must show one value, the
/// prefixed one as many characters of it as its prefix allows; keeps the
/// one that shows more.
fn agree(a: (Value, Option<u16>), b: (Value, Option<u16>)) -> Option<(Value, Option<u16>)> {
    let shows_more = |x: Option<u16>, y: Option<u16>| y.is_some_and(|y| x.is_none_or(|x| x > y));
    let (longer, shorter) = if shows_more(b.1, a.1) { (b, a) } else { (a, b) };
    let consistent = match (&longer.0, &shorter.0, shorter.1) {
        (Value::String(full), Value::String(part), Some(n)) => {
            full.chars().take(usize::from(n)).eq(part.chars())
        }
        (x, y, _) => x == y,
    };
    consistent.then_some(longer)
}

/// Emits instructions whose jump targets are labels, resolved by `finish`.
#[derive(Default)]
struct Builder {
    insts: Vec<Inst>,
    labels: Vec<usize>,
}

impl Builder {
    fn emit(&mut self, inst: Inst) {
        self.insts.push(inst);
    }

    fn label(&mut self) -> usize {
        self.labels.push(usize::MAX);
        self.labels.len() - 1
    }

    fn bind(&mut self, label: usize) {
        self.labels[label] = self.insts.len();
    }

    fn finish(self) -> Vec<Inst> {
        let at = |label: usize| self.labels[label];
        self.insts
            .into_iter()
            .map(|inst| match inst {
                Inst::Split(a, b) => Inst::Split(at(a), at(b)),
                Inst::Jump(a) => Inst::Jump(at(a)),
                other => other,
            })
            .collect()
    }

    fn literal(&mut self, text: &str) {
        if !text.is_empty() {
            self.emit(Inst::Literal(text.to_owned()));
        }
    }

    /// One value's text between `Open` and `Close(role)`.
    fn span(&mut self, allow: Allow, split: u8, role: Role) {
        self.emit(Inst::Mark(Mark::Open));
        self.emit(Inst::Span { allow, split });
        self.emit(Inst::Mark(Mark::Close(role)));
    }

    /// Each variable may be defined (preferred) or not; the first defined
    /// one is preceded by the operator's `first`, later ones by its `sep`.
    fn expression(&mut self, operator: Operator, vars: &[VarSpec], first_index: usize) {
        // entries[i][1]: at variable i once some earlier one was written.
        let entries: Vec<[usize; 2]> = (0..=vars.len())
            .map(|_| [self.label(), self.label()])
            .collect();
        for (i, var) in vars.iter().enumerate() {
            let body = self.label();
            for written in [0, 1] {
                self.bind(entries[i][written]);
                let defined = self.label();
                self.emit(Inst::Split(defined, entries[i + 1][written]));
                self.bind(defined);
                if written == 0 {
                    self.literal(operator.first());
                } else {
                    self.literal(&(operator.sep() as char).to_string());
                }
                self.emit(Inst::Jump(body));
            }
            self.bind(body);
            self.variable(operator, var, first_index + i, entries[i + 1][1]);
        }
        self.bind(entries[vars.len()][0]);
        self.bind(entries[vars.len()][1]);
    }

    fn variable(&mut self, operator: Operator, var: &VarSpec, index: usize, done: usize) {
        if !var.explode {
            self.emit(Inst::Mark(Mark::Var(index, Shape::Text)));
            self.unexploded(operator, var);
            self.emit(Inst::Jump(done));
            return;
        }
        let (list, assoc) = (self.label(), self.label());
        self.emit(Inst::Split(list, assoc));
        self.bind(list);
        self.emit(Inst::Mark(Mark::Var(index, Shape::List)));
        self.exploded(operator, var, false);
        self.emit(Inst::Jump(done));
        self.bind(assoc);
        self.emit(Inst::Mark(Mark::Var(index, Shape::Assoc)));
        self.exploded(operator, var, true);
        self.emit(Inst::Jump(done));
    }

    fn unexploded(&mut self, operator: Operator, var: &VarSpec) {
        if operator.named() {
            self.literal(&var.name);
            if !operator.empty_keeps_equals() {
                // `;x` alone is the empty string: no item at all.
                let (with_value, end) = (self.label(), self.label());
                self.emit(Inst::Split(with_value, end));
                self.bind(with_value);
                self.literal("=");
                self.unexploded_value(operator, var.prefix);
                self.bind(end);
                return;
            }
            self.literal("=");
        }
        self.unexploded_value(operator, var.prefix);
    }

    fn unexploded_value(&mut self, operator: Operator, prefix: Option<u16>) {
        let (allow, sep) = (operator.allow(), operator.sep());
        if let Some(max) = prefix {
            self.emit(Inst::Mark(Mark::Open));
            self.emit(Inst::Prefix {
                allow,
                max,
                split: sep,
            });
            self.emit(Inst::Mark(Mark::Close(Role::Item)));
            return;
        }
        if allow == Allow::UnreservedReserved {
            // A raw `,` may belong to the string: one item.
            self.span(allow, sep, Role::Item);
            return;
        }
        // `U` values never hold a raw `,`: each one separates list items.
        let (item, more, out) = (self.label(), self.label(), self.label());
        self.bind(item);
        self.span(allow, sep, Role::Item);
        if sep == b',' {
            self.emit(Inst::Split(out, more));
        } else {
            self.emit(Inst::Split(more, out));
        }
        self.bind(more);
        self.literal(",");
        self.emit(Inst::Jump(item));
        self.bind(out);
    }

    /// Members of an exploded list (`keyed` false) or array, `sep`-separated.
    fn exploded(&mut self, operator: Operator, var: &VarSpec, keyed: bool) {
        let (allow, sep) = (operator.allow(), operator.sep());
        let member = self.label();
        self.bind(member);
        if operator.named() {
            if keyed {
                self.span(Allow::Unreserved, b'=', Role::Key);
            } else {
                self.literal(&var.name);
            }
            if operator.empty_keeps_equals() {
                self.literal("=");
                self.span(allow, sep, Role::Item);
            } else {
                let (with_value, without, end) = (self.label(), self.label(), self.label());
                self.emit(Inst::Split(with_value, without));
                self.bind(with_value);
                self.literal("=");
                self.span(allow, sep, Role::Item);
                self.emit(Inst::Jump(end));
                self.bind(without);
                if !keyed {
                    // `;x` is an empty list member.
                    self.emit(Inst::Mark(Mark::Open));
                    self.emit(Inst::Mark(Mark::Close(Role::Item)));
                }
                self.bind(end);
            }
        } else {
            if keyed {
                self.span(allow, b'=', Role::Key);
                self.literal("=");
            }
            self.span(allow, sep, Role::Item);
        }
        let (more, out) = (self.label(), self.label());
        if operator.named() && !keyed {
            // Every member that carries the variable's name is its own.
            self.emit(Inst::Split(more, out));
        } else {
            self.emit(Inst::Split(out, more));
        }
        self.bind(more);
        self.literal(&(sep as char).to_string());
        self.emit(Inst::Jump(member));
        self.bind(out);
    }
}

/// Runs the program over `uri`: the marks of the first path, in order of
/// preference, that reaches `End` at the end of the URI.
fn run(insts: &[Inst], uri: &str) -> Option<Vec<(Mark, usize)>> {
    let width = uri.len() + 1;
    let mut visited = vec![0u64; (insts.len() * width).div_ceil(64)];
    let mut trail: Vec<(Mark, usize)> = Vec::new();
    // Alternatives still to try: (instruction, position, trail length).
    let mut pending = vec![(0usize, 0usize, 0usize)];
    while let Some((mut pc, mut pos, kept)) = pending.pop() {
        trail.truncate(kept);
        loop {
            // From a pair already explored, no path reached `End`.
            let bit = pc * width + pos;
            if visited[bit / 64] & (1 << (bit % 64)) != 0 {
                break;
            }
            visited[bit / 64] |= 1 << (bit % 64);
            match &insts[pc] {
                Inst::Literal(text) => match match_literal(uri, pos, text) {
                    Some(end) => (pc, pos) = (pc + 1, end),
                    None => break,
                },
                Inst::Span { allow, split } => {
                    match unit_at(uri, pos).filter(|u| allow.admits(*u)) {
                        None => pc += 1,
                        Some(unit) if !unit.encoded && unit.ch == *split as char => {
                            pending.push((pc, pos + unit.len, trail.len()));
                            pc += 1;
                        }
                        Some(unit) => {
                            pending.push((pc + 1, pos, trail.len()));
                            pos += unit.len;
                        }
                    }
                }
                Inst::Prefix { allow, max, split } => {
                    // The order a `Span` would try: each end before an
                    // unencoded `split` first, then the longest, then shorter.
                    let mut ends = vec![pos];
                    let mut at_split = Vec::new();
                    while ends.len() <= usize::from(*max) {
                        let end = ends[ends.len() - 1];
                        let Some(unit) = unit_at(uri, end).filter(|u| allow.admits(*u)) else {
                            break;
                        };
                        if !unit.encoded && unit.ch == *split as char {
                            at_split.push(end);
                        }
                        ends.push(end + unit.len);
                    }
                    let longest = ends.pop().unwrap_or(pos);
                    let kept = trail.len();
                    let shorter = ends.into_iter().filter(|end| !at_split.contains(end));
                    pending.extend(shorter.map(|end| (pc + 1, end, kept)));
                    pending.push((pc + 1, longest, kept));
                    pending.extend(at_split.into_iter().rev().map(|end| (pc + 1, end, kept)));
                    break;
                }
                Inst::Split(first, second) => {
                    pending.push((*second, pos, trail.len()));
                    pc = *first;
                }
                Inst::Jump(target) => pc = *target,
                Inst::Mark(mark) => {
                    trail.push((*mark, pos));
                    pc += 1;
                }
                Inst::End if pos == uri.len() => return Some(trail),
                Inst::End => break,
            }
        }
    }
    None
}

/// A variable being read back: its index, shape and decoded pieces.
type Pieces = (usize, Shape, Vec<(Role, String)>);

/// Turns the marks of a match into each defined variable's value.
fn read_values(trail: &[(Mark, usize)], uri: &str) -> Option<Vec<(usize, Value)>> {
    let mut values = Vec::new();
    let mut current: Option<Pieces> = None;
    let mut open = 0;
    for &(mark, pos) in trail {
        match mark {
            Mark::Var(index, shape) => {
                if let Some(done) = current.replace((index, shape, Vec::new())) {
                    values.push(to_value(done));
                }
            }
            Mark::Open => open = pos,
            Mark::Close(role) => current
                .as_mut()?
                .2
                .push((role, decode(uri.get(open..pos)?)?)),
        }
    }
    values.extend(current.map(to_value));
    Some(values)
}

fn to_value((index, shape, pieces): Pieces) -> (usize, Value) {
    let value = match shape {
        Shape::Text if pieces.len() <= 1 => Value::String(
            pieces
                .into_iter()
                .next()
                .map(|(_, text)| text)
                .unwrap_or_default(),
        ),
        Shape::Text | Shape::List => {
            Value::List(pieces.into_iter().map(|(_, text)| text).collect())
        }
        Shape::Assoc => {
            let mut pairs: Vec<(String, String)> = Vec::new();
            for (role, text) in pieces {
                match (role, pairs.last_mut()) {
                    (Role::Item, Some(pair)) => pair.1 = text,
                    _ => pairs.push((text, String::new())),
                }
            }
            Value::Assoc(pairs)
        }
    };
    (index, value)
}
