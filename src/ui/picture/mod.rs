//! The pictures' layout as plain Rust, compiled and tested on the host as well as in the
//! browser (no Yew, no DOM): which read mark goes where on the timeline, which marks do not fit
//! and are counted in a visible "+N" mark that opens them, and where a label goes so that it
//! meets no other label, mark or line. The Yew views (`ui::timeline`, `ui::system`) only draw
//! what these functions return, with the widths the browser measured.
//!
//! - [`axis`]: the revision axis both pictures share (window, width, folds).
//! - [`marks`]: the reads a session's outputs carry (lists, continue tokens, refusals).
//! - [`place`]: interval packing and placing a label beside its mark.
//! - [`reads`]: the reads row — every mark drawn or inside an overflow group.

pub mod axis;
pub mod marks;
pub mod place;
pub mod reads;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

pub use marks::{Mark, MarkKind, marks};
pub use place::{CompactionRow, GAP, Lines, beside, compaction_row, estimate_width};
pub use reads::{Overflow, Placed, ReadsLayout, Slot, chip_text, layout_reads};
