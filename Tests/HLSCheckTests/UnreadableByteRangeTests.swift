import Foundation
import HLSCheck
import HLSPlaylist
import Testing
import TestSupport

/// A segment whose EXT-X-BYTERANGE cannot be read is a hole in the measurement, never the whole
/// file measured in its place: which bytes are the segment is unknown.
@Suite struct UnreadableByteRangeTests {
    static func stream(range: String) throws -> TemporaryFolder {
        let segment = try Data(contentsOf: PackageRoot.url.appendingPathComponent("Samples/compliant/audio/seg0.ts"))
        let folder = try TemporaryFolder([
            "audio.m3u8": """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:6
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:6.0,
            #EXT-X-BYTERANGE:\(segment.count)@0
            all.ts
            #EXTINF:6.0,
            #EXT-X-BYTERANGE:\(range)
            all.ts
            #EXT-X-ENDLIST

            """
        ])
        try (segment + segment).write(to: folder.url.appendingPathComponent("all.ts"))
        return folder
    }

    @Test(arguments: ["99999999999999999999@0", "12x@0", "9223372036854775000@9223372036854775000"])
    func theSegmentIsUnreadableAndNothingIsMeasuredFromTheWholeFile(_ range: String) async throws {
        let folder = try Self.stream(range: range)
        let report = try await Checker().check(folder.path("audio.m3u8"))
        let unreadable = report.diagnostics.filter { $0.rule == "segment-unreadable" }
        #expect(unreadable.count == 1, "\(report.diagnostics)")
        #expect(unreadable.first?.location?.line == 8)  // the segment, at its EXTINF
        #expect(unreadable.first?.message.contains("its EXT-X-BYTERANGE (line 9) could not be read") == true)
        #expect(report.diagnostics.contains { $0.rule == "playlist-syntax" && $0.location?.line == 9 })
        // One segment measured: the file's 2 × size never stands for the second segment.
        let analysis = try await Checker().analyse(folder.path("audio.m3u8"))
        let records = try #require(analysis.measurements.values.first).records
        #expect(records.count == 2)
        #expect(records.filter { $0.problem == nil }.count == 1)
        #expect(records.allSatisfy { $0.bytes <= 200_000 })
    }

    @Test func theParserMarksTheSegment() throws {
        let playlist = try #require(
            PlaylistParser.parse(
                "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n#EXT-X-BYTERANGE:-5@0\na.ts\n#EXTINF:6,\n#EXT-X-BYTERANGE:5@0\na.ts\n",
                uri: "p.m3u8"
            ).media)
        #expect(playlist.segments.map(\.unreadableByteRangeLine) == [5, nil])
    }
}
