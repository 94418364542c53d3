import Foundation
import HTTPTestServer
import TestSupport
import Testing

/// What a user reads when a remote resource cannot be fetched: the limit that was reached, with
/// the value that applied, and no retry of what cannot get better (docs/remote.md).
@Suite("remote failure messages")
struct RemoteFailureMessageTests {
    /// A server that accepts the TCP connection and never answers the TLS ClientHello.
    static func againstASilentServer(_ arguments: [String]) async throws -> CommandResult {
        let listener = try SilentListener()
        defer { listener.stop() }
        return try await HLSCheckBinary.run([listener.url("master.m3u8")] + arguments)
    }

    @Test func aTLSHandshakeThatNeverCompletesNamesTheConnectTimeout() async throws {
        let result = try await Self.againstASilentServer(["--connect-timeout", "1", "--retries", "0"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "but the TLS handshake did not complete within 1 s (raise it with --connect-timeout)"),
            "\(result.stdout)")
        // The request timeout (30 s by default) did not pass, and is not blamed.
        #expect(!result.stdout.contains("--request-timeout"), "\(result.stdout)")
        #expect(!result.stdout.contains("30 s"), "\(result.stdout)")
    }

    @Test func aRequestTimeoutShorterThanTheConnectTimeoutIsTheOneNamed() async throws {
        let result = try await Self.againstASilentServer([
            "--connect-timeout", "20", "--request-timeout", "1", "--retries", "0",
        ])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("within 1 s, the request's whole deadline"), "\(result.stdout)")
        #expect(result.stdout.contains("(raise it with --request-timeout)"), "\(result.stdout)")
        #expect(!result.stdout.contains("20 s (raise it with --connect-timeout)"), "\(result.stdout)")
    }

    @Test func aResponseHeaderOverCurlsLimitIsSaidOnceAndNotRetried() async throws {
        let (result, requests) = try await RemoteCommandTests.withServer { server in
            server.inject(.oversizedHeader(bytes: 200_000), at: "compliant/master.m3u8")
            let url = server.url("compliant/master.m3u8", userinfo: "viewer:pw0rd") + "?token=t0ken"
            return (try await HLSCheckBinary.run([url, "--retries", "2"]), server.requests)
        }
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("the answer's header is larger than curl's limit of 102400 bytes"),
            "\(result.stdout)")
        // Named by its URL, redacted.
        #expect(result.stdout.contains("http://***@127.0.0.1:"), "\(result.stdout)")
        #expect(!result.stdout.contains("pw0rd") && !result.stdout.contains("t0ken"), "\(result.stdout)")
        #expect(!result.stdout.contains("Out of memory") && !result.stdout.contains("retr"), "\(result.stdout)")
        // The same header would come back: asked once, despite --retries 2.
        #expect(requests.filter { $0.path == "/compliant/master.m3u8" }.count == 1, "\(requests.map(\.path))")
    }
}
