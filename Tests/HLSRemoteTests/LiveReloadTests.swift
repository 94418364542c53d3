import Foundation
import HLSCheck
import HLSRemote
import HTTPTestServer
import TestSupport
import Testing

/// What must hold across reloads beyond the segments themselves: keys, date ranges, a VOD
/// playlist that must not change. Each test serves versions of a playlist that differ in one
/// way, watched on a stepping clock.
@Suite("Live reloads over loopback")
struct LiveReloadTests {
    /// A live playlist of three one-second segments from `sequence`, each with its date, and
    /// `extra` lines before the first segment.
    static func live(from sequence: Int, extra: String = "") -> String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n" + extra
        for number in sequence..<(sequence + 3) {
            text += "#EXT-X-PROGRAM-DATE-TIME:\(date(number))\n#EXTINF:1.0,\n/packed-audio/audio/seg\(number % 3).aac\n"
        }
        return text
    }

    /// A VOD playlist of `count` one-second segments.
    static func vod(_ count: Int) -> String {
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + (0..<count).map { "#EXTINF:1.0,\n/packed-audio/audio/seg\($0).aac\n" }.joined() + "#EXT-X-ENDLIST\n"
    }

    /// Segment `number` starts at second `number` of 2026.
    static func date(_ number: Int) -> String { String(format: "2026-01-01T00:00:%02d.000Z", number) }

    static func watch(_ versions: @escaping @Sendable (Int) -> String, seconds: Double = 2.5) async throws
        -> CheckReport
    {
        try await Remote.withSamplesServer { server in
            server.inject(.dynamic(versions), at: "live.m3u8")
            return try await Remote.check(
                server.url("live.m3u8"),
                {
                    $0.playlistOnly = true
                    $0.liveWatchSeconds = seconds
                })
        }
    }

    @Test func keyThatDisappearsWhileItsSegmentStaysIsAnError() async throws {
        let report = try await Self.watch { request in
            // Version 0: segments 10–12 under a key. Then 11–13 with no key: 11 and 12 lost theirs.
            request == 0
                ? Self.live(from: 10, extra: "#EXT-X-KEY:METHOD=AES-128,URI=\"k1.key\"\n") : Self.live(from: 11)
        }
        let changed = report.findings("live-segment-changed")
        #expect(changed.count == 1, "\(report.diagnostics)")
        #expect(
            changed.first?.message.contains("EXT-X-KEY METHOD=AES-128,URI=k1.key became none") == true, "\(changed)")
    }

    @Test func dateRangeRemovedWhileMappedAndItsIDReusedAreErrors() async throws {
        let report = try await Self.watch { request in
            switch request {
            // A range over segment 11, then gone while 11 is still listed, then its ID for a new range.
            case 0:
                Self.live(from: 10, extra: "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"\(Self.date(11))\",DURATION=1\n")
            case 1: Self.live(from: 11)
            default:
                Self.live(from: 12, extra: "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"\(Self.date(13))\",DURATION=1\n")
            }
        }
        let ranges = report.findings("live-daterange-changed")
        #expect(ranges.contains { $0.message.contains("EXT-X-DATERANGE ad was removed") }, "\(report.diagnostics)")
        #expect(
            ranges.contains { $0.message.contains("ID ad was used for a range starting \(Self.date(11))") }, "\(ranges)"
        )
        #expect(ranges.allSatisfy { $0.severity == .error })
    }

    @Test func rangeSlippedBetweenEndOnNextRangesIsAnError() async throws {
        let chapters =
            "#EXT-X-DATERANGE:ID=\"c1\",CLASS=\"chapter\",START-DATE=\"\(Self.date(10))\",END-ON-NEXT=YES\n"
            + "#EXT-X-DATERANGE:ID=\"c2\",CLASS=\"chapter\",START-DATE=\"\(Self.date(12))\",END-ON-NEXT=YES\n"
        let report = try await Self.watch { request in
            request == 0
                ? Self.live(from: 10, extra: chapters)
                : Self.live(
                    from: 10,
                    extra: chapters
                        + "#EXT-X-DATERANGE:ID=\"c9\",CLASS=\"chapter\",START-DATE=\"\(Self.date(11))\",END-ON-NEXT=YES\n"
                )
        }
        let ranges = report.findings("live-daterange-changed")
        #expect(ranges.count == 1, "\(report.diagnostics)")
        #expect(
            ranges.first?.message.contains("c9 of CLASS chapter was added between END-ON-NEXT range c1") == true,
            "\(ranges)")
    }

    @Test func rangesThatStayAndLeaveWithTheirSegmentsAreClean() async throws {
        let report = try await Self.watch { request in
            // The range over segment 10 goes once segment 10 has left the window.
            Self.live(
                from: 10 + request,
                extra: request == 0 ? "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"\(Self.date(10))\",DURATION=1\n" : "")
        }
        #expect(report.diagnostics.filter { $0.rule.hasPrefix("live-") }.isEmpty, "\(report.diagnostics)")
    }

    @Test func eventPlaylistThatDropsSegmentsIsAnErrorAndOneThatGrowsIsNot() async throws {
        let event = "#EXT-X-PLAYLIST-TYPE:EVENT\n"
        let sliding = try await Self.watch { request in Self.live(from: 10 + request, extra: event) }
        let dropped = sliding.findings("live-segment-changed")
        #expect(dropped.count == 1, "\(sliding.diagnostics)")
        #expect(
            dropped.first?.message.contains("removed from the front of a playlist with EXT-X-PLAYLIST-TYPE:EVENT")
                == true, "\(dropped)")
        let growing = try await Self.watch { request in
            // Segments 10, 11, 12, then one more per reload, none removed.
            Self.live(from: 10, extra: event)
                + (0..<request).map { "#EXTINF:1.0,\n/packed-audio/audio/seg\($0 % 3).aac\n" }.joined()
        }
        #expect(growing.diagnostics.filter { $0.rule.hasPrefix("live-") }.isEmpty, "\(growing.diagnostics)")
    }

    @Test func playlistThatDropsSegmentsWithoutAMediaSequenceIsAnError() async throws {
        // Segments 10–12, then 11–13, 12–14: the window slides, but no EXT-X-MEDIA-SEQUENCE
        // numbers the segments, so each version numbers its first segment 0.
        let report = try await Self.watch { request in
            Self.live(from: 10 + request).replacingOccurrences(of: "#EXT-X-MEDIA-SEQUENCE:\(10 + request)\n", with: "")
        }
        let changed = report.findings("live-segment-changed")
        #expect(!changed.isEmpty, "\(report.diagnostics)")
        #expect(
            changed.allSatisfy {
                $0.message.contains(
                    "1 segment(s) were removed from the front of this playlist between reloads, but it has no EXT-X-MEDIA-SEQUENCE"
                )
            }, "\(changed)")
        #expect(changed.allSatisfy { $0.severity == .error })
    }

    @Test func discontinuityInALivePlaylistWithoutItsSequenceTagIsAnError() async throws {
        // The first version has no discontinuity; the reload adds one before the new segment,
        // and neither version has EXT-X-DISCONTINUITY-SEQUENCE (AS 8.17).
        let added = try await Self.watch(
            { request in
                var text = Self.live(from: 10 + min(request, 1))
                if request > 0, let last = text.range(of: "#EXTINF", options: .backwards) {
                    text.insert(contentsOf: "#EXT-X-DISCONTINUITY\n", at: last.lowerBound)
                }
                return text
            }, seconds: 1.5)
        let missing = added.findings("live-discontinuity-sequence")
        #expect(missing.count == 1, "\(added.diagnostics)")
        #expect(
            missing.first?.message.contains(
                "a reload added EXT-X-DISCONTINUITY to this live playlist, which drops segments and has no EXT-X-DISCONTINUITY-SEQUENCE"
            ) == true, "\(missing)")
        // With the tag from the first version on, the same stream is clean.
        let tagged = try await Self.watch(
            { request in
                var text = Self.live(from: 10 + min(request, 1), extra: "#EXT-X-DISCONTINUITY-SEQUENCE:0\n")
                if request > 0, let last = text.range(of: "#EXTINF", options: .backwards) {
                    text.insert(contentsOf: "#EXT-X-DISCONTINUITY\n", at: last.lowerBound)
                }
                return text
            }, seconds: 1.5)
        #expect(tagged.findings("live-discontinuity-sequence").isEmpty, "\(tagged.diagnostics)")
    }

    @Test func discontinuityAddedBeforeAnySegmentLeftIsReportedInAppleProfilesOnly() async throws {
        // The window grows from segment 0 and drops nothing; the reload adds a discontinuity
        // before the new segment 3. bis-22 §6.2.2 asks for the tag once segments leave, AS 8.17
        // of every live playlist that will ever carry one.
        let versions: @Sendable (Int) -> String = { request in
            var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n"
            for number in 0..<(request == 0 ? 3 : 4) {
                if number == 3 { text += "#EXT-X-DISCONTINUITY\n" }
                text += "#EXTINF:1.0,\n/packed-audio/audio/seg\(number % 3).aac\n"
            }
            return text
        }
        func watch(_ profile: Profile) async throws -> CheckReport {
            try await Remote.withSamplesServer { server in
                server.inject(.dynamic(versions), at: "live.m3u8")
                return try await Remote.check(server.url("live.m3u8")) {
                    profile.configure(&$0)
                    $0.playlistOnly = true
                    $0.liveWatchSeconds = 1.5
                }
            }
        }
        let apple = try await watch(.appleIOS).findings("live-discontinuity-sequence")
        #expect(apple.count == 1, "\(apple)")
        #expect(
            apple.first?.message.contains(
                "which has no EXT-X-DISCONTINUITY-SEQUENCE: a live playlist that will ever carry") == true, "\(apple)")
        #expect(try await watch(.rfc8216).findings("live-discontinuity-sequence").isEmpty)
    }

    @Test func vodPlaylistThatChangesIsAnErrorAndOneThatStaysIsNot() async throws {
        let changing = try await Self.watch { request in Self.vod(request == 0 ? 2 : 3) }
        let changed = changing.findings("live-vod-changed")
        #expect(changed.count == 1, "\(changing.diagnostics)")
        #expect(changed.first?.message.contains("it listed 2 segments and now lists 3") == true, "\(changed)")
        let steady = try await Self.watch { _ in Self.vod(2) }
        #expect(steady.diagnostics.filter { $0.rule.hasPrefix("live-") }.isEmpty, "\(steady.diagnostics)")
    }
}
