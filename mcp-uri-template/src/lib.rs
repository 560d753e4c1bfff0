//! RFC 6570 URI templates, expanded and matched in reverse: given a URI,
//! find values of the template's variables whose expansion is that URI.
//!
//! All of level 4 is supported: simple `{var}`, reserved `{+var}`, fragment
//! `{#var}`, label `{.var}`, path `{/var}`, path-parameter `{;var}`, query
//! `{?var}` and continuation `{&var}` expressions, several variables per
//! expression, the explode (`*`) and prefix (`:n`) modifiers, and string,
//! list and associative-array [`Value`]s.
//!
//! # Matching
//!
//! A URI matches when some assignment of values expands to it, so values
//! round-trip with the characters expansion leaves as they are: a `.` in a
//! simple `{title}` (`notes://a.md`), a `/` or `?` in a reserved `{+path}`.
//! Every other character must be percent-encoded, and is decoded.
//!
//! When several assignments expand to the same URI, the one returned is the
//! first in this order, so the result is predictable:
//!
//! - Variables are decided left to right. Each prefers being defined to
//!   being left out, then the longest value that still lets the rest of the
//!   URI match (`{name}.txt` on `a.b.txt` gives `name = "a.b"`)...
//! - ...except at its own expression's separator (`,` for simple, reserved
//!   and fragment expressions, `.` for labels, `/` for paths), where a value
//!   or an exploded list stops if the rest can match from there: `{+a,b}` on
//!   `x,y,z` gives `a = "x"`, `b = "y,z"`; `{x,y}` on `1,2` gives `x = "1"`,
//!   `y = "2"`; `{.a,b}` on `.x.y.z` gives `a = "x"`, `b = "y.z"`. In a
//!   named expression (`;`, `?`, `&`) an exploded list takes every member
//!   that carries its name (`{?a*,b}` on `?a=1&a=2&b=3`).
//! - A non-exploded variable matches a string, or a [`Value::List`] when its
//!   text holds unencoded `,` (never in reserved or fragment expressions,
//!   whose strings may hold a `,`). An exploded variable matches a list, or
//!   a [`Value::Assoc`] when its members are `key=value` pairs (in named
//!   expressions: when a key is not the variable's name). A non-exploded
//!   associative array cannot be told from a list and matches as one.
//! - In `{x}` and `{+x}` the empty text is `x = ""`, not an undefined `x`.
//! - Query variables (`{?a,b}`) must appear in the template's order, as
//!   expansion writes them; unknown parameters do not match.
//! - A variable used twice must have the same value at both places (a
//!   prefixed one, `{x:3}`, its first characters); this is checked after the
//!   choices above and does not backtrack into them.
//!
//! Matching is lenient where decoding is unambiguous, strict elsewhere:
//! any character may be percent-encoded (hex in either case) and non-ASCII
//! characters may appear unencoded (IRIs); but a `%` that does not start
//! percent-encoded UTF-8 (`%zz`, `%+1`, `%FF`), an ASCII character that no
//! URI may hold (a space, `"`, `<`...), or a URI over [`MAX_URI_LEN`] bytes
//! never matches. A match takes time proportional to the template's size
//! times the URI's length: there is no exponential backtracking.
//!
//! Expansion leaves percent-encoded triplets in reserved and fragment values
//! as they are (RFC 6570 section 3.2.3), so such a value matches back
//! decoded: `{+x}` with `x = "%41"` expands to `%41`, which matches `x = "A"`.

mod chars;
mod expand;
mod matcher;
mod syntax;
mod value;

use std::collections::BTreeMap;
use std::fmt;

pub use matcher::MAX_URI_LEN;
pub use syntax::{MAX_TEMPLATE_LEN, MAX_VARIABLES};
pub use value::Value;

use matcher::Program;
use syntax::{Operator, Part};

/// A parsed URI template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    source: String,
    parts: Vec<Part>,
    program: Program,
}

/// Why a template could not be parsed or expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplateError(String);

impl fmt::Display for UriTemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UriTemplateError {}

impl UriTemplate {
    /// Parses a template such as `file:///{+path}` or `weather://{city}{?units}`.
    /// Fails on anything RFC 6570 does not allow, and on templates over
    /// [`MAX_TEMPLATE_LEN`] bytes or [`MAX_VARIABLES`] variables.
    pub fn parse(source: &str) -> Result<Self, UriTemplateError> {
        let parts = syntax::parse(source)?;
        let program = Program::compile(&parts);
        Ok(UriTemplate {
            source: source.to_owned(),
            parts,
            program,
        })
    }

    /// The template text.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The variable names, in order of appearance.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts
            .iter()
            .flat_map(|part| match part {
                Part::Literal(_) => [].iter(),
                Part::Expression { vars, .. } => vars.iter(),
            })
            .map(|var| var.name.as_str())
    }

    /// Whether `name` is a query variable (`{?name}` or `{&name}`), which a
    /// URI may leave out.
    pub fn is_optional(&self, name: &str) -> bool {
        self.parts.iter().any(|part| match part {
            Part::Expression { operator, vars } => {
                matches!(operator, Operator::Query | Operator::QueryContinuation)
                    && vars.iter().any(|v| v.name == name)
            }
            Part::Literal(_) => false,
        })
    }

    /// Expands the template (RFC 6570 section 3); variables missing from
    /// `values` are undefined. Fails only when a prefix modifier (`{x:3}`)
    /// meets a list or array, which RFC 6570 forbids.
    pub fn expand(&self, values: &BTreeMap<String, Value>) -> Result<String, UriTemplateError> {
        expand::expand(&self.parts, values)
    }

    /// Matches `uri` against the template (see the crate docs for how ties
    /// are broken), returning each variable the URI defines, decoded.
    pub fn match_values(&self, uri: &str) -> Option<BTreeMap<String, Value>> {
        self.program.matches(uri)
    }

    /// Like [`match_values`](Self::match_values), with each value as one
    /// string: a list's items (an array's names and values) joined by `,`.
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        let values = self.match_values(uri)?;
        Some(
            values
                .into_iter()
                .map(|(name, value)| (name, value.into_flat_string()))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(template: &str, uri: &str) -> Option<Vec<(String, String)>> {
        UriTemplate::parse(template)
            .unwrap()
            .matches(uri)
            .map(|m| m.into_iter().collect())
    }

    fn values(template: &str, uri: &str) -> Option<Vec<(String, Value)>> {
        UriTemplate::parse(template)
            .unwrap()
            .match_values(uri)
            .map(|m| m.into_iter().collect())
    }

    fn pairs(list: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
        Some(
            list.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    fn list(items: &[&str]) -> Value {
        Value::List(items.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn simple_variables_stop_at_slashes() {
        assert_eq!(
            vars("test://template/{id}/data", "test://template/42/data"),
            pairs(&[("id", "42")])
        );
        assert_eq!(vars("users://{id}", "users://a/b"), None);
        assert_eq!(vars("users://{id}", "other://1"), None);
    }

    #[test]
    fn empty_simple_text_is_the_empty_string() {
        assert_eq!(vars("users://{id}", "users://"), pairs(&[("id", "")]));
    }

    #[test]
    fn simple_variables_keep_dots() {
        assert_eq!(
            vars("notes://{title}", "notes://a.md"),
            pairs(&[("title", "a.md")])
        );
        assert_eq!(
            vars("files://{name}.txt", "files://a.b.txt"),
            pairs(&[("name", "a.b")])
        );
    }

    #[test]
    fn reserved_variables_take_slashes() {
        assert_eq!(
            vars("file:///{+path}", "file:///a/b/c.txt"),
            pairs(&[("path", "a/b/c.txt")])
        );
        assert_eq!(
            vars("file:///{+path}/edit", "file:///a/edit/b/edit"),
            pairs(&[("path", "a/edit/b")])
        );
    }

    #[test]
    fn values_are_percent_decoded() {
        assert_eq!(
            vars("notes://{title}", "notes://caf%C3%A9%20au%20lait"),
            pairs(&[("title", "café au lait")])
        );
        assert_eq!(
            vars("notes://{title}", "notes://café"),
            pairs(&[("title", "café")])
        );
    }

    #[test]
    fn malformed_escapes_never_match() {
        for uri in [
            "notes://bad%zz",
            "notes://%+1",
            "notes://a%2",
            "notes://%FF",
            "notes://%C3",
        ] {
            assert_eq!(vars("notes://{title}", uri), None, "{uri}");
            assert_eq!(vars("notes://{+title}", uri), None, "{uri}");
        }
    }

    #[test]
    fn characters_no_uri_holds_never_match() {
        assert_eq!(vars("notes://{title}", "notes://a b"), None);
        assert_eq!(vars("notes://{+title}", "notes://a<b"), None);
    }

    #[test]
    fn query_variables_are_optional_and_ordered() {
        assert_eq!(
            vars(
                "weather://{city}{?units,lang}",
                "weather://paris?units=metric&lang=fr"
            ),
            pairs(&[("city", "paris"), ("lang", "fr"), ("units", "metric")])
        );
        assert_eq!(
            vars("weather://{city}{?units,lang}", "weather://paris?lang=fr"),
            pairs(&[("city", "paris"), ("lang", "fr")])
        );
        assert_eq!(
            vars("weather://{city}{?units}", "weather://paris"),
            pairs(&[("city", "paris")])
        );
        assert_eq!(
            vars(
                "weather://{city}{?units,lang}",
                "weather://paris?lang=fr&units=si"
            ),
            None
        );
        assert_eq!(
            vars("weather://{city}{?units}", "weather://paris?x=1"),
            None
        );
    }

    #[test]
    fn multi_variable_expressions_split_on_their_separator() {
        assert_eq!(
            vars("api://x{/a,b}", "api://x/1/2"),
            pairs(&[("a", "1"), ("b", "2")])
        );
        assert_eq!(vars("api://x{/a,b}", "api://x/1,2"), pairs(&[("a", "1,2")]));
        assert_eq!(
            values("api://x{/a,b}", "api://x/1,2"),
            Some(vec![("a".into(), list(&["1", "2"]))])
        );
        assert_eq!(
            vars("api://x{.a,b}", "api://x.1.2"),
            pairs(&[("a", "1"), ("b", "2")])
        );
        assert_eq!(
            vars("api://x{;a,b}", "api://x;a=1;b=2"),
            pairs(&[("a", "1"), ("b", "2")])
        );
        assert_eq!(
            vars("geo:{lat,lon}", "geo:1.5,2"),
            pairs(&[("lat", "1.5"), ("lon", "2")])
        );
        assert_eq!(
            vars("r://{+a,b}", "r://x,y,z"),
            pairs(&[("a", "x"), ("b", "y,z")])
        );
        assert_eq!(
            vars("r://{.a,b}", "r://.x.y.z"),
            pairs(&[("a", "x"), ("b", "y.z")])
        );
        assert_eq!(
            vars("repo://{owner}/{name}", "repo://rust-lang/rust"),
            pairs(&[("name", "rust"), ("owner", "rust-lang")])
        );
    }

    #[test]
    fn adjacent_variables_give_the_first_the_longest_value() {
        assert_eq!(
            vars("a://{x}{y}", "a://abc"),
            pairs(&[("x", "abc"), ("y", "")])
        );
        // `y` may be left out, so `x` takes everything.
        assert_eq!(vars("a://{x}{.y}", "a://a.b.c"), pairs(&[("x", "a.b.c")]));
        assert_eq!(
            vars("a://{x}.{y}", "a://a.b.c"),
            pairs(&[("x", "a.b"), ("y", "c")])
        );
    }

    #[test]
    fn exploded_variables_match_lists_and_arrays() {
        assert_eq!(
            values("p://{/segments*}", "p:///a/b/c"),
            Some(vec![("segments".into(), list(&["a", "b", "c"]))])
        );
        assert_eq!(
            values("s://x{?params*}", "s://x?a=1&b=2"),
            Some(vec![(
                "params".into(),
                Value::Assoc(vec![("a".into(), "1".into()), ("b".into(), "2".into())])
            )])
        );
        assert_eq!(
            values("s://x{?tag*}", "s://x?tag=1&tag=2"),
            Some(vec![("tag".into(), list(&["1", "2"]))])
        );
    }

    #[test]
    fn a_repeated_variable_needs_one_value() {
        assert_eq!(vars("a://{x}/{x}", "a://1/1"), pairs(&[("x", "1")]));
        assert_eq!(vars("a://{x}/{x}", "a://1/2"), None);
    }

    #[test]
    fn prefixes_bound_the_value() {
        assert_eq!(vars("a://{x:3}", "a://abc"), pairs(&[("x", "abc")]));
        assert_eq!(vars("a://{x:3}", "a://abcd"), None);
        assert_eq!(vars("a://{x:2}", "a://%C3%A9%C3%A9"), pairs(&[("x", "éé")]));
    }

    #[test]
    fn hostile_input_stays_linear() {
        let template = UriTemplate::parse("a://{+a}x{+b}x{+c}x{+d}x{+e}x{+f}y").unwrap();
        let uri = format!("a://{}", "x".repeat(MAX_URI_LEN - 4));
        let started = std::time::Instant::now();
        assert_eq!(template.matches(&uri), None);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert_eq!(
            template.matches(&format!("{uri}x")),
            None,
            "over the length limit"
        );
    }

    #[test]
    fn expansion_rejects_a_prefix_on_a_list() {
        let template = UriTemplate::parse("a://{x:2}").unwrap();
        let values = BTreeMap::from([("x".to_owned(), list(&["ab", "cd"]))]);
        assert!(template.expand(&values).is_err());
    }

    #[test]
    fn malformed_templates_are_errors() {
        for bad in [
            "a://{",
            "a://}",
            "a://{}",
            "a://{a b}",
            "a://{=x}",
            "a://{x:0}",
            "a://{x:10000}",
            "a://{x:}",
            "a://{x*:3}",
            "a://{%zz}",
            "a://{a..b}",
            "a://%zz",
            "a://%+1",
            "a:// x",
            "a://'x'",
        ] {
            assert!(UriTemplate::parse(bad).is_err(), "{bad} accepted");
        }
        assert!(UriTemplate::parse(&"a".repeat(MAX_TEMPLATE_LEN + 1)).is_err());
        let many = (0..=MAX_VARIABLES)
            .map(|i| format!("v{i}"))
            .collect::<Vec<_>>();
        assert!(UriTemplate::parse(&format!("a://{{{}}}", many.join(","))).is_err());
    }

    #[test]
    fn lists_variables() {
        let t = UriTemplate::parse("a://{x}/{+y}{?z,w}").unwrap();
        assert_eq!(t.variables().collect::<Vec<_>>(), ["x", "y", "z", "w"]);
        assert!(t.is_optional("z") && !t.is_optional("x"));
    }
}
