import Foundation
import HTTPTestServer
import TestSupport
import Testing

/// An I-frame playlist whose EXT-X-BYTERANGE runs past the end of its resource: a player that
/// seeks there gets nothing, so it is `segment-unreadable`, as the same range in a media
/// playlist is — for a local stream and a remote one.
@Suite("I-frame byte ranges past their resource")
struct IFrameRangeCommandTests {
    /// A 2-second H.264 variant in one MPEG-TS file, and an I-frame playlist whose second
    /// I-frame's range starts at the file's end. Returns the folder and the file's size.
    static func stream() throws -> (TemporaryFolder, Int) {
        let folder = try TemporaryFolder()
        try ChildProcess.run(
            [
                "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                "-f", "lavfi", "-i", "testsrc2=size=128x72:rate=25:duration=2",
                "-c:v", "libx264", "-threads", "1", "-profile:v", "baseline", "-pix_fmt", "yuv420p",
                "-g", "25", "-f", "mpegts", "v.ts",
            ], in: folder.path(""))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: folder.path("v.ts"))[.size] as? Int)
        let master = """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.42c00b",RESOLUTION=128x72
            video.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.42c00b",RESOLUTION=128x72,URI="iframes.m3u8"

            """
        let video =
            "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + "#EXTINF:2.0,\nv.ts\n#EXT-X-ENDLIST\n"
        // Line 9: the EXTINF of the I-frame whose range lies past the end.
        let iFrames =
            "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + "#EXT-X-I-FRAMES-ONLY\n#EXTINF:1.0,\n#EXT-X-BYTERANGE:1000@376\nv.ts\n"
            + "#EXTINF:1.0,\n#EXT-X-BYTERANGE:1000@\(size)\nv.ts\n#EXT-X-ENDLIST\n"
        try folder.write(Data(master.utf8), to: "master.m3u8")
        try folder.write(Data(video.utf8), to: "video.m3u8")
        try folder.write(Data(iFrames.utf8), to: "iframes.m3u8")
        return (folder, size)
    }

    /// The `segment-unreadable` findings of a JSON report located in iframes.m3u8.
    static func iFrameFindings(_ json: String) throws -> [[String: Any]] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return ((report["diagnostics"] as? [[String: Any]]) ?? []).filter {
            $0["rule"] as? String == "segment-unreadable"
                && (($0["location"] as? [String: Any])?["uri"] as? String ?? "").hasSuffix("iframes.m3u8")
        }
    }

    @Test func reportsALocalIFrameRangePastItsFile() async throws {
        let (folder, size) = try Self.stream()
        let result = try await HLSCheckBinary.run([folder.path("master.m3u8"), "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let findings = try Self.iFrameFindings(result.stdout)
        #expect(findings.count == 1, "\(result.stdout)")
        let finding = try #require(findings.first)
        #expect((finding["location"] as? [String: Any])?["line"] as? Int == 9, "\(finding)")
        #expect(
            (finding["message"] as? String ?? "").contains("byte range 1000@\(size) lies beyond the end of the file"),
            "\(finding)")
    }

    @Test func reportsARemoteIFrameRangePastItsResource() async throws {
        let (folder, _) = try Self.stream()
        let server = try await HTTPTestServer(folder: folder.url.path)
        let result: CommandResult
        do {
            result = try await HLSCheckBinary.run([server.url("master.m3u8"), "--format", "json"])
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
        #expect(result.status == 1, "\(result.stderr)")
        let findings = try Self.iFrameFindings(result.stdout)
        #expect(findings.count == 1, "\(result.stdout)")
        #expect(((findings.first?["location"] as? [String: Any])?["line"] as? Int) == 9, "\(findings)")
    }
}
