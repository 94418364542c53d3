import Foundation
import TestSupport

/// What a run of the `hlscheck` binary left.
typealias CommandResult = ChildProcess.Outcome

/// Runs the real `hlscheck` binary that `swift test` built, from the package root.
enum HLSCheckBinary {
    /// The test bundle sits next to the products of the same build; `HLSCHECK_BINARY` names
    /// another (`HLSCHECK_BINARY=.build/release/hlscheck swift test --filter hlscheckTests` runs
    /// the command-line scenarios against the release build).
    static var executable: String {
        if let chosen = ProcessInfo.processInfo.environment["HLSCHECK_BINARY"], !chosen.isEmpty {
            return URL(fileURLWithPath: chosen, relativeTo: PackageRoot.url).standardizedFileURL.path
        }
        let bundleFolder = URL(fileURLWithPath: Bundle.main.bundlePath)
        let besideBundle = bundleFolder.appendingPathComponent("hlscheck")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle.path }
        return PackageRoot.url.appendingPathComponent(".build/debug/hlscheck").path
    }

    /// The debug build's `HLSCHECK_TEST_*_AT_STEP` hook (kill/stop `embed` at a write step) is
    /// compiled out of release builds: tests that need it run against the binary `swift test` built.
    static var hasWriteStepHook: Bool {
        (ProcessInfo.processInfo.environment["HLSCHECK_BINARY"] ?? "").isEmpty
    }

    /// Runs the binary; it is killed at `timeLimit` so that a regression that hangs (a FIFO read,
    /// say) fails the test instead of stalling the suite.
    static func run(
        _ arguments: [String], in folder: URL = PackageRoot.url, timeLimit: Duration = .seconds(120),
        environment: [String: String] = [:]
    ) throws(ChildProcess.Failure) -> CommandResult {
        // A test run inside GitHub Actions must not append to the real job summary.
        var inherited = ProcessInfo.processInfo.environment
        inherited["GITHUB_STEP_SUMMARY"] = nil
        // Text fits COLUMNS when it is set: a test that wants a width says so.
        inherited["COLUMNS"] = nil
        return try ChildProcess.capture(
            arguments, executable: executable, in: folder.path, environment: inherited.merging(environment) { $1 },
            replacingEnvironment: true, timeLimit: timeLimit)
    }

    /// `run` for async tests, waiting off Swift concurrency's threads (`ChildProcess.offPool`).
    static func run(
        _ arguments: [String], in folder: URL = PackageRoot.url, timeLimit: Duration = .seconds(120),
        environment: [String: String] = [:]
    ) async throws(ChildProcess.Failure) -> CommandResult {
        try await ChildProcess.offPool { () throws(ChildProcess.Failure) -> CommandResult in
            try run(arguments, in: folder, timeLimit: timeLimit, environment: environment)
        }
    }
}
