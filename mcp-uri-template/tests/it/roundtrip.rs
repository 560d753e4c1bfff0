//! Property: values expanded through a template match back to themselves.
//!
//! Matching returns *a* set of values that expands to the URI; it is the set
//! that was expanded whenever the expansion has no other source. The
//! templates generated here are that class:
//!
//! - consecutive expressions are separated by a literal that starts with a
//!   character no value in the class holds unencoded (`!@:$()*`), and the
//!   template starts with the literal `t:`;
//! - a reserved (`+`) or fragment (`#`) expression comes last, has one
//!   string variable and no literal after it, and its value holds no
//!   percent-encoded triplet (expansion passes those through, so `%41`
//!   would come back as `A`);
//! - variables of simple, label and path expressions are defined (an empty
//!   string and an undefined variable expand alike there); those of
//!   `;`, `?` and `&` expressions may be undefined;
//! - a list in a simple expression is its last variable (its `,` is also the
//!   expression's separator), an exploded variable is its expression's last
//!   one (an exploded array could otherwise take a later variable's
//!   `name=value` as one of its pairs), a non-exploded list has
//!   two members or more (one member expands as a string), and an
//!   associative array's keys are never a variable's name;
//! - values of label expressions hold no `.` (the label separator).
//!
//! Values otherwise hold anything: reserved characters, `.`, `/`, `,`, `%`,
//! spaces and non-ASCII, empty strings and empty members. A prefix modifier
//! (`{x:3}`) is expected to match back its first characters.

use std::collections::BTreeMap;

use mcp_toolkit_uri_template::{UriTemplate, Value};
use proptest::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Simple,
    Label,
    Path,
    PathParam,
    Query,
    QueryContinuation,
    Reserved,
    Fragment,
}

impl Op {
    const ALL: [Op; 8] = [
        Op::Simple,
        Op::Label,
        Op::Path,
        Op::PathParam,
        Op::Query,
        Op::QueryContinuation,
        Op::Reserved,
        Op::Fragment,
    ];

    fn symbol(self) -> &'static str {
        match self {
            Op::Simple => "",
            Op::Label => ".",
            Op::Path => "/",
            Op::PathParam => ";",
            Op::Query => "?",
            Op::QueryContinuation => "&",
            Op::Reserved => "+",
            Op::Fragment => "#",
        }
    }

    fn named(self) -> bool {
        matches!(self, Op::PathParam | Op::Query | Op::QueryContinuation)
    }
}

#[derive(Debug, Clone)]
struct RawVar {
    /// 0: string, 1: list, 2: exploded list, 3: exploded array.
    kind: u8,
    prefix: Option<u16>,
    defined: bool,
    texts: Vec<String>,
    keys: Vec<String>,
}

#[derive(Debug, Clone)]
struct RawExpr {
    op: usize,
    vars: Vec<RawVar>,
    separator: String,
}

fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9./,%:;?&=#+!*'()@$ é€😀~_-]{0,6}"
}

fn raw_var() -> impl Strategy<Value = RawVar> {
    (
        0u8..4,
        prop::option::of(1u16..6),
        any::<bool>(),
        prop::collection::vec(text(), 1..4),
        prop::collection::vec("k[a-z0-9é]{0,3}", 1..4),
    )
        .prop_map(|(kind, prefix, defined, texts, keys)| RawVar {
            kind,
            prefix,
            defined,
            texts,
            keys,
        })
}

fn raw_template() -> impl Strategy<Value = (Vec<RawExpr>, Option<String>)> {
    let separator =
        prop::sample::select(vec!["!", "@", ":", "$", "(", ")", "*", "!x", "@é", ":y-"])
            .prop_map(str::to_owned);
    let expr = (
        0..Op::ALL.len(),
        prop::collection::vec(raw_var(), 1..4),
        separator.clone(),
    )
        .prop_map(|(op, vars, separator)| RawExpr {
            op,
            vars,
            separator,
        });
    (
        prop::collection::vec(expr, 1..4),
        prop::option::of(separator),
    )
}

/// A template in the class above, the values to expand, and the values
/// matching must return.
struct Case {
    template: String,
    values: BTreeMap<String, Value>,
    expected: BTreeMap<String, Value>,
}

fn build((exprs, trailing): (Vec<RawExpr>, Option<String>)) -> Case {
    let mut case = Case {
        template: "t:".to_owned(),
        values: BTreeMap::new(),
        expected: BTreeMap::new(),
    };
    let mut index = 0;
    let count = exprs.len();
    let mut last_op = Op::Simple;
    for (e, expr) in exprs.into_iter().enumerate() {
        let last_expr = e + 1 == count;
        let mut op = Op::ALL[expr.op];
        if matches!(op, Op::Reserved | Op::Fragment) && !last_expr {
            op = Op::Simple;
        }
        let mut vars = expr.vars;
        if matches!(op, Op::Reserved | Op::Fragment) {
            vars.truncate(1);
        }
        if e > 0 {
            case.template.push_str(&expr.separator);
        }
        let mut specs = Vec::new();
        let var_count = vars.len();
        for (v, raw) in vars.into_iter().enumerate() {
            let name = format!("v{index}");
            index += 1;
            let last_var = v + 1 == var_count;
            let (spec, value, expected) = variable(op, &name, raw, last_var);
            specs.push(spec);
            if let Some(value) = value {
                case.values.insert(name.clone(), value);
                case.expected.insert(name, expected);
            }
        }
        case.template
            .push_str(&format!("{{{}{}}}", op.symbol(), specs.join(",")));
        last_op = op;
    }
    if let Some(literal) = trailing.filter(|_| !matches!(last_op, Op::Reserved | Op::Fragment)) {
        case.template.push_str(&literal);
    }
    case
}

/// The varspec, the value to expand (if defined) and the value expected back.
fn variable(op: Op, name: &str, raw: RawVar, last_var: bool) -> (String, Option<Value>, Value) {
    let clean = |text: &str| -> String {
        match op {
            Op::Label => text.replace('.', ""),
            // `%z` never starts a triplet.
            Op::Reserved | Op::Fragment => text.replace('%', "%z"),
            _ => text.to_owned(),
        }
    };
    let texts: Vec<String> = raw.texts.iter().map(|t| clean(t)).collect();
    let mut kind = raw.kind;
    let list_allowed = op != Op::Simple || last_var;
    if matches!(op, Op::Reserved | Op::Fragment)
        || (kind == 1 && !list_allowed)
        || (kind >= 2 && !last_var)
    {
        kind = 0;
    }
    let defined = raw.defined || !op.named();
    let (spec, value, expected) = match kind {
        0 => {
            let text = texts[0].clone();
            match raw.prefix {
                Some(n) => {
                    let shown: String = text.chars().take(usize::from(n)).collect();
                    (
                        format!("{name}:{n}"),
                        Value::String(text),
                        Value::String(shown),
                    )
                }
                None => (
                    name.to_owned(),
                    Value::String(text.clone()),
                    Value::String(text),
                ),
            }
        }
        1 => {
            let mut items = texts;
            if items.len() < 2 {
                items.push(String::new());
            }
            (
                name.to_owned(),
                Value::List(items.clone()),
                Value::List(items),
            )
        }
        2 => (
            format!("{name}*"),
            Value::List(texts.clone()),
            Value::List(texts),
        ),
        _ => {
            let pairs: Vec<(String, String)> = raw.keys.into_iter().zip(texts).collect();
            (
                format!("{name}*"),
                Value::Assoc(pairs.clone()),
                Value::Assoc(pairs),
            )
        }
    };
    (spec, defined.then_some(value), expected)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn expanded_values_match_back(raw in raw_template()) {
        let case = build(raw);
        let template = UriTemplate::parse(&case.template)
            .unwrap_or_else(|e| panic!("{}: {e}", case.template));
        let uri = template.expand(&case.values).unwrap();
        prop_assert_eq!(
            template.match_values(&uri),
            Some(case.expected),
            "template {} expanded to {}",
            case.template,
            uri
        );
    }
}
