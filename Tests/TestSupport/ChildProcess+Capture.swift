import Glibc

/// The one way tests run other programs — ffmpeg and the fixture scripts, python3 consumers, git,
/// openssl, a browser, and hlscheck itself: start the program, collect what it wrote, wait for
/// its end.
extension ChildProcess {
    /// Runs `arguments` — the program first, looked up on PATH unless `executable` names it — in
    /// `folder`, with `environment` added to (or, with `replacingEnvironment`, instead of) the
    /// test's own, standard input `input` (`/dev/null` by default). It is killed at `timeLimit`,
    /// so that a regression that hangs fails the test instead of stalling the suite.
    ///
    /// Blocks the calling thread until the program ends; an async caller gets the overload that
    /// waits off Swift concurrency's threads.
    public static func capture(
        _ arguments: [String], executable: String? = nil, in folder: String? = nil,
        environment: [String: String] = [:], replacingEnvironment: Bool = false, input: Input = .nullDevice,
        timeLimit: Duration = .seconds(120)
    ) throws(Failure) -> Outcome {
        let environment = replacingEnvironment ? environment : inheritedEnvironment.merging(environment) { $1 }
        let program: String
        var arguments = arguments
        if let executable {
            program = executable
        } else {
            guard !arguments.isEmpty else { throw Failure(description: "no program to run") }
            let name = arguments.removeFirst()
            // On the program's PATH, as a shell it was started from would look.
            program = name.utf8.contains(UInt8(ascii: "/")) ? name : locate(name, on: environment["PATH"]) ?? name
        }
        let child = try ChildProcess(
            program, arguments, in: folder, environment: environment, input: input, timeLimit: timeLimit)
        return child.wait()
    }

    /// Runs `arguments` (as `capture` does) and returns its standard output; throws, with what it
    /// wrote to standard error, when it ends with a status other than 0.
    @discardableResult
    public static func run(
        _ arguments: [String], in folder: String? = nil, environment: [String: String] = [:],
        timeLimit: Duration = .seconds(120)
    ) throws(Failure) -> String {
        let outcome = try capture(arguments, in: folder, environment: environment, timeLimit: timeLimit)
        guard outcome.termination != .exited(0) else { return outcome.stdout }
        let ending =
            outcome.timedOut ? "killed after \(timeLimit.components.seconds) s" : outcome.termination.description
        throw Failure(
            description: "\(arguments.prefix(3).joined(separator: " ")) failed (\(ending)): \(outcome.stderr)")
    }

    /// `capture` for async tests: the task waits, suspended, while the program is waited for on a
    /// thread of its own (`offPool`).
    public static func capture(
        _ arguments: [String], executable: String? = nil, in folder: String? = nil,
        environment: [String: String] = [:], replacingEnvironment: Bool = false, input: Input = .nullDevice,
        timeLimit: Duration = .seconds(120)
    ) async throws(Failure) -> Outcome {
        try await offPool { () throws(Failure) -> Outcome in
            try capture(
                arguments, executable: executable, in: folder, environment: environment,
                replacingEnvironment: replacingEnvironment, input: input, timeLimit: timeLimit)
        }
    }

    /// `run` for async tests: the task waits, suspended, while the program is waited for on a
    /// thread of its own (`offPool`).
    @discardableResult
    public static func run(
        _ arguments: [String], in folder: String? = nil, environment: [String: String] = [:],
        timeLimit: Duration = .seconds(120)
    ) async throws(Failure) -> String {
        try await offPool { () throws(Failure) -> String in
            try run(arguments, in: folder, environment: environment, timeLimit: timeLimit)
        }
    }

    /// Runs `body`, which waits for a program, on a new thread, and resumes the calling task with
    /// its result. Waiting blocks a thread for as long as the program runs (a minute, for a
    /// player), and Swift concurrency has only as many threads as cores (two on CI): an async
    /// test that held one while its program fetched from a loopback server in this process left
    /// the tests beside it one thread, or none, and in-process remote tests timed out. So every
    /// async caller of `capture` and `run` gets this overload, and only the task waits. (A
    /// synchronous helper that an async test calls still holds its thread: acceptable for a
    /// few seconds of ffmpeg, not for a program that talks to this process.)
    ///
    /// `body` runs outside the test's task, so it records no issue (`#expect`) itself: it returns
    /// what the test then judges. When no thread can be made (the process is out of them), `body`
    /// runs on the caller's.
    public static func offPool<Value: Sendable, BodyFailure: Error>(
        _ body: @escaping @Sendable () throws(BodyFailure) -> Value
    ) async throws(BodyFailure) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, BodyFailure>, Never>) in
            let started = DedicatedThread.start {
                continuation.resume(returning: Result { () throws(BodyFailure) -> Value in try body() })
            }
            if !started { continuation.resume(returning: Result { () throws(BodyFailure) -> Value in try body() }) }
        }
        return try result.get()
    }

    /// The program's path on PATH (this process's unless `path` is given), nil when it is not
    /// installed.
    public static func locate(_ program: String, on path: String? = nil) -> String? {
        let path = path ?? inheritedEnvironment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { candidate in
            var info = stat()
            return stat(candidate, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && access(candidate, X_OK) == 0
        }
    }

    /// This process's environment, as a program it starts would inherit it.
    public static var inheritedEnvironment: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}

extension ChildProcess.Outcome {
    /// The exit status, or the signal's number when a signal ended the program.
    public var status: Int32 {
        switch termination {
        case .exited(let code): code
        case .signalled(let signal): signal
        }
    }

    /// Ended by a signal: killed past its time limit (a hang, `timedOut`), or it crashed. Either
    /// way a test fails with this named; `status` is then the signal's number.
    public var killedBySignal: Bool {
        if case .signalled = termination { true } else { false }
    }

    /// Standard output as text.
    public var stdout: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as text.
    public var stderr: String { String(decoding: standardError, as: UTF8.self) }
    /// Standard output, then standard error: what a person at a terminal would read.
    public var output: String { stdout + stderr }
}

/// A POSIX thread that runs one closure and ends: for waiting on a program without holding one of
/// Swift concurrency's threads.
private final class DedicatedThread: Sendable {
    let body: @Sendable () -> Void

    private init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    /// Starts `body` on a new detached thread; false when no thread could be made.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(DedicatedThread(body)).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<DedicatedThread>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        guard code == 0 else {
            Unmanaged<DedicatedThread>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
