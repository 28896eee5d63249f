//! The bits of Go's standard library whose exact behaviour shows in the apiserver's answers:
//! `encoding/json` error texts and escaping ([`json`]), `encoding/base64` ([`base64`]),
//! `path.Clean` ([`path`]) and `strconv` quoting and number errors ([`strconv`]). Shared by the
//! body decoder, continue tokens, Status messages and the request parser.

pub mod base64;
pub mod json;
pub mod path;
pub mod strconv;
