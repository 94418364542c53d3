import Foundation
import HLSCheck
import TestSupport
import Testing

/// I-frame playlists whose I-frames are whole resources (no EXT-X-BYTERANGE): each I-frame's
/// size is its file's, read from disk, and BANDWIDTH is judged against the peak it gives
/// (bis-22 §4.4.6.3, AS 1.27, AS 6.9).
@Suite struct IFrameWholeResourceTests {
    /// Writes `iframe0.ts` … `iframe2.ts`, each one IDR frame of H.264 128x72 taken 2 s apart,
    /// and `iframes.m3u8` listing them whole, 2 s each. Returns the files' sizes.
    static func make(_ folder: TemporaryFolder) throws -> [Int] {
        var sizes: [Int] = []
        for index in 0..<3 {
            let name = "iframe\(index).ts"
            try ChildProcess.run(
                [
                    "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                    "-ss", "\(2 * index)", "-f", "lavfi", "-i", "testsrc2=size=128x72:rate=25:duration=6",
                    "-frames:v", "1", "-c:v", "libx264", "-threads", "1", "-profile:v", "baseline",
                    "-pix_fmt", "yuv420p", "-f", "mpegts", name,
                ], in: folder.path(""))
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.path(name))
            sizes.append(try #require(attributes[.size] as? Int))
        }
        var playlist = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        playlist += "#EXT-X-I-FRAMES-ONLY\n"
        for index in 0..<3 { playlist += "#EXTINF:2.0,\niframe\(index).ts\n" }
        try folder.write(Data((playlist + "#EXT-X-ENDLIST\n").utf8), to: "iframes.m3u8")
        return sizes
    }

    static func multivariant(_ folder: TemporaryFolder, bandwidth: Int) throws -> String {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=\(bandwidth),CODECS="avc1.42c00b",RESOLUTION=128x72,URI="iframes.m3u8"

            """
        try folder.write(Data(text.utf8), to: "master.m3u8")
        return folder.path("master.m3u8")
    }

    static func findings(_ path: String, playlistOnly: Bool = false) async throws -> [Diagnostic] {
        var configuration = CheckConfiguration()
        Profile.appleIOS.configure(&configuration)
        configuration.playlistOnly = playlistOnly
        return try await Checker(configuration: configuration).check(path).diagnostics
            .filter { $0.rule == "iframe-bandwidth-mismatch" }
    }

    @Test func bandwidthIsJudgedAgainstTheWholeResourcesSizes() async throws {
        let folder = try TemporaryFolder()
        let sizes = try Self.make(folder)
        // Windows of 1 to 3.5 s (bis-22 §4.1 over a 2 s target) hold one 2 s I-frame each: the
        // peak is the largest file's bits over 2 s.
        let peak = try #require(sizes.max()) * 8 / 2

        let half = try await Self.findings(try Self.multivariant(folder, bandwidth: peak / 2))
        #expect(half.count == 1, "\(half)")
        let finding = try #require(half.first)
        #expect(finding.severity == .error)
        #expect(finding.location?.line == 4 && finding.location?.column == 27, "\(finding)")
        #expect(
            finding.message.contains("declares BANDWIDTH=\(peak / 2), but its I-frames peak at \(peak) bit/s"),
            "\(finding.message)")
        #expect(
            finding.message.contains("(the size of each I-frame's whole resource over its EXTINF)"),
            "\(finding.message)")

        let exact = try await Self.findings(try Self.multivariant(folder, bandwidth: peak))
        #expect(exact.isEmpty, "\(exact)")

        // Without reading the files their sizes are unknown: no verdict, rather than a wrong one.
        let unread = try await Self.findings(try Self.multivariant(folder, bandwidth: peak / 2), playlistOnly: true)
        #expect(unread.isEmpty, "\(unread)")
    }

    /// An I-frame resource that cannot be read is reported where its I-frame playlist names it,
    /// with why, and its I-frame playlist's bandwidth is not judged from the rest.
    @Test func anUnreadableIFrameResourceIsReportedAndNotMeasured() async throws {
        let folder = try TemporaryFolder()
        let sizes = try Self.make(folder)
        let peak = try #require(sizes.max()) * 8 / 2
        // iframe1.ts gone, iframe2.ts a FIFO nobody writes to: reading it would hang.
        try FileManager.default.removeItem(atPath: folder.path("iframe1.ts"))
        try FileManager.default.removeItem(atPath: folder.path("iframe2.ts"))
        #expect(mkfifo(folder.path("iframe2.ts"), 0o600) == 0)

        var configuration = CheckConfiguration()
        Profile.appleIOS.configure(&configuration)
        let report = try await Checker(configuration: configuration).check(
            try Self.multivariant(folder, bandwidth: peak / 4))
        let unreadable = report.diagnostics.filter { $0.rule == "segment-unreadable" }
        #expect(unreadable.map { $0.location?.line } == [8, 10], "\(unreadable)")
        #expect(unreadable.allSatisfy { $0.location?.uri.hasSuffix("iframes.m3u8") == true })
        #expect(unreadable.first?.message.contains("I-frame segment iframe1.ts: No such file") == true)
        #expect(unreadable.last?.message.contains("I-frame segment iframe2.ts: is a FIFO") == true)
        // Two of three sizes unknown: no bandwidth verdict from the one that was read.
        #expect(!report.diagnostics.contains { $0.rule == "iframe-bandwidth-mismatch" }, "\(report.diagnostics)")
    }
}
