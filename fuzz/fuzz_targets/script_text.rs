#![no_main]
//! See fuzz/common/mod.rs: `check_script_text`.
use libfuzzer_sys::fuzz_target;

#[path = "../common/mod.rs"]
mod common;

// Why mimalloc: fuzz/README.md.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|data: &[u8]| common::check_script_text(data));
