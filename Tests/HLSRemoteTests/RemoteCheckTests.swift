import Foundation
import HLSCheck
import HLSPlaylist
import HLSRemote
import HTTPTestServer
import TestSupport
import Testing
import StreamSources

/// Checks a URL as `hlscheck check` does: remote sources, one fetcher, its delivery log.
enum Remote {
    /// Short timeouts and backoff: every fault ends within a few seconds.
    static var fast: RemoteOptions {
        var options = RemoteOptions()
        // Generous for loopback on a loaded 2-core machine (helpers saw 2 s connects and 4 s
        // requests run out at load average 15–20); the timeout test sets its own.
        options.connectTimeoutSeconds = 10
        options.requestTimeoutSeconds = 10
        options.retryDelaySeconds = 0.01
        return options
    }

    static func check(
        _ url: String, options: RemoteOptions = Remote.fast, liveClock: LiveClock = LiveClock { SteppingClock() },
        _ configure: (inout CheckConfiguration) -> Void = { _ in }
    ) async throws -> CheckReport {
        let fetcher = RemoteFetcher(options: options)
        var configuration = CheckConfiguration()
        configure(&configuration)
        // The sources within the configuration's limits, as `hlscheck check` makes them.
        var checker = Checker(
            configuration: configuration,
            source: RemotePlaylistSource(fetcher: fetcher, maximumSize: configuration.limits.playlistBytes),
            segmentSource: RemoteSegmentSource(fetcher: fetcher, maximumByteCount: configuration.limits.segmentBytes))
        checker.deliveryObserver = RemoteDeliveryLog(fetcher: fetcher, input: url)
        // A live watch keeps time by clocks that move only when it sleeps: its verdicts never
        // depend on how fast a loaded machine answers.
        checker.liveClock = liveClock
        do {
            let report = try await checker.check(url)
            await fetcher.shutdown()
            return report
        } catch {
            await fetcher.shutdown()
            throw error
        }
    }

    static var samples: String { PackageRoot.url.appendingPathComponent("Samples").path }

    /// A folder whose `index.m3u8` lists two packed-audio segments of Samples as byte ranges of
    /// one file, `all.aac`; and the Range headers that fetch them, sorted.
    static func byteRangeStream() throws -> (folder: TemporaryFolder, ranges: [String]) {
        let folder = try TemporaryFolder()
        let seg0 = try Data(contentsOf: URL(fileURLWithPath: samples + "/packed-audio/audio/seg0.aac"))
        let seg1 = try Data(contentsOf: URL(fileURLWithPath: samples + "/packed-audio/audio/seg1.aac"))
        try folder.write(seg0 + seg1, to: "all.aac")
        try folder.write(
            Data(
                """
                #EXTM3U
                #EXT-X-VERSION:4
                #EXT-X-TARGETDURATION:6
                #EXTINF:6.013968,
                #EXT-X-BYTERANGE:\(seg0.count)@0
                all.aac
                #EXTINF:5.990748,
                #EXT-X-BYTERANGE:\(seg1.count)
                all.aac
                #EXT-X-ENDLIST

                """.utf8), to: "index.m3u8")
        return (folder, ["bytes=0-\(seg0.count - 1)", "bytes=\(seg0.count)-\(seg0.count + seg1.count - 1)"])
    }

    /// A server over Samples/, stopped after `body`.
    static func withSamplesServer<T>(_ body: (HTTPTestServer) async throws -> T) async throws -> T {
        try await withServer(folder: samples, body)
    }

    static func withServer<T>(
        folder: String, tls: (String, String)? = nil, http2: Bool = false, _ body: (HTTPTestServer) async throws -> T
    ) async throws -> T {
        let server = try await HTTPTestServer(
            folder: folder, tls: tls.map { (certificate: $0.0, key: $0.1) }, http2: http2)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}

extension CheckReport {
    func findings(_ rule: String) -> [Diagnostic] { diagnostics.filter { $0.rule == rule } }
}

@Suite("Remote check over loopback HTTP")
struct RemoteCheckTests {
    @Test func remoteCheckFindsWhatTheLocalCheckFinds() async throws {
        let local = try await Checker().check(Remote.samples + "/compliant/master.m3u8")
        let remote = try await Remote.withSamplesServer { server in
            try await Remote.check(server.url("compliant/master.m3u8"))
        }
        // Same rules at the same lines, same measured bit rates: only the URIs differ.
        #expect(
            remote.diagnostics.map { "\($0.rule):\($0.location?.line ?? -1)" }.sorted()
                == local.diagnostics.map { "\($0.rule):\($0.location?.line ?? -1)" }.sorted())
        #expect(remote.variants.map(\.measuredPeakBitrate) == local.variants.map(\.measuredPeakBitrate))
        #expect(remote.variants.allSatisfy { $0.measuredPeakBitrate != nil })
        #expect(remote.variants.map(\.codecs.detected) == local.variants.map(\.codecs.detected))
    }

    @Test func missingSegmentIsUnreadableWithItsHTTPStatus() async throws {
        let report = try await Remote.withSamplesServer { server in
            server.inject(.status(404), at: "compliant/audio/seg1.ts")
            return try await Remote.check(server.url("compliant/master.m3u8"))
        }
        let unreadable = report.findings("segment-unreadable")
        #expect(unreadable.count == 1)
        #expect(unreadable.first?.message.contains("HTTP 404 Not Found") == true, "\(unreadable)")
        #expect(unreadable.first?.location?.uri.hasSuffix("compliant/audio/index.m3u8") == true)
        #expect(unreadable.first?.location?.line ?? 0 > 0)
    }

    @Test func serverErrorThatHealsIsRetriedAndReported() async throws {
        let report = try await Remote.withSamplesServer { server in
            server.inject(.failFirst(times: 1, status: 503), at: "compliant/audio/seg0.ts")
            return try await Remote.check(server.url("compliant/master.m3u8"))
        }
        #expect(report.findings("segment-unreadable").isEmpty)
        let retried = report.findings("delivery-retried")
        #expect(retried.count == 1)
        #expect(retried.first?.message.contains("HTTP 503") == true, "\(retried)")
        #expect(retried.first?.severity == .note)
    }

    @Test func persistentServerErrorEndsAfterBoundedRetries() async throws {
        let (report, requests) = try await Remote.withSamplesServer { server in
            server.inject(.status(500), at: "compliant/audio/seg2.ts")
            return (try await Remote.check(server.url("compliant/master.m3u8")), server.requests)
        }
        let unreadable = report.findings("segment-unreadable")
        #expect(unreadable.first?.message.contains("HTTP 500") == true, "\(unreadable)")
        #expect(unreadable.first?.message.contains("after 2 retries") == true)
        // One request and two retries, no more.
        #expect(requests.filter { $0.path == "/compliant/audio/seg2.ts" }.count == 3)
    }

    @Test func slowBodyEndsInATimeoutFinding() async throws {
        // A body that would take 40 s, against a 12 s limit (ample for the other segments even on
        // a loaded machine).
        var options = Remote.fast
        options.requestTimeoutSeconds = 12
        let report = try await Remote.withSamplesServer { server in
            server.inject(.slowBody(chunks: 40, delayMilliseconds: 1000), at: "compliant/audio/seg0.ts")
            return try await Remote.check(server.url("compliant/master.m3u8"), options: options)
        }
        let unreadable = report.findings("segment-unreadable")
        #expect(unreadable.count == 1)
        #expect(unreadable.first?.message.contains("within 12 s") == true, "\(unreadable)")
        #expect(unreadable.first?.message.contains("--request-timeout") == true)
    }

    @Test func connectionResetMidSegmentIsUnreadableAfterRetries() async throws {
        let report = try await Remote.withSamplesServer { server in
            server.inject(.resetAfter(bytes: 1000), at: "compliant/audio/seg1.ts")
            return try await Remote.check(server.url("compliant/master.m3u8"))
        }
        let unreadable = report.findings("segment-unreadable")
        #expect(unreadable.count == 1)
        #expect(
            unreadable.first?.message.contains("closed the connection") == true
                || unreadable.first?.message.contains("reset") == true, "\(unreadable)")
        #expect(report.findings("delivery-retried").count == 1)
    }

    @Test func redirectLoopIsAClearError() async throws {
        await #expect {
            try await Remote.withSamplesServer { server in
                server.inject(.redirect(to: "/b.m3u8"), at: "a.m3u8")
                server.inject(.redirect(to: "a.m3u8"), at: "b.m3u8")
                return try await Remote.check(server.url("a.m3u8"))
            }
        } throws: { error in
            "\(error)".contains("redirect loop")
        }
    }

    @Test func redirectsAreFollowedWithinTheBound() async throws {
        let report = try await Remote.withSamplesServer { server in
            server.inject(.redirect(to: "compliant/master.m3u8"), at: "moved.m3u8")
            return try await Remote.check(server.url("moved.m3u8"), { $0.playlistOnly = true })
        }
        #expect(report.findings("playlist-unreadable").isEmpty)
        #expect(report.variants.count == 3)
    }

    @Test func wrongPlaylistContentTypeIsADeliveryFinding() async throws {
        let report = try await Remote.withSamplesServer { server in
            server.inject(.contentType("text/plain"), at: "compliant/audio/index.m3u8")
            return try await Remote.check(server.url("compliant/master.m3u8"), { $0.playlistOnly = true })
        }
        let wrong = report.findings("playlist-content-type")
        #expect(wrong.count == 1)
        #expect(wrong.first?.message.contains("text/plain") == true)
        // Located at the line of the multivariant playlist that names it.
        #expect(wrong.first?.location?.uri.hasSuffix("compliant/master.m3u8") == true)
        #expect(wrong.first?.location?.line == 8)
    }

    /// bis-22 §4: a playlist at a path without .m3u8 or .m3u is identified by its Content-Type,
    /// or by nothing.
    @Test func playlistIdentifiedByNeitherPathNorTypeIsAnError() async throws {
        let playlist =
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:2.0,\n/compliant/audio/seg0.ts\n#EXT-X-ENDLIST\n"
        let (typed, untyped) = try await Remote.withSamplesServer { server in
            server.inject(.dynamic { _ in playlist }, at: "typed")
            server.inject(.media { _ in (200, Array(playlist.utf8)) }, at: "untyped")
            return (
                try await Remote.check(server.url("typed"), { $0.playlistOnly = true }),
                try await Remote.check(server.url("untyped"), { $0.playlistOnly = true })
            )
        }
        #expect(typed.findings("playlist-not-identifiable").isEmpty, "\(typed.diagnostics)")
        let found = untyped.findings("playlist-not-identifiable")
        #expect(found.count == 1, "\(untyped.diagnostics)")
        #expect(
            found.first?.message.contains(
                "it was served with Content-Type video/mp2t: nothing identifies it as a playlist") == true, "\(found)")
        #expect(found.first?.severity == .error)
    }

    /// bis-22 §4.4.6.4: the resource a session-data URI names is fetched and must be JSON.
    @Test func sessionDataThatIsNotJSONIsAnError() async throws {
        let good =
            "#EXTM3U\n#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",URI=\"title.json\"\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS=\"mp4a.40.2\"\ncompliant/audio/index.m3u8\n"
        let bad = good.replacingOccurrences(of: "title.json", with: "title.txt")
        let (clean, wrong) = try await Remote.withSamplesServer { server in
            server.inject(.dynamic { _ in good }, at: "good.m3u8")
            server.inject(.dynamic { _ in bad }, at: "bad.m3u8")
            server.inject(.media { _ in (200, Array("{\"en\": \"Big Buck Bunny\"}".utf8)) }, at: "title.json")
            server.inject(.media { _ in (200, Array("title = Big Buck Bunny".utf8)) }, at: "title.txt")
            return (try await Remote.check(server.url("good.m3u8")), try await Remote.check(server.url("bad.m3u8")))
        }
        #expect(clean.findings("session-data-format-mismatch").isEmpty, "\(clean.diagnostics)")
        let found = wrong.findings("session-data-format-mismatch")
        #expect(found.count == 1, "\(wrong.diagnostics)")
        #expect(found.first?.message.contains("the resource at URI title.txt is not JSON") == true, "\(found)")
        #expect(found.first?.location?.line == 2)
    }

    @Test func gzipPlaylistsAreInflated() async throws {
        let (report, requests) = try await Remote.withSamplesServer { server in
            server.inject(.gzip, at: "compliant/master.m3u8")
            return (
                try await Remote.check(server.url("compliant/master.m3u8"), { $0.playlistOnly = true }), server.requests
            )
        }
        #expect(report.inputError == nil)
        #expect(report.variants.count == 3)
        #expect(requests.first?.header("Accept-Encoding")?.contains("gzip") == true)
    }

    @Test func credentialsInTheURLAreSentAndNeverShown() async throws {
        let (report, requests) = try await Remote.withSamplesServer { server in
            for path in ["compliant/master.m3u8", "compliant/audio/index.m3u8", "compliant/audio/seg0.ts"] {
                server.inject(.basicAuth(user: "viewer", password: "s3cret"), at: path)
            }
            return (
                try await Remote.check(server.url("compliant/master.m3u8", userinfo: "viewer:s3cret")), server.requests
            )
        }
        #expect(report.findings("playlist-unreadable").isEmpty)
        #expect(report.findings("segment-unreadable").isEmpty)
        #expect(requests.contains { $0.path == "/compliant/audio/seg0.ts" && $0.header("Authorization") != nil })
        let shown = report.redactingCredentials()
        let text =
            ([shown.input] + shown.diagnostics.map { "\($0.message) \($0.location?.uri ?? "")" }
            + shown.variants.map(\.playlist)).joined()
        #expect(!text.contains("s3cret"))
        #expect(shown.input.contains("***@127.0.0.1"))
    }

    @Test func wrongCredentialsAreAnHTTP401Error() async throws {
        await #expect {
            try await Remote.withSamplesServer { server in
                server.inject(.basicAuth(user: "viewer", password: "s3cret"), at: "compliant/master.m3u8")
                return try await Remote.check(server.url("compliant/master.m3u8", userinfo: "viewer:wrong"))
            }
        } throws: { error in
            let text = CredentialRedaction.redact("\(error)")
            return text.contains("HTTP 401") && !text.contains("wrong")
        }
    }

    @Test func byteRangesAreFetchedWithRangeRequests() async throws {
        let (folder, expectedRanges) = try Remote.byteRangeStream()
        let (report, requests) = try await Remote.withServer(folder: folder.url.path) { server in
            (try await Remote.check(server.url("index.m3u8")), server.requests)
        }
        #expect(report.findings("segment-unreadable").isEmpty, "\(report.diagnostics)")
        let ranges = requests.filter { $0.path == "/all.aac" }.compactMap { $0.header("Range") }.sorted()
        #expect(ranges == expectedRanges)
        #expect(report.variants.first?.measuredPeakBitrate != nil)
    }

    @Test func remotePlaylistCannotReadLocalFilesOrOtherSchemes() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            Data(
                """
                #EXTM3U
                #EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS="mp4a.40.2"
                file:///etc/hostname
                #EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS="mp4a.40.2"
                ftp://127.0.0.1/audio.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS="mp4a.40.2"
                /etc/hostname

                """.utf8), to: "master.m3u8")
        let (report, requests) = try await Remote.withServer(folder: folder.url.path) { server in
            (try await Remote.check(server.url("master.m3u8"), { $0.playlistOnly = true }), server.requests)
        }
        let refused = report.findings("uri-outside-root")
        #expect(refused.map(\.location?.line) == [3, 5])
        #expect(refused.allSatisfy { $0.message.contains("not read") })
        // A bare absolute path is a path on the server, never on the disk.
        #expect(requests.map(\.path).contains("/etc/hostname"))
        #expect(report.findings("playlist-unreadable").first?.message.contains("HTTP 404") == true)
    }

    @Test func sampleReadsNSegmentsAndSaysSo() async throws {
        let (report, requests) = try await Remote.withSamplesServer { server in
            (
                try await Remote.check(server.url("packed-audio/audio/index.m3u8"), { $0.sampleSegments = 2 }),
                server.requests
            )
        }
        let sampled = report.findings("segments-sampled")
        #expect(sampled.count == 1)
        #expect(sampled.first?.message.contains("2 of 3 segments") == true, "\(sampled)")
        // First and last: spread over the stream.
        #expect(
            Set(requests.map(\.path).filter { $0.hasSuffix(".aac") }) == [
                "/packed-audio/audio/seg0.aac", "/packed-audio/audio/seg2.aac",
            ])
    }

    @Test func unreachableServerIsAClearError() async throws {
        // A port that was just free: nothing listens there any more.
        let port = try await Remote.withSamplesServer { $0.port }
        await #expect {
            try await Remote.check("http://127.0.0.1:\(port)/master.m3u8")
        } throws: { error in
            "\(error)".contains("cannot connect") || "\(error)".contains("connection")
        }
    }
}

@Test(arguments: [
    ("https://viewer:s3cret@cdn.example/master.m3u8", "https://***@cdn.example/master.m3u8"),
    ("cannot read http://a:b@h:8080/x.m3u8: HTTP 401", "cannot read http://***@h:8080/x.m3u8: HTTP 401"),
    // A JSON encoder that escapes slashes.
    (#""http:\/\/user:pw@h\/x.ts""#, #""http:\/\/***@h\/x.ts""#),
    // An @ in the path or the query is not userinfo; a URL without credentials stays as it is.
    ("https://h/a@b.ts", "https://h/a@b.ts"),
    // Every query value is hidden (which one a CDN signs with is its own choice), names and
    // the fragment stay; punctuation that ends a sentence is not part of the value.
    ("https://h/a@b.ts?c=d@e", "https://h/a@b.ts?c=***"),
    (
        "GET https://h/x.m3u8?Signature=abc&Key-Pair-Id=K1&flag#t=1: HTTP 403",
        "GET https://h/x.m3u8?Signature=***&Key-Pair-Id=***&flag#t=1: HTTP 403"
    ),
    ("(GET http://u:p@h/x.ts?token=t0k) failed.", "(GET http://***@h/x.ts?token=***) failed."),
    (#"{"uri":"https:\/\/h\/x.ts?acl=\/*~hmac=s3c\/ret","n":1}"#, #"{"uri":"https:\/\/h\/x.ts?acl=***","n":1}"#),
    ("--url=http://a:b@h/p#frag", "--url=http://***@h/p#frag"),
    ("plain/path.m3u8?x=1", "plain/path.m3u8?x=1"),
    ("mail me@example.com", "mail me@example.com"),
    ("two: http://u:p@a/x and https://q@b/y", "two: http://***@a/x and https://***@b/y"),
])
func credentialsAreRedacted(_ input: String, _ expected: String) {
    #expect(CredentialRedaction.redact(input) == expected)
}
