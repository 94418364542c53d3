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
        /// Ended by a signal: killed past its time limit (a hang, `timedOut`), or it crashed.
        /// Either way a test fails with this named; `status` is then the signal's number.
        public var killedBySignal = false
        /// Killed because it outlived its time limit.
        public var timedOut = false

        public init(
            status: Int32, stdout: String, stderr: String, killedBySignal: Bool = false, timedOut: Bool = false
        ) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
            self.killedBySignal = killedBySignal
            self.timedOut = timedOut
        }

        init(_ outcome: ChildProcess.Outcome) {
            let status: Int32
            switch outcome.termination {
            case .exited(let code): status = code
            case .signalled(let signal): status = signal
            }
            self.init(
                status: status, stdout: String(decoding: outcome.standardOutput, as: UTF8.self),
                stderr: String(decoding: outcome.standardError, as: UTF8.self),
                killedBySignal: { if case .signalled = outcome.termination { true } else { false } }(),
                timedOut: outcome.timedOut)
        }

        /// Standard output, then standard error: what a person at a terminal would read.
        public var output: String { stdout + stderr }
    }

    /// The program's path on PATH (this process's unless `path` is given), nil when it is not
    /// installed.
    public static func locate(_ program: String, on path: String? = nil) -> String? {
        let path = path ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Runs `arguments` — the program first, looked up on PATH unless `executable` names it — in
    /// `folder`, with `environment` added to (or, with `replacingEnvironment`, instead of) the
    /// test's own, standard input `input` (empty by default). It is killed after `timeout`
    /// seconds, so that a regression that hangs fails the test instead of stalling the suite.
    public static func capture(
        _ arguments: [String], executable: URL? = nil, in folder: URL? = nil, environment: [String: String] = [:],
        replacingEnvironment: Bool = false, input: ChildProcess.Input = .nullDevice, timeout: TimeInterval = 120
    ) throws -> Result {
        let environment =
            replacingEnvironment ? environment : ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let program: String
        var arguments = arguments
        if let executable {
            program = executable.path
        } else {
            guard !arguments.isEmpty else { throw Failure(description: "no program to run") }
            let name = arguments.removeFirst()
            // On the program's PATH, as a shell it was started from would look.
            program = name.contains("/") ? name : locate(name, on: environment["PATH"]) ?? name
        }
        let child = try ChildProcess(
            program, arguments, in: folder?.path, environment: environment, input: input,
            timeLimit: .milliseconds(Int64(timeout * 1000)))
        return Result(child.wait())
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
        let limit: TimeInterval = 120
        let result = try capture(
            arguments, in: folder.map { URL(fileURLWithPath: $0) }, environment: environment, timeout: limit)
        guard result.status == 0, !result.killedBySignal else {
            let ending =
                result.timedOut
                ? "killed after \(Int(limit)) s"
                : result.killedBySignal ? "signal \(result.status)" : "\(result.status)"
            throw Failure(
                description: "\(arguments.prefix(3).joined(separator: " ")) failed (\(ending)): \(result.stderr)")
        }
        return result.stdout
    }
}
