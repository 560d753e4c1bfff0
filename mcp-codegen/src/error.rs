//! Errors of generation and drift checking. Every error names the tool and
//! the JSON pointer (within that tool's schema) where it arose.

/// Where in the input an error arose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct At {
    /// The tool's name.
    pub tool: String,
    /// Which of the tool's schemas: `inputSchema` or `outputSchema`.
    pub schema: &'static str,
    /// JSON pointer inside that schema.
    pub pointer: String,
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "tool `{}`, {} at `#{}`",
            self.tool, self.schema, self.pointer
        )
    }
}

/// Everything that can go wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A `$ref` that is not local to the document; it is never fetched.
    #[error(
        "{at}: `$ref` to `{reference}` is not local; remote references are never fetched (inline the referenced schema into `$defs`)"
    )]
    RemoteRef {
        /// Where.
        at: At,
        /// The reference as written.
        reference: String,
    },
    /// A local `$ref` that does not resolve.
    #[error("{at}: `$ref` to `{reference}` does not resolve: {reason}")]
    BadRef {
        /// Where.
        at: At,
        /// The reference as written.
        reference: String,
        /// Why.
        reason: String,
    },
    /// The work bound ([`crate::Limits::max_work`]) was exceeded: the schema
    /// expands like a bomb. (The other limits degrade instead of failing.)
    #[error(
        "{at}: {what} exceeds the limit of {limit} (raise `Limits::{field}` if the schema is legitimate)"
    )]
    Limit {
        /// Where.
        at: At,
        /// What was being counted.
        what: &'static str,
        /// The limit.
        limit: usize,
        /// The field of [`crate::Limits`] that sets it.
        field: &'static str,
    },
    /// The input is not a tools/list result.
    #[error("input is not a tools/list result: {0}")]
    Input(String),
    /// An option is invalid (e.g. a client name that is not an identifier).
    #[error("invalid option: {0}")]
    Option(String),
    /// Reading or writing a file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Reaching a live server failed.
    #[error("server: {0}")]
    Client(String),
    /// The generated code failed to parse: a bug in the generator.
    #[error("internal error: generated code does not parse ({0}); please report this schema")]
    Internal(String),
    /// A file given to `check` does not contain generated code.
    #[error("{0}")]
    NotGenerated(String),
}
