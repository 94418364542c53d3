import Foundation
import HTTPTestServer
import TestSupport
import Testing

/// `hlscheck --live-duration` against low-latency playlists whose server holds every blocking
/// request and never answers it: the delivery-directive requests of all playlists go out
/// together, bounded by `--http-connections`, and the whole probe costs one `--request-timeout`.
@Suite("Low-latency probes against a server that never answers them")
struct LowLatencyProbeCommandTests {
    static let variants = 3

    /// A live low-latency media playlist (bis-22 §4.4.3.7, §4.4.3.8): blocking reloads offered,
    /// no delta updates; the five directive requests the probe sends it are `_HLS_msn`,
    /// `_HLS_msn`+`_HLS_part`, a part past the last, `_HLS_part` alone and `_HLS_skip`.
    static let media = """
        #EXTM3U
        #EXT-X-VERSION:9
        #EXT-X-TARGETDURATION:4
        #EXT-X-PART-INF:PART-TARGET=1
        #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3
        #EXT-X-MEDIA-SEQUENCE:0
        #EXTINF:4,
        s0.ts
        #EXTINF:4,
        s1.ts
        #EXTINF:4,
        s2.ts
        #EXT-X-PART:DURATION=1,URI="s3.0.ts",INDEPENDENT=YES

        """

    /// Serves `variants` such playlists under one multivariant playlist, holding every request
    /// with a delivery directive, and runs a one-second watch of it with `arguments`.
    static func watch(_ arguments: [String]) async throws -> (CommandResult, HTTPTestServer, [ReceivedRequest]) {
        var master = "#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        for index in 0..<variants {
            master += "#EXT-X-STREAM-INF:BANDWIDTH=\(100_000 * (index + 1)),CODECS=\"mp4a.40.2\"\nv\(index).m3u8\n"
        }
        let folder = try TemporaryFolder(["master.m3u8": master])
        let server = try await HTTPTestServer(folder: folder.url.path)
        do {
            for index in 0..<variants {
                server.inject(.respondOrHold { $0.contains("_HLS_") ? nil : (200, media) }, at: "v\(index).m3u8")
            }
            let result = try await HLSCheckBinary.run(
                [server.url("master.m3u8"), "--playlist-only", "--live-duration", "1", "--format", "json"]
                    + arguments)
            let requests = server.requests
            await server.stop()
            return (result, server, requests)
        } catch {
            await server.stop()
            throw error
        }
    }

    static func directiveRequests(_ requests: [ReceivedRequest]) -> [ReceivedRequest] {
        requests.filter { $0.query?.contains("_HLS_") == true }
    }

    @Test func sendsEveryDirectiveRequestOfTheRunTogether() async throws {
        let (result, server, requests) = try await Self.watch(["--request-timeout", "3", "--http-connections", "16"])
        // Three playlists, five directive requests each, all held by the server at the same time:
        // one after another, they would cost 15 request timeouts.
        #expect(Self.directiveRequests(requests).count == 15, "\(requests.map { $0.query ?? "" })")
        #expect(server.mostHeldAtOnce == 15)
        // Each playlist's unanswered blocking reloads are still reported.
        #expect(result.status == 1, "\(result.stderr)")
        for index in 0..<Self.variants {
            #expect(result.stdout.contains("v\(index).m3u8?_HLS_msn="), "\(result.stdout)")
        }
        #expect(result.stdout.contains("\"rule\" : \"blocking-reload-invalid\""), "\(result.stdout)")
    }

    @Test func givesTheWholeProbeOneRequestTimeoutWithinTheConnectionLimit() async throws {
        let (result, server, requests) = try await Self.watch(["--request-timeout", "2", "--http-connections", "2"])
        // Never more in flight than --http-connections allows.
        #expect(server.mostHeldAtOnce <= 2)
        // The probe ends one request timeout after the watch: what had not been sent by then
        // never is (two at a time, one after another, all 15 would cost 15 timeouts).
        #expect(Self.directiveRequests(requests).count < 15, "\(requests.map { $0.query ?? "" })")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("\"rule\" : \"blocking-reload-invalid\""), "\(result.stdout)")
    }
}
