//! OAuth 2.1 as MCP uses it, the parts both sides share: the
//! `WWW-Authenticate` challenge a protected server sends and a client
//! reads, and the metadata documents that tell a client where to get a
//! token (RFC 9728 for the resource, RFC 8414 for the issuer).

pub mod challenge;
pub mod metadata;
