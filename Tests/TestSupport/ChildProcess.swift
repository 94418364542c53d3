import CHLSSystem
import Glibc

/// A program the tests started, on `posix_spawn`: its standard output and standard error come
/// back on pipes, read together (a `poll` loop) so that neither can fill up and stall it; its
/// standard input is `/dev/null`, a file or bytes written as it reads them; its environment is
/// exactly the one given. Every wait ends at the time limit: the program is then killed, so a
/// regression that hangs fails its test instead of stalling the suite.
///
/// Not Foundation's `Process`: swift-corelibs-foundation's `run()` lists /proc/self/fd to close
/// descriptors in the child and over-reads its buffer when the test process holds many, which
/// crashed the suite. Here the child closes everything above standard error itself
/// (`posix_spawn_file_actions_addclosefrom_np`, one system call), and the pipes are made with
/// `O_CLOEXEC`, so a program started by one test never holds another test's descriptors.
///
/// One thread uses an instance at a time. Dropping it kills and reaps a program still running.
public final class ChildProcess {
    /// What the program reads on its standard input.
    public enum Input: Sendable {
        case nullDevice
        /// A file's path (relative to the program's folder when not absolute).
        case file(String)
        case bytes([UInt8])
    }

    public enum Stream: Sendable {
        case standardOutput, standardError
    }

    /// How the program ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "killed by signal \(signal) (\(String(cString: strsignal(signal))))"
            }
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What a finished program left.
    public struct Outcome: Sendable {
        public var termination: Termination
        public var standardOutput: [UInt8]
        public var standardError: [UInt8]
        /// It outlived its time limit and was killed (`termination` is then SIGKILL).
        public var timedOut: Bool
    }

    public let processIdentifier: Int32
    /// The program and its arguments, for messages.
    public let commandLine: [String]
    private let deadline: ContinuousClock.Instant
    private var output: Int32
    private var errors: Int32
    private var input: Int32
    private var pendingInput: [UInt8]
    private var written = 0
    private var standardOutput: [UInt8] = []
    private var standardError: [UInt8] = []
    private var termination: Termination?
    private var timedOut = false

    /// Starts `executable` (looked up on this process's PATH when it holds no "/") with
    /// `arguments`, in `folder` (this process's own when nil), with exactly `environment`.
    public init(
        _ executable: String, _ arguments: [String] = [], in folder: String? = nil, environment: [String: String],
        input: Input = .nullDevice, timeLimit: Duration = .seconds(120)
    ) throws(Failure) {
        commandLine = [executable] + arguments
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        var inputPipe: [Int32] = [-1, -1]
        func closeAll() {
            for fd in outputPipe + errorPipe + inputPipe where fd >= 0 { close(fd) }
        }
        func failure(_ what: String, _ code: Int32) -> Failure {
            Failure(description: "cannot start \(executable): \(what): \(String(cString: strerror(code)))")
        }
        guard hls_pipe_cloexec(&outputPipe) == 0, hls_pipe_cloexec(&errorPipe) == 0 else {
            let code = errno
            closeAll()
            throw failure("pipe2", code)
        }
        if case .bytes = input {
            guard hls_pipe_cloexec(&inputPipe) == 0 else {
                let code = errno
                closeAll()
                throw failure("pipe2", code)
            }
            // Written only when poll says the pipe has room: a write never blocks the loop
            // that reads the program's output meanwhile.
            _ = fcntl(inputPipe[1], F_SETFL, fcntl(inputPipe[1], F_GETFL) | O_NONBLOCK)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var code: Int32 = 0
        if let folder { code = hls_spawn_add_chdir(&actions, folder) }
        if code == 0 {
            switch input {
            case .nullDevice: code = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            case .file(let path): code = posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
            case .bytes: code = posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
            }
        }
        if code == 0 { code = posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1) }
        if code == 0 { code = posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2) }
        // Descriptors other threads opened without O_CLOEXEC (libraries do) stay here.
        if code == 0 { code = hls_spawn_add_closefrom(&actions, 3) }
        // The program starts with no signal blocked and every signal at its default action,
        // whatever this process ignores (SIGPIPE, say): it behaves as it would from a shell.
        var signals = sigset_t()
        sigemptyset(&signals)
        if code == 0 { code = posix_spawnattr_setsigmask(&attributes, &signals) }
        sigfillset(&signals)
        sigdelset(&signals, SIGKILL)
        sigdelset(&signals, SIGSTOP)
        if code == 0 { code = posix_spawnattr_setsigdefault(&attributes, &signals) }
        if code == 0 {
            code = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        }
        guard code == 0 else {
            closeAll()
            throw failure("posix_spawn file actions", code)
        }

        let argv = commandLine.map { strdup($0) } + [nil]
        let environ = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + environ { free(pointer) }
        }
        var pid: pid_t = 0
        code = posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
        guard code == 0 else {
            closeAll()
            throw failure(folder.map { "in \($0)" } ?? "posix_spawnp", code)
        }
        // The child's ends belong to the child now.
        close(outputPipe[1])
        close(errorPipe[1])
        if inputPipe[0] >= 0 { close(inputPipe[0]) }
        processIdentifier = pid
        output = outputPipe[0]
        errors = errorPipe[0]
        self.input = inputPipe[1]
        if case .bytes(let bytes) = input { pendingInput = bytes } else { pendingInput = [] }
        deadline = ContinuousClock.now.advanced(by: timeLimit)
        if self.input >= 0, pendingInput.isEmpty { closeInput() }
    }

    deinit {
        if termination == nil {
            kill(processIdentifier, SIGKILL)
            reap(blocking: true)
        }
        for fd in [output, errors, input] where fd >= 0 { close(fd) }
    }

    /// Sends `signal` to the program, unless it has ended.
    public func signal(_ signal: Int32) {
        if termination == nil { kill(processIdentifier, signal) }
    }

    /// Whether the program has not ended yet (a stopped program has not).
    public var isRunning: Bool {
        if termination == nil { reap(blocking: false) }
        return termination == nil
    }

    /// Waits until the program stops (SIGSTOP, or raised by itself), reading its output
    /// meanwhile. False when it ended, or hit its time limit, first.
    public func waitUntilStopped() -> Bool {
        var stopped = false
        pump(every: .milliseconds(5)) {
            guard self.termination == nil else { return true }
            var status: Int32 = 0
            let pid = waitpid(self.processIdentifier, &status, WNOHANG | WUNTRACED)
            guard pid == self.processIdentifier else { return false }
            if status & 0xff == 0x7f {
                stopped = true
            } else {
                self.termination = Self.termination(status)
            }
            return true
        }
        return stopped
    }

    /// Reads the program's output until what `stream` holds so far satisfies `condition`, the
    /// stream ends, or the time limit passes; returns what it holds.
    @discardableResult
    public func read(_ stream: Stream, until condition: (String) -> Bool) -> String {
        func text() -> String {
            String(decoding: stream == .standardOutput ? standardOutput : standardError, as: UTF8.self)
        }
        pump { condition(text()) || (stream == .standardOutput ? self.output : self.errors) < 0 }
        return text()
    }

    /// Reads both streams to their end and waits for the program to end (killing it at the time
    /// limit).
    public func wait() -> Outcome {
        pump { self.output < 0 && self.errors < 0 }
        // A program may close its output and go on running: its end is waited for (to the limit).
        pump(every: .milliseconds(5)) {
            if self.termination == nil { self.reap(blocking: false) }
            return self.termination != nil
        }
        return Outcome(
            termination: termination ?? .signalled(SIGKILL), standardOutput: standardOutput,
            standardError: standardError, timedOut: timedOut)
    }

    /// Moves bytes between this process and the program's pipes until `done` (asked before each
    /// round), with a round at least every `interval` when given. At the time limit, kills the
    /// program and keeps what it had written.
    private func pump(every interval: Duration? = nil, until done: () -> Bool) {
        while !done() {
            var descriptors: [pollfd] = []
            for fd in [output, errors] where fd >= 0 {
                descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
            }
            if input >= 0 { descriptors.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
            // Nothing left to wait on: only a condition that polls (`interval`) may still change.
            if descriptors.isEmpty, interval == nil { return }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                expire()
                return
            }
            let wait = min(remaining, interval ?? remaining)
            let (seconds, attoseconds) = wait.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            guard ready > 0 else { continue }
            for descriptor in descriptors where descriptor.revents != 0 {
                if descriptor.fd == input {
                    writeInput()
                } else {
                    drain(descriptor.fd)
                }
            }
        }
    }

    /// One read of up to 64 KiB from the program's standard output or error; closes it at its end.
    private func drain(_ fd: Int32) {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR || errno == EAGAIN { return }
        guard count > 0 else {
            close(fd)
            if fd == output { output = -1 } else { errors = -1 }
            return
        }
        if fd == output {
            standardOutput += chunk[..<count]
        } else {
            standardError += chunk[..<count]
        }
    }

    /// Writes what the pipe has room for of the pending input; closes the pipe once all is
    /// written, or when the program stopped reading (EPIPE: it exited, or closed its input).
    private func writeInput() {
        // A write to a pipe nobody reads raises SIGPIPE, which would end the test process: it is
        // blocked on this thread around the write, and a pending one taken back.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let count = pendingInput.withUnsafeBytes { bytes in
            Glibc.write(input, bytes.baseAddress! + written, min(bytes.count - written, 64 << 10))
        }
        let code = errno
        if count > 0 {
            written += count
            if written == pendingInput.count { closeInput() }
        } else if count < 0, code != EINTR, code != EAGAIN {
            if code == EPIPE {
                var now = timespec()
                sigtimedwait(&pipeSignal, nil, &now)
            }
            closeInput()
        }
    }

    private func closeInput() {
        close(input)
        input = -1
        pendingInput = []
    }

    /// The time limit passed: kills the program, reaps it, and keeps what its pipes already hold
    /// without waiting for more (a program it started may hold them open).
    private func expire() {
        if termination == nil {
            timedOut = true
            kill(processIdentifier, SIGKILL)
            reap(blocking: true)
        }
        if input >= 0 { closeInput() }
        for stream in [Stream.standardOutput, .standardError] {
            func descriptor() -> Int32 { stream == .standardOutput ? output : errors }
            // Bounded: a program the killed one started may still be writing.
            for _ in 0..<64 {
                var ready = pollfd(fd: descriptor(), events: Int16(POLLIN), revents: 0)
                guard ready.fd >= 0, poll(&ready, 1, 0) > 0 else { break }
                drain(ready.fd)
            }
            if descriptor() >= 0 { close(descriptor()) }
            if stream == .standardOutput { output = -1 } else { errors = -1 }
        }
    }

    /// Collects the program's exit status: waits for it when `blocking`, and retries when a
    /// signal interrupts the wait.
    private func reap(blocking: Bool) {
        var status: Int32 = 0
        while true {
            let pid = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG)
            if pid == processIdentifier {
                termination = Self.termination(status)
                return
            }
            if pid < 0, errno == EINTR { continue }
            return
        }
    }

    /// WIFEXITED / WEXITSTATUS / WTERMSIG, which are macros Swift does not import.
    private static func termination(_ status: Int32) -> Termination {
        status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }
}
