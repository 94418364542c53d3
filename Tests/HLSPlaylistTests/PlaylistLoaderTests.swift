import Foundation
import HLSPlaylist
import Testing
import StreamSources

@Suite("Loader")
struct PlaylistLoaderTests {
    /// A fresh directory tree; removed by the caller.
    func makeTree(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hlsplaylist-\(UUID().uuidString)")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root.path
    }

    static let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg.ts\n#EXT-X-ENDLIST\n"

    @Test func loadsEveryReferencedPlaylistOnce() async throws {
        let root = try makeTree([
            "master.m3u8": """
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-DEFINE:NAME="seg",VALUE="s1.ts"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio/en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=64000,AUDIO="a"
            audio/en.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=800000,AUDIO="a"
            video/v.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1000,URI="video/iframe.m3u8"
            """,
            "audio/en.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:IMPORT=\"seg\"\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n{$seg}\n",
            "video/v.m3u8": Self.media,
            "video/iframe.m3u8": Self.media,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let stream = try await PlaylistLoader(source: LocalFileSource()).load(root + "/master.m3u8")
        #expect(stream.failures.isEmpty)
        #expect(
            Set(stream.mediaPlaylists.keys) == [
                root + "/audio/en.m3u8", root + "/video/v.m3u8", root + "/video/iframe.m3u8",
            ])
        let multivariant = try #require(stream.root.multivariant)
        let audio = try #require(stream.playlist(for: multivariant.variants[0]))
        #expect(audio.problems.isEmpty, "\(audio.problems)")
        #expect(audio.media?.segments.first?.uri == "s1.ts")
        #expect(stream.playlist(for: multivariant.renditions[0])?.uri == root + "/audio/en.m3u8")
        #expect(stream.playlist(for: multivariant.iFrameVariants[0]) != nil)
    }

    @Test func missingMediaPlaylistIsAFailureAtTheReferringLine() async throws {
        let root = try makeTree([
            "master.m3u8":
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nok.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nmissing.m3u8\n",
            "ok.m3u8": Self.media,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let stream = try await PlaylistLoader(source: LocalFileSource()).load(root + "/master.m3u8")
        let failure = try #require(stream.failures.first)
        #expect(stream.failures.count == 1)
        #expect(failure.uri == root + "/missing.m3u8")
        #expect(failure.referencedFrom == SourceLocation(uri: root + "/master.m3u8", line: 5, column: 1))
        #expect(failure.reason == "No such file or directory")
        #expect(stream.mediaPlaylists.count == 1)
    }

    @Test func unreadableRootThrows() async {
        await #expect(throws: InputReadError.self) {
            _ = try await PlaylistLoader(source: LocalFileSource()).load("/nonexistent/dir/master.m3u8")
        }
    }

    @Test func refusesOversizedPlaylist() async throws {
        let root = try makeTree([
            "master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nbig.m3u8\n",
            "big.m3u8": String(repeating: "#\n", count: 600),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let stream = try await PlaylistLoader(source: LocalFileSource(maximumSize: 1000), maximumSize: 1000).load(
            root + "/master.m3u8")
        #expect(
            stream.failures.first?.reason.contains("over the limit of 1000 bytes (raise it with --max-playlist-bytes)")
                == true)
    }

    @Test func mediaRootIsOnlyTheRoot() async throws {
        let root = try makeTree(["index.m3u8": Self.media])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let stream = try await PlaylistLoader(source: LocalFileSource()).load(root + "/index.m3u8")
        #expect(stream.root.media?.segments.count == 1)
        #expect(stream.mediaPlaylists.isEmpty && stream.failures.isEmpty)
    }
}
