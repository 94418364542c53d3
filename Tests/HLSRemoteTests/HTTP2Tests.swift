import Foundation
import HLSCheck
import HLSRemote
import HTTPTestServer
import TestSupport
import Testing

/// The same checks over HTTP/2: a server that offers "h2" by ALPN, as CDNs do over TLS.
@Suite("HTTP/2 over loopback TLS")
struct HTTP2Tests {
    static var insecure: RemoteOptions {
        var options = Remote.fast
        options.insecure = true
        return options
    }

    /// A server over `folder` speaking HTTP/2, with a fresh self-signed certificate.
    static func withHTTP2Server<T>(folder: String = Remote.samples, _ body: (HTTPTestServer) async throws -> T)
        async throws -> T
    {
        let certificates = try TemporaryFolder()
        let tls = try SelfSignedCertificate.make(in: certificates)
        return try await Remote.withServer(folder: folder, tls: tls, http2: true, body)
    }

    @Test func streamCheckedOverHTTP2MatchesTheLocalCheckAndSaysHTTP2() async throws {
        let local = try await Checker().check(Remote.samples + "/compliant/master.m3u8")
        let (report, requests) = try await Self.withHTTP2Server { server in
            (try await Remote.check(server.url("compliant/master.m3u8"), options: Self.insecure), server.requests)
        }
        // Every request (playlists and segments) went over HTTP/2, none fell back to HTTP/1.1.
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0.httpVersion == "HTTP/2" }, "\(requests.map(\.httpVersion))")
        #expect(report.findings("segment-unreadable").isEmpty, "\(report.diagnostics)")
        #expect(report.variants.map(\.measuredPeakBitrate) == local.variants.map(\.measuredPeakBitrate))
        // The report says which protocol carried the stream, and how much.
        let delivery = try #require(report.delivery)
        #expect(delivery.traffic.httpVersions == ["HTTP/2": requests.count])
        #expect(delivery.traffic.responses == requests.count)
        #expect(delivery.traffic.bodyBytes > 0)
        #expect(delivery.usedTLS)
    }

    @Test func byteRangesOverHTTP2() async throws {
        let (folder, expectedRanges) = try Remote.byteRangeStream()
        let (report, requests) = try await Self.withHTTP2Server(folder: folder.url.path) { server in
            (try await Remote.check(server.url("index.m3u8"), options: Self.insecure), server.requests)
        }
        #expect(report.findings("segment-unreadable").isEmpty, "\(report.diagnostics)")
        let ranged = requests.filter { $0.path == "/all.aac" }
        #expect(ranged.allSatisfy { $0.httpVersion == "HTTP/2" })
        #expect(ranged.compactMap { $0.header("Range") }.sorted() == expectedRanges)
        #expect(report.variants.first?.measuredPeakBitrate != nil)
    }

    @Test func missingSegmentOverHTTP2IsUnreadableWithStatusAndProtocol() async throws {
        let report = try await Self.withHTTP2Server { server in
            server.inject(.status(404), at: "compliant/audio/seg1.ts")
            return try await Remote.check(server.url("compliant/master.m3u8"), options: Self.insecure)
        }
        let unreadable = report.findings("segment-unreadable")
        #expect(unreadable.count == 1)
        #expect(unreadable.first?.message.contains("HTTP 404 Not Found") == true, "\(unreadable)")
        #expect(unreadable.first?.message.contains("over HTTP/2") == true, "\(unreadable)")
        // A segment the server does not have may be a gap segment without EXT-X-GAP (bis-22 §6.2.1).
        #expect(unreadable.first?.message.contains("mark it with EXT-X-GAP") == true, "\(unreadable)")
        #expect(unreadable.first?.location?.uri.hasSuffix("compliant/audio/index.m3u8") == true)
    }

    @Test func resetStreamIsRetriedThenUnreadable() async throws {
        // Over HTTP/2 closing the stream mid-body resets that stream (RST_STREAM), not the
        // connection: the other segments keep flowing on it.
        let report = try await Self.withHTTP2Server { server in
            server.inject(.resetAfter(bytes: 1000), at: "compliant/audio/seg1.ts")
            return try await Remote.check(server.url("compliant/master.m3u8"), options: Self.insecure)
        }
        let unreadable = report.findings("segment-unreadable")
        #expect(unreadable.count == 1, "\(report.diagnostics)")
        #expect(unreadable.first?.message.contains("after 2 retries") == true, "\(unreadable)")
        #expect(unreadable.first?.message.contains("EXT-X-GAP") == false, "\(unreadable)")
        #expect(report.findings("delivery-retried").count == 1)
        // Only the reset segment is lost.
        #expect(report.variants.contains { $0.measuredPeakBitrate != nil })
    }

    @Test func serverErrorThatHealsOverHTTP2IsReportedWithItsProtocol() async throws {
        let report = try await Self.withHTTP2Server { server in
            server.inject(.failFirst(times: 1, status: 503), at: "compliant/audio/seg0.ts")
            return try await Remote.check(server.url("compliant/master.m3u8"), options: Self.insecure)
        }
        let retried = report.findings("delivery-retried")
        #expect(retried.count == 1)
        #expect(retried.first?.message.contains("then HTTP 200 over HTTP/2") == true, "\(retried)")
    }

    @Test func plainHTTPServerIsReportedAsHTTP11() async throws {
        let report = try await Remote.withSamplesServer { server in
            try await Remote.check(server.url("compliant/master.m3u8"), { $0.playlistOnly = true })
        }
        #expect(report.delivery?.traffic.httpVersions.keys.sorted() == ["HTTP/1.1"])
        #expect(report.delivery?.usedTLS == false)
        // A local check has no delivery at all.
        let local = try await Checker().check(Remote.samples + "/compliant/master.m3u8")
        #expect(local.delivery == nil)
    }
}
