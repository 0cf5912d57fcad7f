// `podarchive credentials [--move]` as one call: where each show's secrets are kept, after taking those an earlier
// podarchive kept inside the archive out of it when asked.
import Foundation

/// What `credentials` is asked.
public struct CredentialsRequest: Sendable {
    /// The archive.
    public var root: URL
    /// Take the secrets kept inside the archive out of it, into the configuration folder, first.
    public var move: Bool

    /// A request for `root`.
    public init(root: URL, move: Bool = false) {
        self.root = root
        self.move = move
    }
}

/// Where the secrets of an archive's shows are, after a move when one was asked.
public struct CredentialsReport: Sendable, Equatable {
    /// What the move did, when one was asked.
    public var moved: CredentialMove?
    /// The configuration folder's credentials folder the secrets were moved to.
    public var movedTo: URL?
    /// Each show with a secret, by folder name, and where its secrets are.
    public var places: [Place] = []
    /// The shows whose move was not finished (killed, or a file could not be cleaned), by folder name.
    public var unfinished: [String] = []

    /// One show's secrets.
    public struct Place: Sendable, Equatable {
        /// The show's folder name.
        public var folder: String
        /// Where its secrets are.
        public var place: SecretsPlace
    }

    /// `feedFailed` when a show's secrets are nowhere podarchive can read, else `success`.
    public var status: RunStatus {
        places.contains { if case .missing = $0.place { true } else { false } } ? .feedFailed : .success
    }
}

/// `credentials`, made of the archiver.
struct CredentialsRunner: Sendable {
    let engine: any SyncEngine

    func run(_ request: CredentialsRequest) async -> CommandOutcome<CredentialsReport> {
        await .of(
            {
                var report = CredentialsReport()
                if request.move {
                    guard let folder = engine.credentialsFolder else { throw CredentialError.noFolder }
                    report.moved = try await engine.moveCredentials(in: request.root, lockWait: 0)
                    report.movedTo = folder
                }
                report.places = engine.subscriptions(in: request.root).shows
                    .filter { $0.holdsSecrets || $0.hasCredentials || $0.secretFeed == true }
                    .map {
                        CredentialsReport.Place(folder: $0.folder, place: engine.secretsPlace(of: $0, in: request.root))
                    }
                report.unfinished = engine.pendingMoves(in: request.root)
                return report
            }, status: \.status)
    }
}
