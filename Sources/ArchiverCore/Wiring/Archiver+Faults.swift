// Fault injection for the crash tests, compiled only into test builds (PODARCHIVE_TEST_HOOKS, see Package.swift).

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
    }
#endif
