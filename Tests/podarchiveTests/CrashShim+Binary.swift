// What every test that crashes the built binary needs first: the binary, built without a sanitizer whose
// interceptors would come before the library's, and the crash library itself (its absence is a failure on CI, a
// skip elsewhere).
import Foundation
import TestSupport
import XCTest

extension CrashShim {
    /// The crash library, for the built `podarchive`; skips the test where the binary cannot be crashed through it.
    static func libraryForBuiltBinary() throws -> URL {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        if let refusal = refusal(of: ProcessRunner.podarchive) { throw XCTSkip(refusal) }
        switch library {
        case .success(let built): return built
        case .failure(let problem):
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("no crash library: \(problem)") }
            throw XCTSkip("no crash library: \(problem)")
        }
    }
}
