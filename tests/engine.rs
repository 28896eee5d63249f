//! Native smoke test of the engine crate.
use rvlab::clock::{Clock, Duration};

#[test]
fn clock_moves_only_when_advanced() {
    let mut c = Clock::new();
    assert_eq!(c.now().0, 0);
    c.advance(Duration::parse("61s").unwrap());
    assert_eq!(c.now().0, 61_000);
}
