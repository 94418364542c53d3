public import Foundation

/// A command-line tool a test runs to make its media (ffmpeg, the fixture scripts): its output
/// is discarded, and when it fails the error carries what it wrote to standard error.
public enum ToolProcess {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// How a tool ended and what it wrote, standard output and standard error interleaved as
    /// it wrote them.
    public struct Transcript: Sendable {
        public var status: Int32
        public var output: String
    }

    /// The tool's path on PATH, nil when it is not installed.
    public static func locate(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `arguments` (the tool first, looked up on PATH) in `folder` and returns how it ended
    /// and everything it wrote, whatever its exit status. One pipe for both streams: a tool that
    /// fills one while the test reads the other would wait forever.
    public static func transcript(_ arguments: [String], in folder: String? = nil) throws -> Transcript {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Transcript(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    /// Runs `arguments` (the tool first, looked up on PATH) in `folder`; throws when it exits
    /// with a status other than 0.
    public static func run(_ arguments: [String], in folder: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.first ?? "the tool") failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}
