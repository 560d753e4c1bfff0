//! The examples of RFC 6570: the level table of section 1.2 and the
//! expression examples of section 3.2, written out from the RFC's text.
//! Each one must expand as the RFC says; each expansion must match back to
//! values that expand to it again; and where the expansion can only come
//! from the example's own values, matching must return exactly those.

use std::collections::BTreeMap;

use mcp_toolkit_uri_template::{UriTemplate, Value};

/// The variables of section 3.2 (a superset of section 1.2's).
fn variables() -> BTreeMap<String, Value> {
    let list = |items: &[&str]| Value::List(items.iter().map(|s| s.to_string()).collect());
    let pairs = |pairs: &[(&str, &str)]| {
        Value::Assoc(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    };
    let mut vars: BTreeMap<String, Value> = [
        ("dub", "me/too"),
        ("hello", "Hello World!"),
        ("half", "50%"),
        ("var", "value"),
        ("who", "fred"),
        ("base", "http://example.com/home/"),
        ("path", "/foo/bar"),
        ("v", "6"),
        ("x", "1024"),
        ("y", "768"),
        ("empty", ""),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), Value::from(v)))
    .collect();
    vars.insert("count".into(), list(&["one", "two", "three"]));
    vars.insert("dom".into(), list(&["example", "com"]));
    vars.insert("list".into(), list(&["red", "green", "blue"]));
    vars.insert(
        "keys".into(),
        pairs(&[("semi", ";"), ("dot", "."), ("comma", ",")]),
    );
    vars.insert("empty_keys".into(), Value::Assoc(Vec::new()));
    vars
}

/// Section 1.2, all four levels.
const LEVELS: &[(&str, &str)] = &[
    // Level 1
    ("{var}", "value"),
    ("{hello}", "Hello%20World%21"),
    // Level 2
    ("{+var}", "value"),
    ("{+hello}", "Hello%20World!"),
    ("{+path}/here", "/foo/bar/here"),
    ("here?ref={+path}", "here?ref=/foo/bar"),
    ("X{#var}", "X#value"),
    ("X{#hello}", "X#Hello%20World!"),
    // Level 3
    ("map?{x,y}", "map?1024,768"),
    ("{x,hello,y}", "1024,Hello%20World%21,768"),
    ("{+x,hello,y}", "1024,Hello%20World!,768"),
    ("{+path,x}/here", "/foo/bar,1024/here"),
    ("{#x,hello,y}", "#1024,Hello%20World!,768"),
    ("{#path,x}/here", "#/foo/bar,1024/here"),
    ("X{.var}", "X.value"),
    ("X{.x,y}", "X.1024.768"),
    ("{/var}", "/value"),
    ("{/var,x}/here", "/value/1024/here"),
    ("{;x,y}", ";x=1024;y=768"),
    ("{;x,y,empty}", ";x=1024;y=768;empty"),
    ("{?x,y}", "?x=1024&y=768"),
    ("{?x,y,empty}", "?x=1024&y=768&empty="),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{&x,y,empty}", "&x=1024&y=768&empty="),
    // Level 4
    ("{var:3}", "val"),
    ("{var:30}", "value"),
    ("{list}", "red,green,blue"),
    ("{list*}", "red,green,blue"),
    ("{keys}", "semi,%3B,dot,.,comma,%2C"),
    ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
    ("{+path:6}/here", "/foo/b/here"),
    ("{+list}", "red,green,blue"),
    ("{+list*}", "red,green,blue"),
    ("{+keys}", "semi,;,dot,.,comma,,"),
    ("{+keys*}", "semi=;,dot=.,comma=,"),
    ("{#path:6}/here", "#/foo/b/here"),
    ("{#list}", "#red,green,blue"),
    ("{#list*}", "#red,green,blue"),
    ("{#keys}", "#semi,;,dot,.,comma,,"),
    ("{#keys*}", "#semi=;,dot=.,comma=,"),
    ("X{.var:3}", "X.val"),
    ("X{.list}", "X.red,green,blue"),
    ("X{.list*}", "X.red.green.blue"),
    ("X{.keys}", "X.semi,%3B,dot,.,comma,%2C"),
    ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
    ("{/var:1,var}", "/v/value"),
    ("{/list}", "/red,green,blue"),
    ("{/list*}", "/red/green/blue"),
    ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
    ("{/keys}", "/semi,%3B,dot,.,comma,%2C"),
    ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
    ("{;hello:5}", ";hello=Hello"),
    ("{;list}", ";list=red,green,blue"),
    ("{;list*}", ";list=red;list=green;list=blue"),
    ("{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"),
    ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
    ("{?var:3}", "?var=val"),
    ("{?list}", "?list=red,green,blue"),
    ("{?list*}", "?list=red&list=green&list=blue"),
    ("{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"),
    ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
    ("{&var:3}", "&var=val"),
    ("{&list}", "&list=red,green,blue"),
    ("{&list*}", "&list=red&list=green&list=blue"),
    ("{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"),
    ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
];

/// Section 3.2.1 to 3.2.9.
const EXPRESSIONS: &[(&str, &str)] = &[
    // 3.2.1 Variable expansion
    ("{count}", "one,two,three"),
    ("{count*}", "one,two,three"),
    ("{/count}", "/one,two,three"),
    ("{/count*}", "/one/two/three"),
    ("{;count}", ";count=one,two,three"),
    ("{;count*}", ";count=one;count=two;count=three"),
    ("{?count}", "?count=one,two,three"),
    ("{?count*}", "?count=one&count=two&count=three"),
    ("{&count*}", "&count=one&count=two&count=three"),
    // 3.2.2 Simple string expansion
    ("{var}", "value"),
    ("{hello}", "Hello%20World%21"),
    ("{half}", "50%25"),
    ("O{empty}X", "OX"),
    ("O{undef}X", "OX"),
    ("{x,y}", "1024,768"),
    ("{x,hello,y}", "1024,Hello%20World%21,768"),
    ("?{x,empty}", "?1024,"),
    ("?{x,undef}", "?1024"),
    ("?{undef,y}", "?768"),
    ("{var:3}", "val"),
    ("{var:30}", "value"),
    ("{list}", "red,green,blue"),
    ("{list*}", "red,green,blue"),
    ("{keys}", "semi,%3B,dot,.,comma,%2C"),
    ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
    // 3.2.3 Reserved expansion
    ("{+var}", "value"),
    ("{+hello}", "Hello%20World!"),
    ("{+half}", "50%25"),
    ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
    ("{+base}index", "http://example.com/home/index"),
    ("O{+empty}X", "OX"),
    ("O{+undef}X", "OX"),
    ("{+path}/here", "/foo/bar/here"),
    ("here?ref={+path}", "here?ref=/foo/bar"),
    ("up{+path}{var}/here", "up/foo/barvalue/here"),
    ("{+x,hello,y}", "1024,Hello%20World!,768"),
    ("{+path,x}/here", "/foo/bar,1024/here"),
    ("{+path:6}/here", "/foo/b/here"),
    ("{+list}", "red,green,blue"),
    ("{+list*}", "red,green,blue"),
    ("{+keys}", "semi,;,dot,.,comma,,"),
    ("{+keys*}", "semi=;,dot=.,comma=,"),
    // 3.2.4 Fragment expansion
    ("{#var}", "#value"),
    ("{#hello}", "#Hello%20World!"),
    ("{#half}", "#50%25"),
    ("foo{#empty}", "foo#"),
    ("foo{#undef}", "foo"),
    ("{#x,hello,y}", "#1024,Hello%20World!,768"),
    ("{#path,x}/here", "#/foo/bar,1024/here"),
    ("{#path:6}/here", "#/foo/b/here"),
    ("{#list}", "#red,green,blue"),
    ("{#list*}", "#red,green,blue"),
    ("{#keys}", "#semi,;,dot,.,comma,,"),
    ("{#keys*}", "#semi=;,dot=.,comma=,"),
    // 3.2.5 Label expansion with dot-prefix
    ("{.who}", ".fred"),
    ("{.who,who}", ".fred.fred"),
    ("{.half,who}", ".50%25.fred"),
    ("www{.dom*}", "www.example.com"),
    ("X{.var}", "X.value"),
    ("X{.empty}", "X."),
    ("X{.undef}", "X"),
    ("X{.var:3}", "X.val"),
    ("X{.list}", "X.red,green,blue"),
    ("X{.list*}", "X.red.green.blue"),
    ("X{.keys}", "X.semi,%3B,dot,.,comma,%2C"),
    ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
    ("X{.empty_keys}", "X"),
    ("X{.empty_keys*}", "X"),
    // 3.2.6 Path segment expansion
    ("{/who}", "/fred"),
    ("{/who,who}", "/fred/fred"),
    ("{/half,who}", "/50%25/fred"),
    ("{/who,dub}", "/fred/me%2Ftoo"),
    ("{/var}", "/value"),
    ("{/var,empty}", "/value/"),
    ("{/var,undef}", "/value"),
    ("{/var,x}/here", "/value/1024/here"),
    ("{/var:1,var}", "/v/value"),
    ("{/list}", "/red,green,blue"),
    ("{/list*}", "/red/green/blue"),
    ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
    ("{/keys}", "/semi,%3B,dot,.,comma,%2C"),
    ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
    // 3.2.7 Path-style parameter expansion
    ("{;who}", ";who=fred"),
    ("{;half}", ";half=50%25"),
    ("{;empty}", ";empty"),
    ("{;v,empty,who}", ";v=6;empty;who=fred"),
    ("{;v,bar,who}", ";v=6;who=fred"),
    ("{;x,y}", ";x=1024;y=768"),
    ("{;x,y,empty}", ";x=1024;y=768;empty"),
    ("{;x,y,undef}", ";x=1024;y=768"),
    ("{;hello:5}", ";hello=Hello"),
    ("{;list}", ";list=red,green,blue"),
    ("{;list*}", ";list=red;list=green;list=blue"),
    ("{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"),
    ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
    // 3.2.8 Form-style query expansion
    ("{?who}", "?who=fred"),
    ("{?half}", "?half=50%25"),
    ("{?x,y}", "?x=1024&y=768"),
    ("{?x,y,empty}", "?x=1024&y=768&empty="),
    ("{?x,y,undef}", "?x=1024&y=768"),
    ("{?var:3}", "?var=val"),
    ("{?list}", "?list=red,green,blue"),
    ("{?list*}", "?list=red&list=green&list=blue"),
    ("{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"),
    ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
    // 3.2.9 Form-style query continuation
    ("{&who}", "&who=fred"),
    ("{&half}", "&half=50%25"),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{&x,y,empty}", "&x=1024&y=768&empty="),
    ("{&var:3}", "&var=val"),
    ("{&list}", "&list=red,green,blue"),
    ("{&list*}", "&list=red&list=green&list=blue"),
    ("{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"),
    ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
];

/// Examples whose expansion only the example's own values produce (up to
/// the prefix modifier, which the expected values below already apply).
const UNAMBIGUOUS: &[&str] = &[
    "{var}",
    "{hello}",
    "{half}",
    "{+var}",
    "{+hello}",
    "{+half}",
    "{+path}/here",
    "here?ref={+path}",
    "{+base}index",
    "{base}index",
    "X{#var}",
    "{#hello}",
    "{x,y}",
    "map?{x,y}",
    "{x,hello,y}",
    "?{x,empty}",
    "{#x,hello,y}",
    "X{.var}",
    "X{.x,y}",
    "{.who}",
    "{.half,who}",
    "{/var}",
    "{/who,dub}",
    "{/var,x}/here",
    "{/var,empty}",
    "{;x,y}",
    "{;x,y,empty}",
    "{;v,empty,who}",
    "{?x,y}",
    "{?x,y,empty}",
    "?fixed=yes{&x}",
    "{&x,y,empty}",
    "{var:3}",
    "{+path:6}/here",
    "{#path:6}/here",
    "{/var:1,var}",
    "{;hello:5}",
    "{?var:3}",
    "{list}",
    "{/list}",
    "{/list*}",
    "{/list*,path:4}",
    "X{.list*}",
    "{;list}",
    "{;list*}",
    "{?list*}",
    "{&list*}",
    "{keys*}",
    "{/keys*}",
    "{;keys*}",
    "{?keys*}",
    "{&keys*}",
    "{/count*}",
    "{;count*}",
    "www{.dom*}",
];

fn check_expansion(template: &str, expected: &str) {
    let parsed = UriTemplate::parse(template).unwrap_or_else(|e| panic!("{template}: {e}"));
    let vars = variables();
    assert_eq!(
        parsed.expand(&vars).unwrap(),
        expected,
        "expanding {template}"
    );

    let matched = parsed
        .match_values(expected)
        .unwrap_or_else(|| panic!("{expected} does not match {template}"));
    assert_eq!(
        parsed.expand(&matched).unwrap(),
        expected,
        "{template}: the values matched from {expected} ({matched:?}) expand differently"
    );

    if UNAMBIGUOUS.contains(&template) {
        let wanted: BTreeMap<String, Value> = parsed
            .variables()
            .filter_map(|name| {
                let value = vars.get(name)?.clone();
                Some((name.to_owned(), truncate(template, name, value)))
            })
            .collect();
        assert_eq!(matched, wanted, "matching {expected} against {template}");
    }
}

/// The value a prefixed variable (`{name:n}`) shows in its expansion; in
/// `{/var:1,var}` the full value wins, since both occurrences must agree.
fn truncate(template: &str, name: &str, value: Value) -> Value {
    let Value::String(text) = &value else {
        return value;
    };
    let marker = format!("{name}:");
    match template.find(&marker) {
        Some(at) if !template.contains(&format!(",{name}}}")) => {
            let digits: String = template[at + marker.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let n: usize = digits.parse().unwrap();
            Value::String(text.chars().take(n).collect())
        }
        _ => value,
    }
}

#[test]
fn section_1_2_level_examples() {
    for (template, expected) in LEVELS {
        check_expansion(template, expected);
    }
}

#[test]
fn section_3_2_expression_examples() {
    for (template, expected) in EXPRESSIONS {
        check_expansion(template, expected);
    }
}

#[test]
fn every_unambiguous_example_is_listed_once_and_exists() {
    for template in UNAMBIGUOUS {
        assert!(
            LEVELS.iter().chain(EXPRESSIONS).any(|(t, _)| t == template),
            "{template} is not an RFC example here"
        );
    }
}
