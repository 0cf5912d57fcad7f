// The moments of a sync where the crash tests make the process die, to prove a crash there loses nothing.
// Test builds only (PODARCHIVE_TEST_HOOKS, see Package.swift): the shipped binary has neither the points nor the
// calls that reach them.

#if PODARCHIVE_TEST_HOOKS
    /// A dangerous moment of a sync.
    enum FaultPoint: String, Sendable {
        /// The download is complete and checked; the rename into place is next.
        case beforeRename = "before-rename"
        /// The file is in place; the index does not list it yet.
        case afterRename = "after-rename"
        /// Archived episodes are in the journal; folding it into the index is next.
        case beforeFold = "before-fold"
    }
#endif
