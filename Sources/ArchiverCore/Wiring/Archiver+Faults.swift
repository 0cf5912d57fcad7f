// Fault injection for the crash tests, compiled only into test builds (PODARCHIVE_TEST_HOOKS, see Package.swift).
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if PODARCHIVE_TEST_HOOKS
    extension Archiver {
        /// This archiver calling `hook` with the name of each dangerous moment a sync or repair reaches
        /// (`before-rename`, `after-rename`, `before-fold`), so a crash test can kill the process there.
        /// Test builds only: the shipped binary has no such call.
        public func injectingFaults(_ hook: @escaping @Sendable (String) -> Void) -> Archiver {
            let faults: @Sendable (FaultPoint) -> Void = { hook($0.rawValue) }
            var copy = self
            copy.parts.placer.faults = faults
            copy.parts.companions.placer.faults = faults
            copy.parts.verifier.placer.faults = faults
            return copy
        }

        /// The live archiver, which kills the process at `point` when one is named, so the crash tests can prove
        /// that dying there loses nothing (the names of `injectingFaults`, and those of `CrashPoints.writer`).
        /// With no point it is `live(fetcher:)`.
        public static func live(fetcher: FeedSession, crashingAt point: String?) -> Archiver {
            guard let point else { return live(fetcher: fetcher) }
            return live(fetcher: fetcher, writer: CrashPoints.writer(dyingAt: point)).injectingFaults { name in
                if name == point { CrashPoints.die() }
            }
        }
    }

    /// Where a test build kills itself among the durable writes.
    enum CrashPoints {
        static func die() { kill(getpid(), SIGKILL) }

        /// The durable writer, which kills the process at `point`: `index-write` (any whole write of the index),
        /// `fold-write` (one that folds a journal), `journal-append`, `record-write` (a download record that names
        /// where its body goes: the last write before the rename).
        static func writer(dyingAt point: String) -> DurableFileWriter {
            DurableFileWriter(
                beforeRename: { url in
                    guard url.lastPathComponent == ArchiveLayout.indexFile else { return }
                    let journal = IndexJournal.url(besideIndex: url)
                    if point == "index-write"
                        || (point == "fold-write" && FileManager.default.fileExists(atPath: journal.path))
                    {
                        die()
                    }
                },
                midWrite: { url, data in
                    if point == "journal-append", url.lastPathComponent == ArchiveLayout.journalFile { die() }
                    if point == "record-write", ArchiveNames.isDownloadRecord(url.lastPathComponent),
                        String(decoding: data, as: UTF8.self).contains("\"target\"")
                    {
                        die()
                    }
                })
        }
    }
#endif
