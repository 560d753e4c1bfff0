//! What the macros' generated code targets: how a handler's parameters are
//! read from a call (`signature`, `extract`, `text_param`) and how its
//! return value becomes a result (`into_result`, `read_result`,
//! `prompt_result`). Hand-written handlers may use the same traits.

pub(crate) mod extract;
pub(crate) mod into_result;
pub(crate) mod prompt_result;
pub(crate) mod read_result;
pub(crate) mod signature;
pub(crate) mod text_param;
