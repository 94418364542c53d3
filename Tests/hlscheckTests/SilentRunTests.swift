import Foundation
import TestSupport
import Testing

/// What a run says when its answer could go unnoticed: every report written to a file (standard
/// output would be empty), or a media playlist checked where the multivariant one was meant.
@Suite struct SilentRunTests {
    @Test func everyReportInAFileLeavesTheSummaryAndWhereTheReportsWent() throws {
        let folder = try TemporaryFolder()
        let result = try HLSCheckBinary.run([
            "Samples/no-audio-only/master.m3u8", "--root", "Samples", "--playlist-only",
            "--output", "html=\(folder.path("report.html"))", "--output", "json=\(folder.path("report.json"))",
        ])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                1 stream checked: 1 error, 0 warnings, 0 notes
                The html report is in \(folder.path("report.html"))
                The json report is in \(folder.path("report.json"))

                """)
        #expect(FileManager.default.fileExists(atPath: folder.path("report.html")))
    }

    @Test func aReportOnStandardOutputIsAllThatIsPrinted() throws {
        let folder = try TemporaryFolder()
        let result = try HLSCheckBinary.run([
            "Samples/no-audio-only/master.m3u8", "--root", "Samples", "--playlist-only",
            "--format", "json", "--output", "html=\(folder.path("report.html"))",
        ])
        #expect(result.status == 1)
        // The JSON document alone: a tool parses standard output.
        #expect(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) is [String: Any], "\(result.stdout)")
    }

    @Test func aMediaPlaylistAloneSaysWhatDidNotRunAndNamesItsMultivariantPlaylist() throws {
        let result = try HLSCheckBinary.run(["Samples/compliant/audio/index.m3u8", "--root", "Samples/compliant"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.hasPrefix(
                """
                Samples/compliant/audio/index.m3u8 is a media playlist: the checks of a multivariant playlist \
                (audio-only variant, BANDWIDTH, renditions) did not run; check Samples/compliant/master.m3u8, which references it

                """), "\(result.stdout)")
        // --quiet keeps it: it is what the run did not check.
        let quiet = try HLSCheckBinary.run([
            "Samples/compliant/v0/index.m3u8", "--root", "Samples/compliant", "--quiet", "--playlist-only",
        ])
        #expect(quiet.stdout.contains("check Samples/compliant/master.m3u8, which references it"), "\(quiet.stdout)")
    }

    @Test func aMediaPlaylistNobodyBesideItReferencesSaysSoToo() throws {
        let folder = try TemporaryFolder()
        for name in ["index.m3u8", "seg0.ts", "seg1.ts", "seg2.ts"] {
            try folder.write(
                try Data(contentsOf: PackageRoot.url.appendingPathComponent("Samples/compliant/audio/\(name)")),
                to: "audio/\(name)")
        }
        // A multivariant playlist beside it that lists other playlists is no answer.
        try folder.write(Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nother/index.m3u8\n".utf8), to: "master.m3u8")
        let result = try HLSCheckBinary.run(["audio/index.m3u8", "--playlist-only"], in: folder.url)
        #expect(
            result.stdout.contains(
                "audio/index.m3u8 is a media playlist: the checks of a multivariant playlist (audio-only variant, BANDWIDTH, renditions) did not run; check the stream's multivariant playlist for them"
            ),
            "\(result.stdout)")
        // The multivariant playlist itself gets no such sentence.
        let multivariant = try HLSCheckBinary.run(["Samples/compliant/master.m3u8", "--playlist-only"])
        #expect(!multivariant.stdout.contains("is a media playlist"))
    }
}
