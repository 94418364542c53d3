import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Attacks on what the hurried session added (lazy libraries, the staging folder of a new
/// `--output`, discovery's kept bytes), through the real binary: each ends in a clear message
/// or the right result, never a crash, a hang or someone's files removed.
@Suite("Adversarial input (CLI)")
struct AdversarialInputTests {
    static let poster = PackageRoot.url.appendingPathComponent("Samples/poster.jpg").path

    func run(_ arguments: [String], in folder: URL = PackageRoot.url, environment: [String: String] = [:]) throws -> CommandResult {
        let result = try HLSCheckBinary.run(arguments, in: folder, timeout: 120, environment: environment)
        #expect(!result.killedBySignal, "hlscheck \(arguments) crashed or hung: \(result.stderr.suffix(500))")
        return result
    }

    /// A copy of Samples/compliant at `stream/` in a fresh folder.
    func compliantCopy() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(
            at: PackageRoot.url.appendingPathComponent("Samples/compliant"), to: folder.url.appendingPathComponent("stream"))
        return folder
    }

    // MARK: embed --output: the staging folder's clean-up

    /// A run that finds a folder whose name merely looks like a staging folder's must not take
    /// it for the leftover of a dead run: only what embed marked as its own is removed.
    @Test func aUsersFolderNamedLikeAStagingFolderIsLeftAlone() throws {
        let folder = try compliantCopy()
        let lookalike = folder.path(".out.hlscheck-embed-backup.tmp")
        try folder.write(Data("precious\n".utf8), to: ".out.hlscheck-embed-backup.tmp/thesis.txt")
        let result = try run(["embed", "--image", Self.poster, folder.path("stream/master.m3u8"), "--output", folder.path("out")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("out/master.m3u8")))
        #expect(try String(contentsOfFile: lookalike + "/thesis.txt", encoding: .utf8) == "precious\n", "the user's folder was removed")
        #expect(!result.stderr.contains("interrupted run"), "\(result.stderr)")
        // Nothing of the run itself is left beside the copy.
        let beside = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(beside == [".out.hlscheck-embed-backup.tmp", "out", "stream"])
    }
}
