import Foundation
import TestSupport
import Testing

/// A check holds a segment the way `inspect` does: through a fixed window and libavformat's I/O
/// buffer, never whole (docs/security.md, "Segments in bounded memory"). The quantity asserted is
/// the bytes the process holds at its peak (`/usr/bin/time`'s maximum resident set), compared
/// between a segment and one about a thousand times its size: not time.
@Suite("hlscheck holds a segment of any size in bounded memory")
struct SegmentMemoryCommandTests {
    /// Copies of one audio segment of the Samples end to end: a valid MPEG-TS stream of
    /// `copies` × 35 KB (each copy's timestamps start again; that is a finding, not a failure).
    static func stream(copies: Int, in folder: TemporaryFolder, named name: String) throws -> String {
        let segment = try Data(contentsOf: PackageRoot.url.appendingPathComponent("Samples/compliant/audio/seg1.ts"))
        var bytes = Data(capacity: segment.count * copies)
        for _ in 0..<copies { bytes.append(segment) }
        try folder.write(bytes, to: "\(name).ts")
        let seconds = 6 * copies
        let playlist =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(seconds)\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + "#EXTINF:\(seconds).0,\n\(name).ts\n#EXT-X-ENDLIST\n"
        try folder.write(Data(playlist.utf8), to: "\(name).m3u8")
        return folder.path("\(name).m3u8")
    }

    /// The variant's measured average bit rate, from the JSON report: the segment was read to
    /// its end and measured (not refused, not unreadable).
    static func measuredAverageBitrate(_ json: String) throws -> Int {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        #expect(!diagnostics.contains { $0["rule"] as? String == "segment-unreadable" }, "\(diagnostics)")
        let variants = try #require(report["variants"] as? [[String: Any]])
        return try #require(variants.first?["measuredAverageBitrate"] as? Int)
    }

    /// The check of `playlist` as JSON, and its peak resident set in bytes, as `/usr/bin/time`
    /// measures it: `time` forks a small process that then runs hlscheck, so the figure is
    /// hlscheck's alone (a program the test process starts directly would inherit the test
    /// process's own peak in its `ru_maxrss`).
    static func checkWithPeakMemory(_ playlist: String, in folder: TemporaryFolder) async throws -> (
        json: String, peakBytes: Int
    ) {
        let measured = folder.path("rss-\(UUID().uuidString)")
        let result = try await ChildProcess.offPool { () throws(ChildProcess.Failure) -> CommandResult in
            try ChildProcess.capture(
                ["/usr/bin/time", "-f", "%M", "-o", measured, HLSCheckBinary.executable, playlist, "--format", "json"],
                in: folder.path(""), timeLimit: .seconds(300))
        }
        #expect(!result.timedOut)
        let kilobytes = try #require(
            Int(try String(contentsOfFile: measured, encoding: .utf8).split(separator: "\n").last ?? ""))
        return (result.stdout, kilobytes * 1024)
    }

    /// A 35 KB segment and a 32 MB one: the check's peak memory differs by far less than the
    /// larger segment (main read every local segment whole: 34 MB more at its peak).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")))
    func theCheckOfAHugeSegmentHoldsNoMoreThanTheCheckOfASmallOne() async throws {
        let folder = try TemporaryFolder()
        let small = try Self.stream(copies: 1, in: folder, named: "small")
        let big = try Self.stream(copies: 920, in: folder, named: "big")
        let bigBytes = try #require(
            try FileManager.default.attributesOfItem(atPath: folder.path("big.ts"))[.size] as? Int)
        let smallRun = try await Self.checkWithPeakMemory(small, in: folder)
        let bigRun = try await Self.checkWithPeakMemory(big, in: folder)
        // Both were read and measured through: copies of one segment, one bit rate.
        let smallRate = try Self.measuredAverageBitrate(smallRun.json)
        let bigRate = try Self.measuredAverageBitrate(bigRun.json)
        #expect(abs(bigRate - smallRate) * 20 < smallRate, "\(smallRate) and \(bigRate) bit/s")
        // Bounded: the window and the demuxer's buffers are the same for both; what is left is
        // the allocator's noise, a few MB. Holding the segment whole costs all of its bytes.
        let grown = bigRun.peakBytes - smallRun.peakBytes
        #expect(
            grown < bigBytes / 4,
            "a \(bigBytes)-byte segment raised the check's peak memory from \(smallRun.peakBytes) by \(grown) bytes")
    }
}
