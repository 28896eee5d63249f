#![no_main]
//! See fuzz/common/surfaces.rs: `check_serve_config`.
use libfuzzer_sys::fuzz_target;

#[path = "../common/mod.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::surfaces::check_serve_config(data));
