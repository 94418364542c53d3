import Foundation
import TestSupport

/// Runs the real `hlscheck` binary that `swift test` built, from the package root.
struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// Ended by a signal: the watchdog stopped a run past the test's time limit (a hang), or
    /// it crashed. Either way the test fails with this named.
    var killedBySignal = false
}

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
        _ arguments: [String], in folder: URL = PackageRoot.url, timeout: TimeInterval = 120, environment: [String: String] = [:]
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable
        // A test run inside GitHub Actions must not append to the real job summary.
        var inherited = ProcessInfo.processInfo.environment
        inherited["GITHUB_STEP_SUMMARY"] = nil
        // Text fits COLUMNS when it is set: a test that wants a width says so.
        inherited["COLUMNS"] = nil
        process.environment = inherited.merging(environment) { $1 }
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let watchdog = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        // Read both pipes before waiting, so a large report cannot fill a pipe and deadlock.
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self), killedBySignal: process.terminationReason == .uncaughtSignal)
    }
}

/// Compares with a golden file under Tests/hlscheckTests/Golden; `HLSCHECK_UPDATE_GOLDEN=1`
/// rewrites the golden file instead (review the diff before committing it).
func matchesGolden(_ actual: String, _ name: String) throws -> Bool {
    let url = PackageRoot.url.appendingPathComponent("Tests/hlscheckTests/Golden/\(name)")
    if ProcessInfo.processInfo.environment["HLSCHECK_UPDATE_GOLDEN"] == "1" {
        try Data(actual.utf8).write(to: url)
        return true
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    return expected == actual
}
