public import Foundation

/// The one way tests run other programs: ffmpeg and the fixture scripts, python3 consumers,
/// git, openssl, a browser, and hlscheck itself.
public enum ToolProcess {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What a finished program left.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// Ended by a signal: the watchdog stopped a run past its time limit (a hang), or it
        /// crashed. Either way a test fails with this named.
        public var killedBySignal = false

        public init(status: Int32, stdout: String, stderr: String, killedBySignal: Bool = false) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
            self.killedBySignal = killedBySignal
        }

        /// Standard output, then standard error: what a person at a terminal would read.
        public var output: String { stdout + stderr }
    }

    /// The program's path on PATH, nil when it is not installed.
    public static func locate(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Runs `arguments` — the program first, looked up on PATH unless `executable` names it — in
    /// `folder`, with `environment` added to (or, with `replacingEnvironment`, instead of) the
    /// test's own, standard input empty. A watchdog kills it after `timeout` seconds, so that a
    /// regression that hangs fails the test instead of stalling the suite.
    public static func capture(
        _ arguments: [String], executable: URL? = nil, in folder: URL? = nil, environment: [String: String] = [:],
        replacingEnvironment: Bool = false, timeout: TimeInterval = 120
    ) throws -> Result {
        let process = Process()
        if let executable {
            process.executableURL = executable
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
        }
        if replacingEnvironment {
            process.environment = environment
        } else if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let folder { process.currentDirectoryURL = folder }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try ProcessLaunch.run(process)
        let watchdog = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        defer { watchdog.cancel() }
        // Standard error is drained on another thread while standard output is read here, so
        // that neither pipe can fill up and stall the program.
        let errors = ErrorDrain(err.fileHandleForReading)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: errors.wait(), as: UTF8.self),
            killedBySignal: process.terminationReason == .uncaughtSignal)
    }

    /// `capture` on a thread of its own, for async tests: waiting for the program never holds
    /// one of the few threads Swift concurrency runs on, which a server the program talks to (a
    /// loopback test server) and the other tests need meanwhile.
    public static func captureOffPool(
        _ arguments: [String], executable: URL? = nil, in folder: URL? = nil, environment: [String: String] = [:],
        replacingEnvironment: Bool = false, timeout: TimeInterval = 120
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Swift.Result {
                        try capture(
                            arguments, executable: executable, in: folder, environment: environment,
                            replacingEnvironment: replacingEnvironment, timeout: timeout)
                    })
            }
        }
    }

    /// Runs `arguments` in `folder` and returns its standard output; throws, with what it wrote
    /// to standard error, when it exits with a status other than 0.
    @discardableResult
    public static func run(_ arguments: [String], in folder: String? = nil, environment: [String: String] = [:]) throws
        -> String
    {
        let result = try capture(arguments, in: folder.map { URL(fileURLWithPath: $0) }, environment: environment)
        guard result.status == 0 else {
            throw Failure(
                description: "\(arguments.prefix(3).joined(separator: " ")) failed (\(result.status)): \(result.stderr)"
            )
        }
        return result.stdout
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        // The thread writes `data` once, before it signals; `wait` reads it only after.
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}

/// Starts every process the tests start, one at a time: swift-corelibs-foundation's
/// `Process.run()` crashed in its own copying (a bad pointer in memcpy) while many test threads
/// started programs at once. Only the start is serialised; the programs run side by side.
public enum ProcessLaunch {
    private static let lock = NSLock()

    public static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }
}
