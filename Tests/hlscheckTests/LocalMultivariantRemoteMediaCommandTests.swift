import Foundation
import HTTPTestServer
import TestSupport
import Testing

/// A multivariant playlist on disk may name media playlists by URL (a stream being moved to a
/// CDN, a test multivariant playlist pointing at production renditions): `hlscheck` fetches them,
/// and refuses URIs of schemes it does not read with a message that says so.
@Suite("hlscheck: a local multivariant playlist naming URLs")
struct LocalMultivariantRemoteMediaCommandTests {
    @Test func anHTTPMediaPlaylistNamedByALocalMultivariantPlaylistIsFetchedAndMeasured() async throws {
        let (result, requests) = try await RemoteCommandTests.withServer { server in
            let folder = try TemporaryFolder([
                "master.m3u8":
                    "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=47133,AVERAGE-BANDWIDTH=46782,CODECS=\"mp4a.40.2\"\n"
                    + server.url("compliant/audio/index.m3u8") + "\n"
            ])
            return (try await HLSCheckBinary.run([folder.path("master.m3u8"), "--format", "json"]), server.requests)
        }
        // Fetched ("No such file or directory" and no request before), its segments too.
        #expect(requests.contains { $0.path == "/compliant/audio/index.m3u8" })
        #expect(requests.contains { $0.path == "/compliant/audio/seg0.ts" })
        #expect(!result.stdout.contains("No such file"), "\(result.stdout)")
        #expect(!result.stdout.contains("playlist-unreadable"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let variants = try #require(json["variants"] as? [[String: Any]])
        #expect(variants.count == 1)
        #expect(variants.first?["measuredPeakBitrate"] as? Int != nil, "\(variants)")
    }

    @Test(arguments: ["javascript:alert(1)", "data:application/vnd.apple.mpegurl;base64,I0VYVE0zVQo="])
    func aURIOfAnotherSchemeIsRefusedForWhatItIs(_ uri: String) throws {
        let folder = try TemporaryFolder([
            "master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=47133,CODECS=\"mp4a.40.2\"\n\(uri)\n"
        ])
        let result = try HLSCheckBinary.run([folder.path("master.m3u8"), "--playlist-only", "--color", "never"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(!result.stdout.contains("No such file"), "\(result.stdout)")
        #expect(result.stdout.contains("is not a URI scheme hlscheck reads"), "\(result.stdout)")
        // Found at the URI's line, and never opened as a file named so.
        #expect(result.stdout.contains("master.m3u8:3"))
    }
}
