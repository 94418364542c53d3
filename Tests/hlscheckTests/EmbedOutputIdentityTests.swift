import Foundation
import Testing
import TestSupport

/// `hlscheck embed` writes the same bytes it wrote before segments were streamed and embed's
/// passes were merged: the checksums of every file of the written streams — the three
/// samples (MPEG-TS, packed audio, fMP4), with --output and --in-place — were recorded with
/// the code of main before that change (Golden/embed-output-checksums.txt). The names of the
/// rewritten segments (and so the playlists naming them) follow `SegmentName`'s fingerprint.
struct EmbedOutputIdentityTests {
    static func sha256Lines(in folder: URL) throws -> String {
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { path in
            var isDirectory: ObjCBool = false
            let hidden = (path as NSString).lastPathComponent.hasPrefix(".")
            return !hidden
                && FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return try ChildProcess.run(["sha256sum"] + files, in: folder.path)
    }

    @Test func embedWritesTheBytesItWroteBefore() throws {
        let poster = PackageRoot.url.appendingPathComponent("Tests/MediaInspectionTests/Fixtures/poster.jpg").path
        var report = ""
        for mode in ["output", "in-place"] {
            for sample in ["compliant", "packed-audio", "fmp4"] {
                let folder = try TemporaryFolder()
                let input = folder.url.appendingPathComponent("in")
                try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
                for copied in ["compliant", "packed-audio", "fmp4"] {
                    try FileManager.default.copyItem(
                        at: PackageRoot.url.appendingPathComponent("Samples/\(copied)"),
                        to: input.appendingPathComponent(copied))
                }
                let multivariant = input.appendingPathComponent("\(sample)/master.m3u8").path
                let written = folder.url.appendingPathComponent(mode == "output" ? "out" : "in")
                let destination = mode == "output" ? ["--output", written.path] : ["--in-place"]
                let result = try HLSCheckBinary.run(
                    ["embed", "--image", poster, "--root", folder.url.path, multivariant] + destination)
                report += "# \(mode) \(sample) exit \(result.status)\n" + (try Self.sha256Lines(in: written))
            }
        }
        try Golden.expect(report, matches: "Tests/hlscheckTests/Golden/embed-output-checksums.txt")
    }
}
