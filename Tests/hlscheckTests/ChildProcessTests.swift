import Foundation
import TestSupport
import Testing

/// The runner every test starts programs with: a test that runs a program which hangs, floods
/// both streams, reads a large input or dies of a signal must see that, not stall or crash.
@Suite struct ChildProcessTests {
    static let shell = "/bin/sh"

    @Test func aProgramThatHangsIsKilledAtItsTimeLimitAndSaysSo() throws {
        let child = try ChildProcess(
            Self.shell, ["-c", "echo started; exec sleep 1000"], environment: [:], timeLimit: .milliseconds(300))
        let outcome = child.wait()
        #expect(outcome.timedOut)
        #expect(outcome.termination == .signalled(SIGKILL))
        #expect(outcome.termination.description == "killed by signal 9 (Killed)")
        #expect(outcome.stdout == "started\n", "what it wrote is kept")
        let result = try ChildProcess.capture(["sleep", "1000"], timeLimit: .milliseconds(300))
        #expect(result.timedOut && result.killedBySignal && result.status == SIGKILL)
    }

    @Test func bothStreamsBeyondAPipeBufferAreReadWithoutDeadlock() throws {
        // Standard error first: a reader that waited for standard output's end first would wait
        // for ever while the program blocks on a full standard error pipe.
        let result = try ChildProcess.capture(
            ["-c", "head -c 300000 /dev/zero | tr '\\0' e >&2; head -c 200000 /dev/zero | tr '\\0' o"],
            executable: Self.shell)
        #expect(result.status == 0 && !result.killedBySignal)
        #expect(result.stderr.utf8.count == 300_000 && result.stderr.utf8.allSatisfy { $0 == UInt8(ascii: "e") })
        #expect(result.stdout.utf8.count == 200_000 && result.stdout.utf8.allSatisfy { $0 == UInt8(ascii: "o") })
    }

    @Test func inputBytesLargerThanAPipeBufferReachTheProgram() throws {
        let bytes = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let outcome = try ChildProcess("cat", environment: [:], input: .bytes(bytes)).wait()
        #expect(outcome.termination == .exited(0))
        #expect(outcome.standardOutput == bytes)
        // A program that reads none of it: the rest is dropped, the test process lives on (no SIGPIPE).
        let ignored = try ChildProcess("true", environment: [:], input: .bytes(bytes)).wait()
        #expect(ignored.termination == .exited(0))
    }

    @Test func exitStatusesAndSignalsAreToldApart() throws {
        let exited = try ChildProcess(Self.shell, ["-c", "exit 3"], environment: [:]).wait()
        #expect(exited.termination == .exited(3))
        let signalled = try ChildProcess(Self.shell, ["-c", "kill -TERM $$"], environment: [:]).wait()
        #expect(signalled.termination == .signalled(SIGTERM))
        #expect(!signalled.timedOut)
        let result = try ChildProcess.capture(["-c", "kill -SEGV $$"], executable: Self.shell)
        #expect(result.killedBySignal && result.status == SIGSEGV && !result.timedOut)
    }

    @Test func theEnvironmentFolderAndInputAreExactlyTheOnesGiven() throws {
        let folder = try TemporaryFolder(["input.txt": "from a file\n"])
        let environment = try ChildProcess("/usr/bin/env", environment: ["ONLY": "this"]).wait()
        #expect(environment.stdout == "ONLY=this\n")
        let located = try ChildProcess(
            Self.shell, ["-c", "pwd; cat"], in: folder.url.path, environment: [:], input: .file("input.txt")
        ).wait()
        let realFolder = try #require(realpath(folder.url.path, nil))
        defer { free(realFolder) }
        #expect(
            located.stdout == "\(String(cString: realFolder))\nfrom a file\n")
        let empty = try ChildProcess("cat", environment: [:]).wait()
        #expect(empty.termination == .exited(0) && empty.standardOutput.isEmpty, "standard input is /dev/null")
    }

    @Test func theProgramInheritsNoDescriptorButItsThreeStreams() throws {
        let folder = try TemporaryFolder(["held.txt": "x"])
        // Opened without O_CLOEXEC, as some libraries do.
        let held = open(folder.path("held.txt"), O_RDONLY)
        #expect(held > 2)
        defer { close(held) }
        let outcome = try ChildProcess(Self.shell, ["-c", "ls /proc/$$/fd"], environment: [:]).wait()
        let descriptors = outcome.stdout.split(separator: "\n")
        #expect(descriptors == ["0", "1", "2"], "\(descriptors)")
    }

    @Test func aStoppedProgramIsSeenStoppedReadWhileItRunsAndResumed() throws {
        let child = try ChildProcess(
            Self.shell, ["-c", "echo waiting >&2; kill -STOP $$; echo resumed"], environment: [:])
        #expect(child.read(.standardError) { $0.contains("\n") } == "waiting\n")
        #expect(child.waitUntilStopped())
        #expect(child.isRunning)
        child.signal(SIGCONT)
        let outcome = child.wait()
        #expect(outcome.termination == .exited(0))
        #expect(outcome.stdout == "resumed\n")
        #expect(!child.isRunning)
    }

    @Test func runReturnsStandardOutputAndThrowsWithStandardErrorWhenTheProgramFails() throws {
        #expect(try ChildProcess.run([Self.shell, "-c", "echo out; echo note >&2"]) == "out\n")
        #expect {
            try ChildProcess.run([Self.shell, "-c", "echo out; echo why >&2; exit 4"])
        } throws: { error in
            "\(error)" == "/bin/sh -c echo out; echo why >&2; exit 4 failed (exit status 4): why\n"
        }
    }

    /// Async tests wait for their programs without holding Swift concurrency's threads (as many
    /// as cores): four times as many programs as cores, each waiting until every one of them has
    /// started, finish only when no waiting one holds a thread that the others' task needs. The
    /// programs and the task meet through two FIFOs, so nothing polls: each program says it has
    /// started in `started`, and waits for its line in `go`, which the task writes once all
    /// have started.
    @Test func programsWaitedForOffThePoolLeaveItsThreadsFree() async throws {
        let folder = try TemporaryFolder()
        let count = 4 * ProcessInfo.processInfo.activeProcessorCount
        for name in ["started", "go"] { try #require(mkfifo(folder.path(name), 0o600) == 0) }
        // Held open for reading and writing, so that no program's open of either FIFO blocks.
        let started = open(folder.path("started"), O_RDWR | O_CLOEXEC)
        let go = open(folder.path("go"), O_RDWR | O_CLOEXEC)
        defer {
            close(started)
            close(go)
        }
        try #require(started >= 0 && go >= 0)
        let outcomes = try await withThrowingTaskGroup(of: ChildProcess.Outcome?.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await ChildProcess.capture(
                        [Self.shell, "-c", "printf x > started; read line < go"], in: folder.url.path,
                        timeLimit: .seconds(60))
                }
            }
            // On the pool: runs only while some thread of it is free.
            group.addTask {
                var byte: UInt8 = 0
                for _ in 0..<count { try #require(read(started, &byte, 1) == 1) }
                let lines = [UInt8](repeating: 0x0A, count: count)
                try #require(write(go, lines, lines.count) == lines.count)
                return nil
            }
            return try await group.reduce(into: [ChildProcess.Outcome]()) { if let outcome = $1 { $0.append(outcome) } }
        }
        #expect(outcomes.count == count)
        #expect(outcomes.allSatisfy { $0.termination == .exited(0) && !$0.timedOut }, "\(outcomes.map(\.termination))")
    }

    @Test func aProgramThatIsNotInstalledIsNamed() {
        #expect {
            _ = try ChildProcess("hlscheck-no-such-program", environment: [:])
        } throws: { error in
            "\(error)" == "cannot start hlscheck-no-such-program: posix_spawnp: No such file or directory"
        }
    }
}
