public import Foundation

/// A command-line tool a test runs to make its media (ffmpeg, the fixture scripts): its output
/// is discarded, and when it fails the error carries what it wrote to standard error.
public enum ToolProcess {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
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
