// The feed's validators, kept beside the index (`<feed folder>/.podarchive/feed.json`): what a conditional fetch
// of the feed sends back, and whether the run that saved them left work a `304` would hide. Rewritten atomically.
import Foundation

/// `<feed folder>/.podarchive/feed.json`: the feed's ETag and Last-Modified, sent back as
/// `If-None-Match` / `If-Modified-Since` on the next sync.
struct FeedValidators: Codable, Equatable, Sendable {
    /// The feed's last `ETag`, sent back as `If-None-Match`.
    public var etag: String?
    /// The feed's last `Last-Modified`, sent back as `If-Modified-Since`.
    public var lastModified: String?
    /// True when the run that saved these left some of what the feed lists undone (episodes outside its filter,
    /// artwork that failed, a failure whose URL's secret only the feed holds), or when something since changed what
    /// the show wants (`forget --undo`, see `FeedValidators.readInFullNextTime`): the next run then fetches the feed in
    /// full, since a `304` would hide that work.
    public var incomplete: Bool?
    /// True when all the run left undone is what its filter left out (`incomplete` is then set for earlier
    /// versions, which fetch in full as before): a run that wants the same (`wants`) trusts a `304`, since an
    /// unchanged document leaves the same episodes out.
    public var leftOutOnly: Bool?
    /// The fingerprint of what the run that saved these wanted (its filter and companions, see `FeedWants`): a run
    /// that wants something else fetches the feed in full once. Absent in records of earlier versions: the first
    /// run of this one fetches in full.
    public var wants: String?
    /// How many episodes the feed listed when it was last read in full: what an unchanged feed still lists.
    public var listed: Int?
    /// Set when a journal with a torn or damaged record was folded since (see `readInFullNextTime`): the next sync
    /// that reads the feed in full takes back from the folder the files of every episode the feed lists and the
    /// index does not hold, those its filter leaves out included (what the record held may be one of them). Absent
    /// in records of earlier versions; 0.1.0 ignores it (it reads `incomplete`, set with it, and reads in full).
    public var rederive: Bool?
    /// True when that run also wrote sidecars (`--metadata`): a run that wants them and finds this unset
    /// fetches the feed in full, to describe what is already archived.
    public var sidecars: Bool?
    /// Archive documents (RFC 5005) of this feed already read in full: never fetched again.
    public var archives: [String]?
    /// Where each of those links to (its `prev-archive`; "" at the end of the chain), so a walk goes past them
    /// without fetching them. Absent for archives recorded by an earlier version: a walk then ends at them.
    public var archiveLinks: [String: String]?
    /// A page link that was refused (not http(s)) on the last run, so the warning is given once.
    public var refusedPage: String?
    /// When the feed was last fetched in full (RFC 3339): the last time its episodes were seen.
    public var fetched: String?
    /// The digest of what the feed last said of its episodes (see `FeedRevision`): a document that says the
    /// same is no new revision of the history.
    public var revision: String?
    /// True when the show's own facts (its author, its cover) were taken from the document these validators stand
    /// for: by the run that read it in full, or by a run answered `304` from the document the history keeps as
    /// current (once, for an archive of an earlier version, which keeps neither): no later `304` reads that document
    /// again, nor tries again a cover that failed. Absent in records of earlier versions.
    public var showRead: Bool?
    /// How many runs in a row that read the feed in full could not fetch the show's cover (see
    /// `triesCoverNextRun`). Absent when the last such run did not fail; 0.1.0 ignores it.
    public var artworkFailures: Int?

    /// Whether a cover that `failures` runs in a row could not fetch is tried again by the next run, which reads the
    /// feed in full for it: after the first two; after the third it is tried again when the feed changes (a cover URL
    /// that is gone for good costs no full read and no line every night).
    static func triesCoverNextRun(afterFailures failures: Int) -> Bool { failures < 3 }

    /// Validators as the server sent them.
    public init(etag: String?, lastModified: String?) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether a conditional fetch with these is safe for a run that wants `wants`: the run that saved them
    /// wanted the same (its filter, its companions, sidecars if these are wanted) and left nothing else undone.
    func covers(_ wants: FeedWants) -> Bool {
        (incomplete != true || leftOutOnly == true) && self.wants == wants.fingerprint
            && (!wants.metadata || sidecars == true)
    }

    /// The mark that makes the next sync of the show whose state folder is `stateFolder` read its feed in full:
    /// its saved validators marked `incomplete` (kept otherwise: the archive documents already read stay read),
    /// written durably. A show without saved validators is read in full anyway: nothing is written. A sync that
    /// reads the feed in full saves validators of its own, which clears the mark; one that fails first keeps it.
    /// Every version that reads `incomplete` (0.1.0 does) reads the feed in full on seeing it: no new state.
    /// With `rederive`, what a folded journal record held is to be taken back from the folder (see `rederive`).
    static func readInFullNextTime(
        _ record: RecordFile<FeedValidators>, files: any FileStore, writer: any AtomicFileWriting,
        rederive: Bool = false
    ) throws {
        guard record.exists(files) else { return }
        // Validators that do not decode are no validators: the next sync asks in full; they go, so it does.
        guard var validators = record.load(files) else { return try record.remove(files) }
        // A mark of "only the filter left work" would still let a 304 stand (`covers`): it becomes a full mark.
        guard
            validators.incomplete != true || validators.leftOutOnly == true || (rederive && validators.rederive != true)
        else { return }
        validators.incomplete = true
        validators.leftOutOnly = nil
        if rederive { validators.rederive = true }
        try record.save(validators, writer, as: .intent)
    }
}

extension ShowState {
    /// The feed's validators: a hint, rewritten by each sync that reads the feed in full; the mark that makes the
    /// next one read it in full (`readInFullNextTime`) is written `.intent`.
    var validators: RecordFile<FeedValidators> { record(ArchiveLayout.validatorsFile, .hint) }
}
