import Foundation
import TestSupport
import Testing

/// Renditions that name one media playlist under many spellings (`a/index.m3u8?r=N`: the query
/// is not part of a local file's name): one file, read once, and every spelling counted by
/// `--max-playlists` (docs/security.md, "Limits").
@Suite("hlscheck with one playlist named under many spellings")
struct PlaylistSpellingsCommandTests {
    static let media = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg0.ts\n#EXT-X-ENDLIST\n"

    /// `count` audio renditions naming `a/index.m3u8?r=N`, and one variant that plays them.
    static func stream(spellings count: Int) throws -> TemporaryFolder {
        var lines = ["#EXTM3U"]
        lines += (0..<count).map {
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"r\($0)\",LANGUAGE=\"en\",URI=\"a/index.m3u8?r=\($0)\""
        }
        lines += ["#EXT-X-STREAM-INF:BANDWIDTH=200000,CODECS=\"mp4a.40.2,avc1.64001f\",AUDIO=\"a\"", "v.m3u8"]
        return try TemporaryFolder([
            "p.m3u8": lines.joined(separator: "\n") + "\n", "a/index.m3u8": media, "v.m3u8": media,
        ])
    }

    /// The findings of a JSON report, as (rule, line, message).
    static func findings(_ json: String) throws -> [(rule: String, line: Int, message: String)] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        return diagnostics.map {
            (
                $0["rule"] as? String ?? "", ($0["location"] as? [String: Any])?["line"] as? Int ?? 0,
                $0["message"] as? String ?? ""
            )
        }
    }

    /// 60 spellings and `--max-playlists 10`: the root and nine names are taken, every
    /// other spelling is a located finding that names the limit (main counted only the files
    /// read, so 60 spellings of one file passed any limit).
    @Test func maxPlaylistsCountsEverySpellingOfOnePlaylist() async throws {
        let folder = try Self.stream(spellings: 60)
        let result = try await HLSCheckBinary.run([
            folder.path("p.m3u8"), "--playlist-only", "--max-playlists", "10", "--format", "json",
        ])
        let overLimit = try Self.findings(result.stdout).filter {
            $0.rule == "playlist-unreadable" && $0.message.contains("more than 10 playlists")
        }
        // The variant's v.m3u8 and the renditions of lines 2…9 are within the limit (the root
        // counts too); lines 10…61 are over it.
        #expect(overLimit.map(\.line) == Array(10...61), "\(overLimit.map(\.line))")
        #expect(overLimit.allSatisfy { $0.message.contains("raise the limit with --max-playlists") })
    }
}
