import Foundation
import HLSCheck
import HLSRemote
import HTTPTestServer
import TestSupport
import Testing

/// A self-signed certificate for 127.0.0.1, made with the openssl command at test time.
enum SelfSignedCertificate {
    static func make(in folder: TemporaryFolder) throws -> (certificate: String, key: String) {
        let certificate = folder.path("cert.pem"), key = folder.path("key.pem")
        try ChildProcess.run([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
            "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        return (certificate, key)
    }
}

@Suite("https and live streams over loopback")
struct TLSAndLiveTests {
    @Test func selfSignedCertificateFailsWithoutInsecureAndPassesWithIt() async throws {
        let folder = try TemporaryFolder()
        let tls = try SelfSignedCertificate.make(in: folder)
        try await Remote.withServer(folder: Remote.samples, tls: tls) { server in
            #expect(server.url("x").hasPrefix("https://"))
            await #expect {
                try await Remote.check(server.url("compliant/master.m3u8"), { $0.playlistOnly = true })
            } throws: { error in
                "\(error)".contains("certificate") && "\(error)".contains("--insecure")
            }
            var insecure = Remote.fast
            insecure.insecure = true
            let report = try await Remote.check(server.url("compliant/master.m3u8"), options: insecure)
            #expect(report.inputError == nil)
            #expect(report.findings("segment-unreadable").isEmpty)
            // The report says that nothing was verified.
            #expect(report.findings("tls-not-verified").count == 1)
            #expect(report.findings("tls-not-verified").first?.severity == .warning)
        }
    }

    @Test func redirectFromHTTPSToHTTPIsAnError() async throws {
        let folder = try TemporaryFolder()
        let tls = try SelfSignedCertificate.make(in: folder)
        try await Remote.withSamplesServer { plain in
            try await Remote.withServer(folder: Remote.samples, tls: tls) { secure in
                secure.inject(.redirect(to: plain.url("compliant/audio/seg0.ts")), at: "compliant/audio/seg0.ts")
                var insecure = Remote.fast
                insecure.insecure = true
                let report = try await Remote.check(secure.url("compliant/master.m3u8"), options: insecure)
                let downgrade = report.findings("redirect-to-http")
                #expect(downgrade.count == 1)
                #expect(downgrade.first?.severity == .error)
                #expect(
                    downgrade.first?.message.contains("http://127.0.0.1:\(plain.port)/compliant/audio/seg0.ts") == true)
                #expect(downgrade.first?.location?.uri.hasSuffix("compliant/audio/index.m3u8") == true)
                // The segment itself was read through the redirect.
                #expect(report.findings("segment-unreadable").isEmpty)
            }
        }
    }

    /// A live playlist that moves one segment forward on every request; `transform` breaks it.
    static func livePlaylist(
        targetDuration: Int = 1,
        _ transform: @escaping @Sendable (Int, inout (sequence: Int, target: Int)) -> Void = { _, _ in }
    )
        -> @Sendable (Int) -> String
    {
        { request in
            var state = (sequence: 10 + request, target: targetDuration)
            transform(request, &state)
            var text =
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(state.target)\n#EXT-X-MEDIA-SEQUENCE:\(state.sequence)\n"
            for number in state.sequence..<(state.sequence + 3) {
                text += "#EXTINF:1.0,\n/packed-audio/audio/seg\(number % 3).aac\n"
            }
            return text
        }
    }

    @Test func liveStreamThatAdvancesWellHasNoLiveFinding() async throws {
        let report = try await Remote.withSamplesServer { server in
            server.inject(.dynamic(Self.livePlaylist()), at: "live.m3u8")
            return try await Remote.check(
                server.url("live.m3u8"),
                {
                    $0.playlistOnly = true
                    $0.liveWatchSeconds = 2.5
                })
        }
        #expect(report.diagnostics.filter { $0.rule.hasPrefix("live-") }.isEmpty, "\(report.diagnostics)")
    }

    @Test func liveMediaSequenceGoingBackIsAnError() async throws {
        let report = try await Remote.withSamplesServer { server in
            server.inject(
                .dynamic(Self.livePlaylist { request, state in if request >= 1 { state.sequence = 5 } }),
                at: "live.m3u8")
            return try await Remote.check(
                server.url("live.m3u8"),
                {
                    $0.playlistOnly = true
                    $0.liveWatchSeconds = 2
                })
        }
        let regressed = report.findings("live-media-sequence-regressed")
        #expect(regressed.count == 1)
        #expect(regressed.first?.message.contains("from 10 to 5") == true, "\(regressed)")
    }

    @Test func liveTargetDurationChangeAndStalePlaylistAreErrors() async throws {
        let report = try await Remote.withSamplesServer { server in
            // From the second request on: target duration 2, and the window stops moving.
            server.inject(
                .dynamic(
                    Self.livePlaylist { request, state in
                        if request >= 1 { state = (sequence: 11, target: 2) }
                    }), at: "live.m3u8")
            return try await Remote.check(
                server.url("live.m3u8"),
                {
                    $0.playlistOnly = true
                    // The watch keeps the first version's target duration (1 s): the window last
                    // moved at the reload at 1 s, reloads at 2, 2.5 and 3 s see it unchanged, and at
                    // 3 s it is 2 s old, over 1.5 × 1 s.
                    $0.liveWatchSeconds = 4
                })
        }
        #expect(
            report.findings("live-target-duration-changed").first?.message.contains("from 1 to 2") == true,
            "\(report.diagnostics)")
        #expect(report.findings("live-playlist-stale").count == 1, "\(report.diagnostics)")
    }

    @Test func discontinuitySequenceThatMissesARemovedDiscontinuityIsAnError() async throws {
        let report = try await Remote.withSamplesServer { server in
            // Segment 11 follows an EXT-X-DISCONTINUITY. From the second request on the window
            // starts at 12: 10 and 11 left it, and with 11 one discontinuity, so the sequence
            // must go from 4 to 5. The server keeps 4.
            server.inject(
                .dynamic { request in
                    let first = request == 0 ? 10 : 12
                    var text =
                        "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(first)\n#EXT-X-DISCONTINUITY-SEQUENCE:4\n"
                    for number in first..<(first + 3) {
                        if number == 11 { text += "#EXT-X-DISCONTINUITY\n" }
                        text += "#EXTINF:1.0,\n/packed-audio/audio/seg\(number % 3).aac\n"
                    }
                    return text
                }, at: "live.m3u8")
            return try await Remote.check(
                server.url("live.m3u8"),
                {
                    $0.playlistOnly = true
                    $0.liveWatchSeconds = 2
                })
        }
        let wrong = report.findings("live-discontinuity-sequence")
        #expect(wrong.count == 1, "\(report.diagnostics)")
        #expect(wrong.first?.severity == .error)
        #expect(wrong.first?.message.contains("it should be 5") == true, "\(wrong)")
    }

    @Test func discontinuitySequenceGoingBackIsAnError() async throws {
        let report = try await Remote.withSamplesServer { server in
            server.inject(
                .dynamic { request in
                    let sequence = 10 + request, discontinuities = request == 0 ? 7 : 3
                    var text =
                        "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuities)\n"
                    for number in sequence..<(sequence + 3) {
                        text += "#EXTINF:1.0,\n/packed-audio/audio/seg\(number % 3).aac\n"
                    }
                    return text
                }, at: "live.m3u8")
            return try await Remote.check(
                server.url("live.m3u8"),
                {
                    $0.playlistOnly = true
                    $0.liveWatchSeconds = 2
                })
        }
        let back = report.findings("live-discontinuity-sequence")
        #expect(back.count == 1, "\(report.diagnostics)")
        #expect(back.first?.message.contains("went back from 7 to 3") == true, "\(back)")
    }

    @Test func replacedSegmentInALiveWindowIsAnError() async throws {
        let report = try await Remote.withSamplesServer { server in
            server.inject(
                .dynamic { request in
                    let last = request == 0 ? "seg0.aac" : "seg1.aac"
                    return
                        "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:1\n#EXTINF:1.0,\n/packed-audio/audio/\(last)\n"
                }, at: "live.m3u8")
            return try await Remote.check(
                server.url("live.m3u8"),
                {
                    $0.playlistOnly = true
                    $0.liveWatchSeconds = 2
                })
        }
        let changed = report.findings("live-segment-changed")
        #expect(changed.count == 1)
        #expect(changed.first?.message.contains("segment 1 changed") == true, "\(changed)")
    }
}

/// Segments a live playlist publishes while it is watched are read like the first window's.
@Suite("Live segments over loopback")
struct LiveSegmentTests {
    @Test func segmentsPublishedDuringTheWatchAreMeasured() async throws {
        let (report, requests) = try await Remote.withSamplesServer { server in
            server.inject(.dynamic(TLSAndLiveTests.livePlaylist()), at: "live.m3u8")
            let report = try await Remote.check(server.url("live.m3u8"), { $0.liveWatchSeconds = 2.5 })
            return (report, server.requests)
        }
        #expect(report.diagnostics.filter { $0.rule.hasPrefix("live-") }.isEmpty, "\(report.diagnostics)")
        // The first window holds 3 segments; each reload (about one a second) publishes one more.
        let reloads = requests.filter { $0.path == "/live.m3u8" }.count
        let segments = 3 + (reloads - 1)
        // The first load, then reloads at 1 s and 2 s of the watch's clock (the next, at 3 s, is
        // past 2.5 s).
        #expect(reloads == 3)
        // The playlist cycles through three files: the segments published later take the facts
        // already read for their file (SegmentFactsCache), except where a batch's first segment
        // asks for libavformat's stream-info pass, which the first read may not have made.
        let fetched = requests.map(\.path).filter { $0.hasSuffix(".aac") }
        #expect(Set(fetched).count == 3 && fetched.count <= segments, "\(fetched)")
        let variant = try #require(report.variants.first)
        #expect(variant.segmentsMeasured == segments)
        // The summary counts the whole watched timeline, not the first window's 3 segments.
        #expect(variant.segmentCount == segments)
        #expect(variant.duration == Double(segments))
        #expect(report.findings("segment-unreadable").isEmpty)
    }

    @Test func aBrokenSegmentPublishedDuringTheWatchIsAFinding() async throws {
        let report = try await Remote.withSamplesServer { server in
            // From the second version on, the newest segment is one the server does not have.
            server.inject(
                .dynamic { request in
                    var text =
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(10 + request)\n"
                    for number in (10 + request)..<(13 + request) {
                        text +=
                            "#EXTINF:1.0,\n"
                            + (number == 13 ? "/live/missing.aac" : "/packed-audio/audio/seg\(number % 3).aac") + "\n"
                    }
                    return text
                }, at: "live.m3u8")
            return try await Remote.check(server.url("live.m3u8"), { $0.liveWatchSeconds = 1.5 })
        }
        let unreadable = report.findings("segment-unreadable")
        #expect(unreadable.count == 1, "\(report.diagnostics)")
        #expect(unreadable.first?.message.contains("HTTP 404") == true, "\(unreadable)")
        #expect(unreadable.first?.message.contains("missing.aac") == true)
    }

    @Test func sampleBoundsTheSegmentsReadDuringTheWatch() async throws {
        let (report, requests) = try await Remote.withSamplesServer { server in
            server.inject(.dynamic(TLSAndLiveTests.livePlaylist()), at: "live.m3u8")
            let report = try await Remote.check(
                server.url("live.m3u8"),
                {
                    $0.liveWatchSeconds = 3.5
                    $0.sampleSegments = 2
                })
            return (report, server.requests)
        }
        // Each request of the playlist publishes one segment more: reloads at 1, 2 and 3 s of
        // the watch's clock publish 3. Of the first window's 3, --sample 2 reads 2; of those
        // published later every second one (4 are expected in 3.5 s at a target duration of
        // 1 s), 2 at most.
        let published = requests.filter { $0.path == "/live.m3u8" }.count - 1
        #expect(published == 3)
        let read = 2 + min(2, (published + 1) / 2)
        // The playlist cycles through three files: a segment whose file was read takes its facts
        // (SegmentFactsCache), so there are at most as many GETs as segments read.
        let segmentRequests = requests.filter { $0.path.hasSuffix(".aac") }.count
        #expect(segmentRequests >= 2 && segmentRequests <= read, "\(requests.map(\.path))")
        let sampled = report.findings("segments-sampled")
        #expect(sampled.count == 1)
        #expect(sampled.first?.message.contains("\(read) of \(3 + published) segments") == true, "\(sampled)")
    }

    @Test func playlistOnlyWatchReadsNoSegments() async throws {
        let requests = try await Remote.withSamplesServer { server in
            server.inject(.dynamic(TLSAndLiveTests.livePlaylist()), at: "live.m3u8")
            _ = try await Remote.check(
                server.url("live.m3u8"),
                {
                    $0.liveWatchSeconds = 1.5
                    $0.playlistOnly = true
                })
            return server.requests
        }
        #expect(requests.filter { $0.path.hasSuffix(".aac") }.isEmpty)
    }
}
