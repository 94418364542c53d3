import Foundation
import HLSCheck
import HLSRemote
import HTTPTestServer
import TestSupport
import Testing

/// Playlist compression (AS 10.1) and redirected segments (AS 8.18), on the committed sample
/// served over loopback.
@Suite("Playlist compression and media redirects over loopback")
struct MediaDeliveryTests {
    @Test func playlistServedWithoutGzipIsReportedAndAnErrorForApple() async throws {
        let (plain, apple) = try await Remote.withSamplesServer { server in
            // Served as they are on disk, although hlscheck accepts gzip.
            server.inject(.contentType("application/vnd.apple.mpegurl"), at: "compliant/audio/index.m3u8")
            let plain = try await Remote.check(server.url("compliant/master.m3u8"))
            let apple = try await Remote.check(server.url("compliant/master.m3u8")) { Profile.appleIOS.configure(&$0) }
            return (plain, apple)
        }
        let found = plain.findings("playlist-not-compressed")
        #expect(found.count == 1, "\(plain.diagnostics)")
        #expect(found.first?.severity == .warning)
        #expect(
            found.first?.message.contains(
                "compliant/audio/index.m3u8 was served uncompressed although the request accepted gzip") == true,
            "\(found)")
        // Where the multivariant playlist names it.
        #expect(found.first?.location?.uri.hasSuffix("compliant/master.m3u8") == true, "\(found)")
        #expect(apple.findings("playlist-not-compressed").first?.severity == .error)
    }

    @Test func gzippedPlaylistsAndAClientThatRefusesGzipAreClean() async throws {
        let (gzipped, identity) = try await Remote.withSamplesServer { server in
            let gzipped = try await Remote.check(server.url("compliant/master.m3u8"))
            server.inject(.contentType("application/vnd.apple.mpegurl"), at: "compliant/master.m3u8")
            var options = Remote.fast
            options.headers = [
                RemoteOptions.Header(
                    name: "Accept-Encoding", value: "identity", sentTo: [server.url("compliant/master.m3u8")])
            ]
            let identity = try await Remote.check(server.url("compliant/master.m3u8"), options: options)
            return (gzipped, identity)
        }
        #expect(gzipped.findings("playlist-not-compressed").isEmpty, "\(gzipped.diagnostics)")
        #expect(identity.findings("playlist-not-compressed").isEmpty, "\(identity.diagnostics)")
        #expect(identity.findings("playlist-unreadable").isEmpty)
    }

    @Test func redirectedSegmentIsAnAppleErrorOncePerPlaylist() async throws {
        let report = try await Remote.withSamplesServer { origin in
            try await Remote.withSamplesServer { cdn in
                cdn.inject(.redirect(to: origin.url("compliant/audio/seg0.ts")), at: "compliant/audio/seg0.ts")
                cdn.inject(.redirect(to: origin.url("compliant/audio/seg1.ts")), at: "compliant/audio/seg1.ts")
                // Only Apple's authoring specification forbids it (AS 8.18): an error under its profiles.
                return try await Remote.check(cdn.url("compliant/master.m3u8")) { Profile.appleIOS.configure(&$0) }
            }
        }
        let redirected = report.findings("media-redirected")
        #expect(redirected.count == 1, "\(report.diagnostics)")
        #expect(redirected.first?.severity == .error)
        #expect(redirected.first?.message.contains("and 1 more segment of this playlist") == true, "\(redirected)")
        #expect(redirected.first?.location?.uri.hasSuffix("compliant/audio/index.m3u8") == true)
        // The segments were read through the redirect, and no downgrade happened.
        #expect(report.findings("segment-unreadable").isEmpty)
        #expect(report.findings("redirect-to-http").isEmpty)
    }
}
