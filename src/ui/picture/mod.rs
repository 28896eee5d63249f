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
//! - [`rows`]: the watch rows and the watch cache bands — each label beside its mark, on the
//!   label line or under the row, meeting no line, mark or other label.
//! - [`lanes`]: the key lanes and their labels (gutter, or above the bar on a phone), the keys
//!   beyond the limit in one fold that opens them.
//! - [`chips`]: the system view's timer chips, flowed over lines; the soonest get a chip.
//! - [`watches`]: which watches get a row, which are counted in a summary that opens them.
//! - [`text`]: cutting and breaking text (no line starts with a comma, 中文 or English).

pub mod axis;
pub mod chips;
pub mod lanes;
pub mod marks;
pub mod place;
pub mod reads;
pub mod rows;
pub mod text;
pub mod watches;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod lanes_tests;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod rows_tests;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod watches_tests;

pub use marks::{Mark, MarkKind, marks};
pub use place::{CompactionRow, GAP, Lines, beside, compaction_row, estimate_width};
pub use reads::{Overflow, Placed, ReadsLayout, Slot, chip_text, layout_reads};
