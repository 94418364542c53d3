import Foundation
import TestSupport
import Testing

/// `hlscheck embed`'s exit code tells "embed wrote something wrong" from "the ladder had old
/// findings" (docs/embed.md, "Exit code").
@Suite struct EmbedExitCodeTests {
    /// Samples/compliant with a CODECS on its first video variant that its segments do not hold
    /// (an error embed does not touch).
    static func ladderWithAnOldFinding() throws -> (TemporaryFolder, String) {
        let (folder, stream) = try EmbedCommandTests.copyOfCompliantSample()
        let multivariant = stream + "/master.m3u8"
        let text = try String(contentsOfFile: multivariant, encoding: .utf8)
        let wrong = text.replacingOccurrences(
            of: "CODECS=\"avc1.42c01e,mp4a.40.2\",RESOLUTION=256x144",
            with: "CODECS=\"avc1.640028,mp4a.40.2\",RESOLUTION=256x144")
        #expect(wrong != text)
        try Data(wrong.utf8).write(to: URL(fileURLWithPath: multivariant))
        return (folder, multivariant)
    }

    @Test func oldFindingsAreCountedAndFailOnlyWithFailOn() throws {
        let (folder, multivariant) = try Self.ladderWithAnOldFinding()
        let before = try HLSCheckBinary.run([multivariant])
        #expect(before.status == 1, "the ladder fails its own check: \(before.stdout)")

        let result = try #require(
            try EmbedCommandTests.embed([
                "--image", EmbedCommandTests.otherPoster, multivariant, "--output", folder.path("out"),
            ]))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("embedded the poster in 3 segments of audio/index.m3u8"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "1 finding was in the ladder before embed; `hlscheck check \(folder.path("out"))/master.m3u8` lists them"
            ), "\(result.stdout)")
        #expect(
            !result.stdout.contains("[codecs-mismatch]"), "the old finding is counted, not listed: \(result.stdout)")
        // The check of the copy lists it.
        let check = try HLSCheckBinary.run([folder.path("out/master.m3u8")])
        #expect(check.status == 1)
        #expect(check.stdout.contains("[codecs-mismatch]"))

        let strict = try #require(
            try EmbedCommandTests.embed([
                "--image", EmbedCommandTests.poster, multivariant, "--output", folder.path("strict"), "--fail-on",
                "error",
            ]))
        #expect(strict.status == 1, "\(strict.stdout)")
        #expect(strict.stdout.contains("1 finding was in the ladder before embed"))
    }

    @Test func aFindingInWhatEmbedWroteExits1() throws {
        let (folder, stream) = try EmbedCommandTests.copyOfCompliantSample()
        let large = EmbedCommandTests.fixtures.appendingPathComponent("poster-large.jpg").path
        // --force writes a poster the budget cannot hold: the re-check's artwork-over-budget is embed's.
        let result = try #require(
            try EmbedCommandTests.embed([
                "--image", large, stream + "/master.m3u8", "--output", folder.path("out"), "--force", "--budget-kbps",
                "48",
            ]))
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("[artwork-over-budget]"), "\(result.stdout)")
        #expect(!result.stdout.contains("in the ladder before embed"), "\(result.stdout)")
    }
}
