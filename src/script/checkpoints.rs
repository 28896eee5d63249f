//! Snapshots of a [`Session`] taken as a log runs ([`Checkpoints`]): the state after any prefix of
//! a long log (the scrubber, undo) is rebuilt from the nearest one. No upstream counterpart.

use super::session::Session;

/// Snapshots of a session taken as a log runs, so that the state after any prefix of a long
/// log (the scrubber, undo) is rebuilt from the nearest snapshot at or before it instead of by
/// replaying the whole log from its first line.
///
/// A snapshot is a deep copy of the [`Session`] (the engine holds no shared mutable state, so a
/// clone is a sandbox of its own that evolves exactly like the original). A copy costs about as
/// much as running the lines that built the state (every object is copied), so snapshots are
/// few: on the spacing ([`Checkpoints::every`] lines), at most one per batch of lines run (the
/// last spacing point the batch passes) and at most one per rebuild; when there would be more
/// than [`Checkpoints::MAX`], the spacing doubles and every other one is dropped.
///
/// Whoever owns the log says when a prefix changes ([`Checkpoints::truncate`]): lines are only
/// ever appended, or the log is cut back (undo, a fork, Play growing its last line).
#[derive(Debug, Clone)]
pub struct Checkpoints {
    every: usize,
    /// `(n, state after the first n lines)`, ascending in `n`.
    snaps: Vec<(usize, std::rc::Rc<Session>)>,
}

impl Default for Checkpoints {
    fn default() -> Self {
        Checkpoints::new(Checkpoints::EVERY)
    }
}

impl Checkpoints {
    /// The first spacing, in lines.
    pub const EVERY: usize = 128;
    /// The most snapshots kept.
    pub const MAX: usize = 16;

    /// No snapshots yet; one is taken every `every` lines (at least 1).
    pub fn new(every: usize) -> Self {
        Checkpoints { every: every.max(1), snaps: Vec::new() }
    }

    /// The current spacing in lines.
    pub fn every(&self) -> usize {
        self.every
    }

    /// The line counts that have a snapshot, ascending.
    pub fn positions(&self) -> impl Iterator<Item = usize> + '_ {
        self.snaps.iter().map(|(n, _)| *n)
    }

    /// The last spacing point in `from + 1 ..= to` (where a batch that runs those lines keeps its
    /// one snapshot), if any.
    pub fn mark_in(&self, from: usize, to: usize) -> Option<usize> {
        let m = to / self.every * self.every;
        (m > from && m > 0).then_some(m)
    }

    /// `session` has run the first `n` lines of the log: keeps a copy of it if `n` is on the
    /// spacing and not already kept.
    pub fn offer(&mut self, n: usize, session: &Session) {
        if n == 0 || !n.is_multiple_of(self.every) || self.snaps.last().is_some_and(|(m, _)| *m >= n) {
            return;
        }
        self.snaps.push((n, std::rc::Rc::new(session.clone())));
        if self.snaps.len() > Self::MAX {
            self.every *= 2;
            let every = self.every;
            self.snaps.retain(|(m, _)| m.is_multiple_of(every));
        }
    }

    /// The log changed after its first `n` lines: forgets the snapshots beyond them.
    pub fn truncate(&mut self, n: usize) {
        self.snaps.retain(|(m, _)| *m <= n);
    }

    /// The state after the first `n` lines of `lines` (`lines` is the log, at least `n` long):
    /// a copy of the nearest snapshot at or before `n`, then the lines after it run again, with
    /// the same line numbers. The last spacing point passed on the way is kept, so that the next
    /// step nearby starts from there.
    pub fn session_at<S: AsRef<str>>(
        &mut self,
        n: usize,
        lines: &[S],
        fresh: impl FnOnce() -> Session,
    ) -> Session {
        let n = n.min(lines.len());
        let (mut done, mut session) = match self.snaps.iter().rev().find(|(m, _)| *m <= n) {
            Some((m, s)) => (*m, Session::clone(s)),
            None => (0, fresh()),
        };
        let mark = self.mark_in(done, n);
        while done < n {
            session.run_line(done + 1, lines[done].as_ref());
            done += 1;
            if Some(done) == mark {
                self.offer(done, &session);
            }
        }
        session
    }
}
