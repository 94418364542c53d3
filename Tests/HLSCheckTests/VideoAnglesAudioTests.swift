import Foundation
import HLSCheck
import TestSupport
import Testing

/// AS 9.8 on media ffmpeg makes: two camera angles in a VIDEO group, whose segments either carry
/// the audio with the video or leave it to a separate AUDIO rendition.
@Suite struct VideoAnglesAudioTests {
    /// Writes `name/index.m3u8` over two 2-second MPEG-TS segments: H.264 128x72 video from
    /// `pattern`, with AAC audio muxed in when `audio`; or AAC alone when `video` is false.
    static func encode(_ folder: TemporaryFolder, _ name: String, pattern: String, video: Bool = true, audio: Bool)
        throws
    {
        let directory = folder.path(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var arguments = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
        if video { arguments += ["-f", "lavfi", "-i", "\(pattern)=size=128x72:rate=25:duration=4"] }
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4"] }
        if video {
            arguments += [
                "-c:v", "libx264", "-threads", "1", "-profile:v", "baseline", "-pix_fmt", "yuv420p",
                "-g", "50", "-keyint_min", "50", "-sc_threshold", "0",
            ]
        }
        if audio { arguments += ["-c:a", "aac", "-b:a", "64k", "-ac", "2"] }
        arguments += [
            "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_filename", "seg%d.ts",
            "index.m3u8",
        ]
        try ChildProcess.run(arguments, in: directory)
    }

    /// A multivariant playlist over the angles `stage/` and `crowd/` and the audio rendition `audio/`.
    static func multivariant(_ folder: TemporaryFolder) throws -> String {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="audio/index.m3u8"
            #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="cam",NAME="Stage",DEFAULT=YES,AUTOSELECT=YES,URI="stage/index.m3u8"
            #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="cam",NAME="Crowd",DEFAULT=NO,AUTOSELECT=YES,URI="crowd/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="avc1.42c00b,mp4a.40.2",RESOLUTION=128x72,VIDEO="cam",AUDIO="aac"
            stage/index.m3u8

            """
        try folder.write(Data(text.utf8), to: "master.m3u8")
        return folder.path("master.m3u8")
    }

    static func findings(_ path: String) async throws -> [Diagnostic] {
        var configuration = CheckConfiguration()
        Profile.appleIOS.configure(&configuration)
        return try await Checker(configuration: configuration).check(path).diagnostics
            .filter { $0.rule == "video-angles-audio-muxed" }
    }

    /// The declaration is right (an AUDIO group with a URI of its own), but each angle's
    /// segments carry AAC as well: read, they are reported, once per angle, at their first segment.
    @Test func anglesWhoseSegmentsCarryAudioAreReported() async throws {
        let folder = try TemporaryFolder()
        try Self.encode(folder, "stage", pattern: "testsrc2", audio: true)
        try Self.encode(folder, "crowd", pattern: "smptebars", audio: true)
        try Self.encode(folder, "audio", pattern: "", video: false, audio: true)
        let found = try await Self.findings(try Self.multivariant(folder))
        #expect(
            found.compactMap(\.location?.uri).sorted()
                == [folder.path("crowd/index.m3u8"), folder.path("stage/index.m3u8")], "\(found)")
        for finding in found {
            #expect(finding.severity == .error)
            #expect(finding.location?.line == 6, "\(finding)")
            #expect(
                finding.message.contains(
                    "segment seg0.ts carries mp4a.40.2 audio inside the video, while VIDEO group \"cam\" offers 2 angles"
                ),
                "\(finding.message)")
        }
        // The same stream under RFC 8216: not a protocol requirement.
        var configuration = CheckConfiguration()
        Profile.rfc8216.configure(&configuration)
        let rfc = try await Checker(configuration: configuration).check(folder.path("master.m3u8")).diagnostics
        #expect(!rfc.contains { $0.rule == "video-angles-audio-muxed" })
    }

    /// Angles of video alone beside the audio rendition: nothing to report, although CODECS
    /// names the rendition's AAC.
    @Test func anglesOfVideoAloneAreClean() async throws {
        let folder = try TemporaryFolder()
        try Self.encode(folder, "stage", pattern: "testsrc2", audio: false)
        try Self.encode(folder, "crowd", pattern: "smptebars", audio: false)
        try Self.encode(folder, "audio", pattern: "", video: false, audio: true)
        let found = try await Self.findings(try Self.multivariant(folder))
        #expect(found.isEmpty, "\(found)")
    }
}
