import Foundation
import HLSCheck
import TestSupport
import Testing

/// media-end-misaligned on the subtitle and I-frame playlists of a finished stream (AS 8.7):
/// a 6-second H.264 variant the ffmpeg CLI encodes (1-second segments), an I-frame playlist
/// ffmpeg writes over 6 seconds of its own encoding (three 2-second GOPs), and a WebVTT
/// subtitle playlist written here; then one of them cut short.
@Suite struct MediaTimeRangeTests {
    /// Writes the stream into `folder` with `subtitleSegments` 1-second WebVTT segments and the
    /// I-frame playlist's first `iFrames` I-frames (of 3). Returns the multivariant playlist.
    static func stream(_ folder: TemporaryFolder, subtitleSegments: Int, iFrames: Int = 3) throws -> String {
        try EncodedStream.encode(folder, "video", seconds: 6, EncodedStream.x264 + ["-threads", "1", "-an"])
        var iFramePlaylist = try IFrameLadder.make(folder, "trick", fmp4: false)
        // Each I-frame is its EXTINF, its byte range and its URI.
        var lines = iFramePlaylist.split(separator: "\n").map(String.init)
        while lines.filter({ $0.hasPrefix("#EXTINF") }).count > iFrames,
            let last = lines.lastIndex(where: { $0.hasPrefix("#EXTINF") })
        {
            lines.removeSubrange(last..<last + 3)
        }
        iFramePlaylist = lines.joined(separator: "\n") + "\n"
        try folder.write(Data(iFramePlaylist.utf8), to: "trick/iframes.m3u8")
        var subtitles = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for index in 0..<subtitleSegments {
            try folder.write(SubtitledLadder.webVTT(index: index, bytes: 200), to: "subs/en\(index).vtt")
            subtitles += "#EXTINF:1.000,\nen\(index).vtt\n"
        }
        try folder.write(Data((subtitles + "#EXT-X-ENDLIST\n").utf8), to: "subs/en.m3u8")
        let multivariant = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="subs/en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="avc1.64000c",RESOLUTION=160x90,FRAME-RATE=25.000,SUBTITLES="subs"
            video/index.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=150000,CODECS="avc1.42c01e",RESOLUTION=128x72,URI="trick/iframes.m3u8"

            """
        try folder.write(Data(multivariant.utf8), to: "master.m3u8")
        return folder.path("master.m3u8")
    }

    static func findings(_ multivariant: String, profile: Profile = .appleIOS) async throws -> [Diagnostic] {
        try await EncodedStream.check(multivariant, profile: profile).filter { $0.rule == "media-end-misaligned" }
    }

    /// The 1-based line of the last EXTINF of the playlist at `path` in `folder`.
    static func lastExtinfLine(_ folder: TemporaryFolder, _ path: String) throws -> Int {
        let lines = try String(contentsOfFile: folder.path(path), encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.lastIndex { $0.hasPrefix("#EXTINF") }) + 1
    }

    @Test func acceptsSubtitlesAndIFramesThatLastAsLongAsTheVideo() async throws {
        let folder = try TemporaryFolder()
        let findings = try await Self.findings(try Self.stream(folder, subtitleSegments: 6))
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test func flagsASubtitlePlaylistThatEndsTwoSecondsEarly() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try Self.stream(folder, subtitleSegments: 4)
        let findings = try await Self.findings(multivariant)
        let finding = try #require(findings.first)
        #expect(findings.count == 1, "\(findings)")
        #expect(finding.location?.uri.hasSuffix("subs/en.m3u8") == true)
        #expect(finding.location?.line == (try Self.lastExtinfLine(folder, "subs/en.m3u8")))
        #expect(
            finding.message.contains(
                "this subtitle playlist covers 4.000 s by its EXTINF durations, 2.000 s less than the media of the audio or video playlist of this stream (6.000 s)"
            ), "\(finding.message)")
        // bis-22 allows a target duration's difference: Apple's requirement alone.
        #expect(try await Self.findings(multivariant, profile: .rfc8216).isEmpty)
    }

    @Test func flagsAnIFramePlaylistWithoutItsLastGroupOfPictures() async throws {
        let folder = try TemporaryFolder()
        let findings = try await Self.findings(try Self.stream(folder, subtitleSegments: 6, iFrames: 2))
        let finding = try #require(findings.first)
        #expect(findings.count == 1, "\(findings)")
        #expect(finding.location?.uri.hasSuffix("trick/iframes.m3u8") == true)
        #expect(finding.location?.line == (try Self.lastExtinfLine(folder, "trick/iframes.m3u8")))
        #expect(finding.message.contains("this I-frame playlist covers 4.000 s by its EXTINF durations, 2.000 s less"))
    }
}
