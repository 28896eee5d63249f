//! `Revision { main, sub }`: the position of one change in the store's history (§A.1).

/// `main` is the store revision of the transaction, `sub` the change's index inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Revision {
    pub main: i64,
    pub sub: i64,
}

impl Revision {
    pub const fn new(main: i64, sub: i64) -> Self {
        Revision { main, sub }
    }
}

impl std::fmt::Display for Revision {
    /// `main_sub`, e.g. `7_0`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}_{}", self.main, self.sub)
    }
}
