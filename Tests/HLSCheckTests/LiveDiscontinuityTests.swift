import Foundation
import HLSCheck
import TestSupport
import Testing

/// discontinuities-misaligned on live windows that carry no date: six 1-second MPEG-TS
/// segments the ffmpeg CLI encodes with one timeline, listed by two live variant playlists
/// whose windows start at different segments. The break is placed by the media timestamps the
/// inspector reads from the segments around it.
@Suite struct LiveDiscontinuityTests {
    /// A live playlist over `segments` (indices into ffmpeg's index0.ts…index5.ts), its first
    /// media sequence number the first index, with EXT-X-DISCONTINUITY before `breakBefore`.
    static func live(_ segments: ClosedRange<Int>, breakBefore: Int?) -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(segments.lowerBound)\n"
        for index in segments {
            if index == breakBefore { text += "#EXT-X-DISCONTINUITY\n" }
            text += "#EXTINF:1.000000,\nindex\(index).ts\n"
        }
        return text
    }

    /// The findings of discontinuities-misaligned on variants a (segments 0–5, the break before
    /// segment 3) and b as given.
    static func findings(_ b: String) async throws -> (findings: [Diagnostic], b: String) {
        let folder = try TemporaryFolder()
        try EncodedStream.encode(folder, "media", seconds: 6, EncodedStream.x264 + ["-threads", "1", "-an"])
        try folder.write(Data(live(0...5, breakBefore: 3).utf8), to: "media/a.m3u8")
        try folder.write(Data(b.utf8), to: "media/b.m3u8")
        let multivariant = try EncodedStream.multivariant(
            folder,
            [
                ("BANDWIDTH=300000,CODECS=\"avc1.64000c\"", "media/a.m3u8"),
                ("BANDWIDTH=200000,CODECS=\"avc1.64000c\"", "media/b.m3u8"),
            ])
        let report = try await EncodedStream.check(multivariant, profile: .appleIOS)
        return (report.filter { $0.rule == "discontinuities-misaligned" }, b)
    }

    /// The line of segment `index`'s EXTINF in `playlist`.
    static func extinfLine(of index: Int, in playlist: String) throws -> Int {
        let lines = playlist.split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0 == "index\(index).ts" })
    }

    @Test func acceptsTheSameBreakInAWindowThatStartsLater() async throws {
        let (findings, _) = try await Self.findings(Self.live(1...5, breakBefore: 3))
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test func flagsTheSameBreakTwoSegmentsLater() async throws {
        let (findings, b) = try await Self.findings(Self.live(1...5, breakBefore: 5))
        let finding = try #require(findings.first)
        #expect(findings.count == 1, "\(findings)")
        #expect(finding.location?.uri.hasSuffix("media/b.m3u8") == true)
        #expect(finding.location?.line == (try Self.extinfLine(of: 5, in: b)))
        #expect(finding.message.contains("discontinuity 1 comes at media timestamp"))
        #expect(finding.message.contains("s in media/a.m3u8"))
    }

    @Test func flagsAWindowThatPlaysThroughTheBreak() async throws {
        let (findings, b) = try await Self.findings(Self.live(2...5, breakBefore: nil))
        let finding = try #require(findings.first)
        #expect(findings.count == 1, "\(findings)")
        #expect(finding.location?.line == (try Self.extinfLine(of: 5, in: b)))
        #expect(finding.message.contains("the segments before discontinuity 1 run to media timestamp"))
        #expect(finding.message.contains("every variant and rendition breaks at the same points of the content"))
    }
}
