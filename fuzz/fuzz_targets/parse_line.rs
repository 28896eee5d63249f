#![no_main]
//! See fuzz/common/mod.rs: `check_parse_line`.
use libfuzzer_sys::fuzz_target;

#[path = "../common/mod.rs"]
mod common;

// Why mimalloc: fuzz/README.md.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|data: &[u8]| common::check_parse_line(data));
