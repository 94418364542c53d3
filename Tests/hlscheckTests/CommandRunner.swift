import Foundation
import TestSupport

/// What a run of the `hlscheck` binary left.
typealias CommandResult = ToolProcess.Result

/// Runs the real `hlscheck` binary that `swift test` built, from the package root.
enum HLSCheckBinary {
    /// The test bundle sits next to the products of the same build; `HLSCHECK_BINARY` names
    /// another (`HLSCHECK_BINARY=.build/release/hlscheck swift test --filter hlscheckTests` runs
    /// the command-line scenarios against the release build).
    static var executable: URL {
        if let chosen = ProcessInfo.processInfo.environment["HLSCHECK_BINARY"], !chosen.isEmpty {
            return URL(fileURLWithPath: chosen, relativeTo: PackageRoot.url).standardizedFileURL
        }
        let bundleFolder = URL(fileURLWithPath: Bundle.main.bundlePath)
        let besideBundle = bundleFolder.appendingPathComponent("hlscheck")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        return PackageRoot.url.appendingPathComponent(".build/debug/hlscheck")
    }

    /// The debug build's `HLSCHECK_TEST_*_AT_STEP` hook (kill/stop `embed` at a write step) is
    /// compiled out of release builds: tests that need it run against the binary `swift test` built.
    static var hasWriteStepHook: Bool {
        (ProcessInfo.processInfo.environment["HLSCHECK_BINARY"] ?? "").isEmpty
    }

    /// Runs the binary; a watchdog kills it after `timeout` seconds so that a regression that
    /// hangs (a FIFO read, say) fails the test instead of stalling the suite.
    static func run(
        _ arguments: [String], in folder: URL = PackageRoot.url, timeout: TimeInterval = 120,
        environment: [String: String] = [:]
    ) throws -> CommandResult {
        // A test run inside GitHub Actions must not append to the real job summary.
        var inherited = ProcessInfo.processInfo.environment
        inherited["GITHUB_STEP_SUMMARY"] = nil
        // Text fits COLUMNS when it is set: a test that wants a width says so.
        inherited["COLUMNS"] = nil
        return try ToolProcess.capture(
            arguments, executable: executable, in: folder, environment: inherited.merging(environment) { $1 },
            replacingEnvironment: true, timeout: timeout)
    }
}
