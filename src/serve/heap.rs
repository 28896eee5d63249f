//! What `rvlab serve` asks of the C allocator, so that its resident size follows what it holds.
//!
//! Everything the server holds per watch, request, connection and line is dropped when done
//! (the engine keeps the latest ended watches only, the log is on disk), but glibc's `malloc`
//! does not give freed memory back by itself: it returns the top of its heap only past a trim
//! threshold that it raises (with the mmap threshold, up to 32 MiB) each time a large buffer
//! is freed — a 3 MiB request body once read leaves every later buffer of that size on the
//! heap — and free pages below a live allocation are never returned. Under the soak's load the
//! resident size then climbs by steps to the peak's and stays there after the clients leave,
//! though the live bytes do not grow. So the server fixes both thresholds (large buffers are
//! mapped and unmapped on their own; a free top of the heap over 128 KiB is returned) and,
//! every [`TRIM_EVERY`], hands back the free pages anywhere in the heap (`malloc_trim`).
//! Other C libraries (musl) and other systems return memory by themselves: nothing is done.

use std::time::Duration;

/// How often free heap pages are handed back to the system.
pub const TRIM_EVERY: Duration = Duration::from_secs(2);

/// Above this size a buffer gets its own mapping, given back when freed; a free top of the
/// heap larger than this is given back at once. glibc's initial value of both, kept fixed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const THRESHOLD: i32 = 128 * 1024;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    // <malloc.h>
    pub const M_TRIM_THRESHOLD: i32 = -1;
    pub const M_MMAP_THRESHOLD: i32 = -3;
    unsafe extern "C" {
        pub fn mallopt(param: i32, value: i32) -> i32;
        pub fn malloc_trim(pad: usize) -> i32;
    }
}

/// Fixes the allocator's thresholds (at start, before the server allocates much).
pub fn bound() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets allocator parameters; any value is accepted or refused (0).
    unsafe {
        glibc::mallopt(glibc::M_MMAP_THRESHOLD, THRESHOLD);
        glibc::mallopt(glibc::M_TRIM_THRESHOLD, THRESHOLD);
    }
}

/// Hands the heap's free pages back to the system.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` releases free memory only; it is safe to call at any time.
    unsafe {
        glibc::malloc_trim(0);
    }
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use super::*;

    /// Resident bytes of this process: `VmRSS` of `/proc/self/status`, which the kernel gives in
    /// kB whatever the page size (`statm` counts pages).
    fn resident() -> usize {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let kb = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).unwrap();
        kb.trim().trim_end_matches("kB").trim().parse::<usize>().unwrap() * 1024
    }

    /// Freed memory below a live allocation stays resident until [`trim`] hands it back.
    #[test]
    fn trim_hands_back_free_pages_below_live_ones() {
        const MIB: usize = 1024 * 1024;
        // 64 MiB in 4,000-byte buffers (each under the mmap threshold: on the heap), written so
        // that they are resident; every 64th stays live, so no free run reaches the heap's top.
        let mut bufs: Vec<Option<Vec<u8>>> = (0..16 * 1024).map(|i| Some(vec![i as u8 | 1; 4000])).collect();
        for (i, b) in bufs.iter_mut().enumerate() {
            if i % 64 != 0 {
                *b = None;
            }
        }
        let before = resident();
        trim();
        let after = resident();
        assert!(
            before >= after + 32 * MIB,
            "resident {} MiB before the trim, {} MiB after",
            before / MIB,
            after / MIB
        );
        assert_eq!(bufs.iter().flatten().count(), 256, "the live buffers are still there");
    }
}
