// The hook the doubles of ArchiverCoreTesting report an unscripted request through: here, it fails the test.
import XCTest

/// Fails the running test with the double's description of a request nobody scripted.
let failOnUnexpected: @Sendable (String) -> Void = { call in XCTFail(call) }
