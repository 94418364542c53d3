import Foundation
import HLSCheck
import HLSRemote
import HTTPTestServer
import TestSupport
import Testing

/// A server that attacks the checker: every attack ends in a clear diagnostic, within the
/// limits (bytes held, seconds spent), never a hang or an allocation the server chose.
@Suite("Hostile servers")
struct HostileServerTests {
    @Test func endlessPlaylistBodyStopsAtThePlaylistLimit() async throws {
        await #expect {
            try await Remote.withSamplesServer { server in
                server.inject(.endlessBody(pieceBytes: 64 << 10), at: "endless.m3u8")
                return try await Remote.check(server.url("endless.m3u8"), { $0.limits.playlistBytes = 1 << 20 })
            }
        } throws: { error in
            "\(error)".contains("more than 1048576 bytes") && "\(error)".contains("--max-playlist-bytes")
        }
    }

    @Test func endlessSegmentBodyStopsAtTheSegmentLimit() async throws {
        let report = try await Remote.withSamplesServer { server in
            server.inject(.endlessBody(pieceBytes: 64 << 10), at: "compliant/audio/seg0.ts")
            return try await Remote.check(server.url("compliant/master.m3u8"), { $0.limits.segmentBytes = 4 << 20 })
        }
        let unreadable = report.findings("segment-unreadable")
        #expect(unreadable.count == 1)
        #expect(unreadable.first?.message.contains("more than 4194304 bytes") == true, "\(unreadable)")
        #expect(unreadable.first?.message.contains("--max-segment-bytes") == true)
        // Not retried: a body over the limit stays over it.
        #expect(report.findings("delivery-retried").isEmpty)
    }

    @Test func tenGigabyteContentLengthIsRefusedBeforeTheBody() async throws {
        let (report, requests) = try await Remote.withSamplesServer { server in
            server.inject(.hugeLength(declaredBytes: 10_000_000_000), at: "compliant/audio/seg2.ts")
            return (try await Remote.check(server.url("compliant/master.m3u8")), server.requests)
        }
        let unreadable = report.findings("segment-unreadable")
        #expect(unreadable.count == 1)
        #expect(
            unreadable.first?.message.contains("10000000000 bytes, over the limit of \(256 << 20)") == true,
            "\(unreadable)")
        // Refused on the header: no wait for a body that never comes, no retry.
        #expect(!(unreadable.first?.message.contains("within") ?? true))
        #expect(requests.filter { $0.path == "/compliant/audio/seg2.ts" }.count == 1)
    }

    @Test func tenGigabytePlaylistIsRefused() async throws {
        await #expect {
            try await Remote.withSamplesServer { server in
                server.inject(.hugeLength(declaredBytes: 10_000_000_000), at: "huge.m3u8")
                return try await Remote.check(server.url("huge.m3u8"))
            }
        } throws: { error in
            "\(error)".contains("10000000000 bytes, over the limit") && "\(error)".contains("--max-playlist-bytes")
        }
    }

    @Test func serverThatNeverAnswersEndsAtTheRequestTimeout() async throws {
        var options = Remote.fast
        options.requestTimeoutSeconds = 2
        options.retries = 0
        await #expect {
            try await Remote.withSamplesServer { server in
                server.inject(.noAnswer, at: "silent.m3u8")
                return try await Remote.check(server.url("silent.m3u8"), options: options)
            }
        } throws: { error in
            "\(error)".contains("no complete answer within 2 s") && "\(error)".contains("--request-timeout")
        }
    }

    @Test func redirectToAFileURLIsRefused() async throws {
        await #expect {
            try await Remote.withSamplesServer { server in
                server.inject(.redirect(to: "file:///etc/passwd"), at: "master.m3u8")
                return try await Remote.check(server.url("master.m3u8"))
            }
        } throws: { error in
            "\(error)".contains("redirected to file:///etc/passwd") && "\(error)".contains("only http and https")
        }
        let report = try await Remote.withSamplesServer { server in
            server.inject(.redirect(to: "file:///etc/passwd"), at: "compliant/audio/seg0.ts")
            return try await Remote.check(server.url("compliant/master.m3u8"))
        }
        let unreadable = report.findings("segment-unreadable")
        #expect(unreadable.count == 1)
        #expect(unreadable.first?.message.contains("only http and https are fetched") == true, "\(unreadable)")
    }
}
