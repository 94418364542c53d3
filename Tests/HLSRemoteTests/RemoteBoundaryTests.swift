import Foundation
import HLSCheck
import HLSRemote
import HTTPTestServer
import TestSupport
import Testing

/// Where a remote stream meets what the user wrote: credentials across redirects, URIs that name
/// local files or no resource at all, and answers whose size or encoding hlscheck refuses. Each
/// message must say what happened and what to do about it.
@Suite("Remote boundaries over loopback HTTP")
struct RemoteBoundaryTests {
    static func basic(_ userinfo: String) -> String {
        "Basic " + Data(userinfo.utf8).base64EncodedString()
    }

    /// A media playlist in a folder a loopback server serves.
    static func mediaFolder(_ playlist: String = "media.m3u8") throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(
            Data("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg0.ts\n#EXT-X-ENDLIST\n".utf8), to: playlist)
        return folder
    }

    @Test func aRedirectsOwnUserinfoReplacesTheCredentialsItCameWith() async throws {
        let folder = try Self.mediaFolder()
        let requests = try await Remote.withServer(folder: folder.url.path) { server in
            server.inject(.redirect(to: server.url("media.m3u8", userinfo: "other")), at: "start.m3u8")
            _ = try await Remote.check(server.url("start.m3u8", userinfo: "user:pw"), { $0.playlistOnly = true })
            return server.requests
        }
        let start = try #require(requests.first { $0.path == "/start.m3u8" })
        #expect(start.header("Authorization") == Self.basic("user:pw"))
        // "user:pw@other" was sent as the user name before: the two userinfos concatenated.
        let media = try #require(requests.first { $0.path == "/media.m3u8" })
        #expect(media.header("Authorization") == Self.basic("other:"))
    }

    @Test func credentialsFollowARedirectToTheSameOriginOnly() async throws {
        let folder = try Self.mediaFolder()
        let (same, other) = try await Remote.withServer(folder: folder.url.path) { first in
            try await Remote.withServer(folder: folder.url.path) { second in
                // Same origin, no userinfo in the Location: the credentials go along.
                first.inject(.redirect(to: "/media.m3u8"), at: "here.m3u8")
                // Another port is another origin (RFC 6454 §4): they stay behind.
                first.inject(.redirect(to: second.url("media.m3u8")), at: "away.m3u8")
                _ = try await Remote.check(first.url("here.m3u8", userinfo: "user:pw"), { $0.playlistOnly = true })
                _ = try await Remote.check(first.url("away.m3u8", userinfo: "user:pw"), { $0.playlistOnly = true })
                return (first.requests, second.requests)
            }
        }
        #expect(same.first { $0.path == "/media.m3u8" }?.header("Authorization") == Self.basic("user:pw"))
        let elsewhere = try #require(other.first { $0.path == "/media.m3u8" })
        #expect(elsewhere.header("Authorization") == nil)
    }

    /// In a remote media playlist, a local EXT-X-MAP or key is refused at its own line, not at
    /// the lines of the segments that use it.
    @Test func aLocalMapOrKeyInARemotePlaylistIsRefusedAtItsOwnLine() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            Data(
                """
                #EXTM3U
                #EXT-X-VERSION:6
                #EXT-X-TARGETDURATION:6
                #EXT-X-MAP:URI="file:///etc/passwd"
                #EXTINF:6.0,
                seg0.m4s
                #EXTINF:6.0,
                seg1.m4s
                #EXT-X-KEY:METHOD=AES-128,URI="file:///etc/hostname"
                #EXTINF:6.0,
                seg2.m4s
                #EXT-X-ENDLIST

                """.utf8), to: "media.m3u8")
        for index in 0..<3 { try folder.write(Data(repeating: 0x47, count: 1_880), to: "seg\(index).m4s") }
        let report = try await Remote.withServer(folder: folder.url.path) { server in
            try await Remote.check(server.url("media.m3u8"))
        }
        let refused = report.findings("uri-outside-root")
        #expect(
            refused.map(\.location?.line) == [4, 9], "\(refused.map { "\($0.location?.line ?? 0): \($0.message)" })")
        #expect(refused.allSatisfy { $0.message.contains("file:///etc/") && $0.message.contains("never local files") })
        // The segments cannot be read without their map, and say so: "segment seg0.m4s: lies
        // outside the stream's root" blamed each segment for its map before.
        let segments = report.findings("segment-unreadable")
        #expect(segments.map(\.location?.line) == [5, 7, 10])
        #expect(
            segments.allSatisfy {
                $0.message.contains("initialization section (EXT-X-MAP at line 4, file:///etc/passwd)")
            },
            "\(segments.map(\.message))")
    }

    @Test func aContentLengthNoIntegerHoldsIsTheSizeLimitNotARetry() async throws {
        let (report, requests) = try await Remote.withSamplesServer { server in
            server.inject(.declaredLength("99999999999999999999"), at: "compliant/audio/seg2.ts")
            return (try await Remote.check(server.url("compliant/master.m3u8")), server.requests)
        }
        let unreadable = try #require(report.findings("segment-unreadable").first)
        #expect(unreadable.message.contains("over the limit of \(256 << 20)"), "\(unreadable.message)")
        #expect(unreadable.message.contains("--max-segment-bytes"))
        #expect(!unreadable.message.contains("closed the connection") && !unreadable.message.contains("retr"))
        #expect(requests.filter { $0.path == "/compliant/audio/seg2.ts" }.count == 1)
    }

    @Test func aGzipBombIsRefusedNamingTheHeaderThatAvoidsIt() async throws {
        let folder = try TemporaryFolder()
        // 4 MB of one comment line: gzip makes it ≈ 4 KB, past the 200:1 hlscheck inflates.
        let comment = String(repeating: "# the same comment, again and again\n", count: 4 << 20 / 36)
        try folder.write(
            Data(("#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + comment + "#EXT-X-ENDLIST\n").utf8), to: "bomb.m3u8")
        await #expect {
            try await Remote.withServer(folder: folder.url.path) { server in
                server.inject(.gzip, at: "bomb.m3u8")
                return try await Remote.check(server.url("bomb.m3u8"))
            }
        } throws: { error in
            let text = "\(error)"
            return text.contains("200 times") && text.contains("--header 'Accept-Encoding: identity'")
        }
    }
}
