import Foundation
@testable import HLSCheck
import HLSPlaylist
import TestSupport
import Testing

/// Renditions that name one media playlist under many spellings (`a/index.m3u8?r=N`) are one
/// file to the analysis too (`LoadedStream.canonicalURI(of:)`): the combinations a variant is
/// played in, which every bit-rate rule walks, are counted by files, not by names.
@Suite("One playlist under many spellings, analysed")
struct PlaylistSpellingsAnalysisTests {
    static let media = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg0.ts\n#EXT-X-ENDLIST\n"

    static func analysis(spellings count: Int, distinct: Int = 1) async throws -> StreamAnalysis {
        var lines = ["#EXTM3U"]
        lines += (0..<count).map {
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"r\($0)\",URI=\"a/index\($0 % distinct).m3u8?r=\($0)\""
        }
        lines += ["#EXT-X-STREAM-INF:BANDWIDTH=200000,CODECS=\"mp4a.40.2,avc1.64001f\",AUDIO=\"a\"", "v.m3u8"]
        var files = ["p.m3u8": lines.joined(separator: "\n") + "\n", "v.m3u8": media]
        for index in 0..<distinct { files["a/index\(index).m3u8"] = media }
        let folder = try TemporaryFolder(files)
        let loaded = try await PlaylistLoader(source: LocalFileSource(), limits: LoaderLimits(playlists: 100_000))
            .load(folder.path("p.m3u8"))
        return StreamAnalysis(loaded: loaded)
    }

    /// 2 000 spellings of one file: one combination (the variant with that file), not 2 000,
    /// each of which main built by searching the ones before it.
    @Test func spellingsOfOneFileMakeOneCombination() async throws {
        let analysis = try await Self.analysis(spellings: 2_000)
        let variant = try #require(analysis.variants.first)
        #expect(variant.audioRenditions.count == 2_000)
        #expect(variant.playableCombinations.count == 1)
        #expect(variant.combinationPlaylists.count == 2)
        // Each spelling still finds its playlist, and names the file it was read under.
        #expect(variant.audioRenditions.allSatisfy { $0.playlist != nil })
        #expect(Set(variant.audioRenditions.compactMap(\.playlistIdentity)).count == 1)
    }

    /// Three files under 300 spellings: three combinations, one per file, in playlist order.
    @Test func distinctFilesStayDistinctCombinations() async throws {
        let analysis = try await Self.analysis(spellings: 300, distinct: 3)
        let variant = try #require(analysis.variants.first)
        #expect(
            variant.playableCombinations.map { $0.map { URL(fileURLWithPath: $0).lastPathComponent } } == [
                ["v.m3u8", "index0.m3u8?r=0"], ["v.m3u8", "index1.m3u8?r=1"], ["v.m3u8", "index2.m3u8?r=2"],
            ])
    }
}
