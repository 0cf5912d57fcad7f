// What a command that makes one report came to: the report, or the error that stopped it, and the status the
// process ends with, decided with the report (its `status`) or by the error (`RunStatus.of`).
import Foundation

/// What a command over the archive came to: its report, or the error that stopped it, and the status.
public struct CommandOutcome<Report: Sendable>: Sendable {
    /// The report, or the error that stopped the command.
    public var result: Result<Report, any Error>
    /// How the command ends the process.
    public var status: RunStatus

    /// `report`, ending with `status`.
    public init(_ report: Report, status: RunStatus) {
        result = .success(report)
        self.status = status
    }

    /// Stopped by `error` (`RunStatus(for:)`), or by the run being stopped (`cancelled`: `interrupted`).
    public init(failure error: any Error, cancelled: Bool = false) {
        result = .failure(error)
        status = .of(error, cancelled: cancelled)
    }

    /// What `body` returns, with the status `status` gives it; or the error it throws.
    static func of(_ body: () async throws -> Report, status: (Report) -> RunStatus) async -> CommandOutcome {
        do {
            let report = try await body()
            return CommandOutcome(report, status: status(report))
        } catch {
            return CommandOutcome(failure: error)
        }
    }
}
