#![no_main]
//! See fuzz/common/mod.rs: `check_request`.
use libfuzzer_sys::fuzz_target;

#[path = "../common/mod.rs"]
mod common;

// Why mimalloc: fuzz/README.md.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fuzz_target!(|data: &[u8]| common::check_request(data));
