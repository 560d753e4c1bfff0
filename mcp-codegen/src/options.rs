//! Generation options, shared by the CLI and the `build.rs` API.

/// Bounds on the work done for one schema, so hostile input cannot exhaust
/// the stack, memory or time. Beyond `max_depth`, `max_width` or
/// `max_types`, the rest of the schema degrades to `serde_json::Value` with
/// a doc note naming the limit; only `max_work`, which stops reference
/// expansion bombs, refuses the input with [`crate::Error::Limit`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of subschemas (including `$ref` hops) followed.
    pub max_depth: usize,
    /// Most subschemas visited while mapping one tool schema (bounds the
    /// growth from `allOf` merging of references); exceeding it is an error.
    pub max_work: usize,
    /// Most named types generated for one tool schema.
    pub max_types: usize,
    /// Most values in one `enum`, members in one `oneOf`/`anyOf`, or
    /// properties in one object.
    pub max_width: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 48,
            max_work: 100_000,
            max_types: 2_000,
            max_width: 2_000,
        }
    }
}

/// Visibility of the generated items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Visibility {
    /// `pub`
    #[default]
    Public,
    /// `pub(crate)`
    Crate,
    /// Private to the module the code is included in.
    Private,
}

impl std::str::FromStr for Visibility {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "pub" => Ok(Visibility::Public),
            "pub(crate)" | "crate" => Ok(Visibility::Crate),
            "private" | "" => Ok(Visibility::Private),
            other => Err(crate::Error::Option(format!(
                "visibility `{other}`: expected `pub`, `pub(crate)` or `private`"
            ))),
        }
    }
}

/// Which traits the generated types implement.
///
/// Every type derives `Debug` and `Clone` (plus `Copy` on fieldless enums,
/// `Default` on structs whose fields are all optional). The rest is what a
/// generated module costs to compile, most of all serde's `Deserialize`
/// and the comparisons on wide types, so by default each type gets only
/// what a client uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Derives {
    /// What a client uses: `Serialize` on the types reachable from a tool's
    /// arguments, `Deserialize` on those reachable from its output (both on
    /// a type reachable from both). Without the client
    /// ([`Options::emit_client`] off) every type gets both, since the types
    /// may serve either side; the comparisons stay off.
    #[default]
    Client,
    /// `Serialize` and `Deserialize` on every type, and `PartialEq` (`Eq`
    /// and `Hash` too on fieldless enums): for code that also receives
    /// arguments or sends outputs (a server, a test double), or compares
    /// values.
    All,
}

impl std::str::FromStr for Derives {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "client" => Ok(Derives::Client),
            "all" => Ok(Derives::All),
            other => Err(crate::Error::Option(format!(
                "derives `{other}`: expected `client` or `all`"
            ))),
        }
    }
}

/// What to generate and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Name of the generated client type.
    pub client_name: String,
    /// Visibility of every generated item.
    pub visibility: Visibility,
    /// Path of the runtime crate in generated code (default `::mcp_toolkit_runtime`);
    /// change it when the crate is renamed in `Cargo.toml`.
    pub runtime_path: String,
    /// Emit the client type (and fingerprints); `false` emits only the
    /// tools' argument and output types (no prompts, templates or
    /// resources, which are client methods). Either way the code calls
    /// `mcp_toolkit_runtime::codegen`, which needs mcp-toolkit-runtime's `codegen` feature
    /// (`client` turns it on).
    pub emit_client: bool,
    /// Generate only the tools with these names (in the server's order);
    /// `None` generates every tool. A client for the few tools a program
    /// calls compiles in a fraction of the time of one for a large server.
    /// A name the server does not have is an error. Prompts and resource
    /// templates are generated either way.
    pub only: Option<Vec<String>>,
    /// Which traits the generated types implement.
    pub derives: Derives,
    /// Bounds on the work per schema.
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            client_name: "McpClient".to_owned(),
            visibility: Visibility::Public,
            runtime_path: "::mcp_toolkit_runtime".to_owned(),
            emit_client: true,
            only: None,
            derives: Derives::default(),
            limits: Limits::default(),
        }
    }
}
