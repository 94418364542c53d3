import HLSCheck
import HLSPlaylist
import Testing

/// The live rules judge reloads the watcher observes (`LiveRule`): here they are handed reloads
/// directly, at chosen times, so that each rule's thresholds and messages are pinned without a
/// server or a clock. The loopback suites (LiveReloadTests, TLSAndLiveTests,
/// LowLatencyOriginTests) drive the same rules through a real watch.
@Suite struct LiveRuleJudgementTests {
    static let uri = "https://example.com/live.m3u8"

    /// A live playlist with target duration 4 and one 4 s segment per number in `numbers`, a
    /// discontinuity before each of `discontinuities`, and `header` lines after the target.
    static func playlist(_ numbers: ClosedRange<Int>, discontinuities: Set<Int> = [], header: String = "")
        throws -> MediaPlaylist
    {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(numbers.lowerBound)\n"
        text += header
        for number in numbers {
            if discontinuities.contains(number) { text += "#EXT-X-DISCONTINUITY\n" }
            text += "#EXTINF:4.0,\nseg\(number).ts\n"
        }
        return try #require(PlaylistParser.parse(Array(text.utf8), uri: uri).media)
    }

    static func reload(
        _ outcome: LiveReload.Outcome, number: Int = 1, at seconds: Double, answered: Double? = nil
    ) -> LiveReload {
        LiveReload(
            uri: uri, number: number, started: .milliseconds(Int64(seconds * 1000)),
            answered: .milliseconds(Int64((answered ?? seconds) * 1000)), outcome: outcome)
    }

    @Test func playlistIsStaleOnlyPastOneAndAHalfTargetDurations() throws {
        let first = try Self.playlist(10...12)
        var memory = try #require(LivePlaylistStaleRule.memory(watching: first, at: Self.uri))
        // Target duration 4: 6 s without a new segment is still in time, 6.5 s is not.
        #expect(LivePlaylistStaleRule.judge(Self.reload(.unchanged(current: first), at: 6), memory: &memory).isEmpty)
        let stale = LivePlaylistStaleRule.judge(
            Self.reload(.unchanged(current: first), number: 2, at: 6.5), memory: &memory)
        #expect(
            stale.map(\.message) == [
                "no new segment for at least 6.5 s, more than 1.5 × the target duration of 4 s (RFC 8216 §6.2.1)"
            ])
        #expect(stale.first?.location == SourceLocation(uri: Self.uri, line: 3))
        // Told once while it stays stale; a new segment starts the count again.
        #expect(LivePlaylistStaleRule.judge(Self.reload(.unchanged(current: first), at: 9), memory: &memory).isEmpty)
        let moved = try Self.playlist(11...13)
        #expect(
            LivePlaylistStaleRule.judge(Self.reload(.changed(previous: first, current: moved), at: 10), memory: &memory)
                .isEmpty)
        #expect(
            LivePlaylistStaleRule.judge(Self.reload(.unchanged(current: moved), at: 16.5), memory: &memory).count == 1)
    }

    @Test func failedReloadIsToldUnderTheStaleRule() throws {
        var memory = try #require(LivePlaylistStaleRule.memory(watching: try Self.playlist(10...12), at: Self.uri))
        let failed = LivePlaylistStaleRule.judge(Self.reload(.failed("HTTP 503"), number: 3, at: 1), memory: &memory)
        #expect(
            failed.map(\.message) == [
                "reload 3 of \(Self.uri) failed: HTTP 503; a live playlist must stay available (RFC 8216 §6.2.1)"
            ])
    }

    @Test func reloadThatAddsADiscontinuityBeforeAnySegmentLeftIsAppleOnly() throws {
        // The window grows from 0: nothing has left it, so only AS 8.17 asks for the tag.
        let first = try Self.playlist(0...2), grown = try Self.playlist(0...3, discontinuities: [3])
        var memory: Void = ()
        let findings = LiveDiscontinuitySequenceRule.judge(
            Self.reload(.changed(previous: first, current: grown), at: 4), memory: &memory)
        #expect(findings.count == 1)
        #expect(findings.first?.message.contains("(AS 8.17)") == true, "\(findings)")
        #expect(findings.first?.message.contains("which drops segments") == false, "\(findings)")
        // The EXTINF of the segment after the discontinuity.
        #expect(findings.first?.location == SourceLocation(uri: Self.uri, line: 12))
        // Once segments have left the window, bis-22 §6.2.2 asks for it too.
        let slid = try Self.playlist(1...3, discontinuities: [3])
        let dropped = LiveDiscontinuitySequenceRule.judge(
            Self.reload(.changed(previous: first, current: slid), at: 4), memory: &memory)
        #expect(dropped.first?.message.contains("which drops segments") == true, "\(dropped)")
    }

    @Test func discontinuitySequenceMustCountTheDiscontinuitiesThatLeft() throws {
        let first = try Self.playlist(10...12, discontinuities: [11], header: "#EXT-X-DISCONTINUITY-SEQUENCE:4\n")
        let kept = try Self.playlist(12...14, header: "#EXT-X-DISCONTINUITY-SEQUENCE:4\n")
        let counted = try Self.playlist(12...14, header: "#EXT-X-DISCONTINUITY-SEQUENCE:5\n")
        var memory: Void = ()
        let wrong = LiveDiscontinuitySequenceRule.judge(
            Self.reload(.changed(previous: first, current: kept), at: 4), memory: &memory)
        #expect(
            wrong.map(\.message) == [
                "EXT-X-DISCONTINUITY-SEQUENCE is 4 after 2 segment(s) left the window with 1 discontinuity; it should be 5 (RFC 8216 §4.3.3.3)"
            ])
        #expect(
            LiveDiscontinuitySequenceRule.judge(
                Self.reload(.changed(previous: first, current: counted), at: 4), memory: &memory
            ).isEmpty)
    }

    @Test func eachRuleJudgesOnlyThePlaylistsItIsAbout() throws {
        let live = try Self.playlist(10...12)
        let vod = try #require(
            PlaylistParser.parse(
                Array(
                    "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n"
                        .utf8),
                uri: Self.uri
            ).media)
        // The VOD playlist is loaded again to see it unchanged; the live rules leave it alone.
        #expect(LiveVODChangedRule.memory(watching: vod, at: Self.uri) != nil)
        #expect(LiveVODChangedRule.memory(watching: live, at: Self.uri) == nil)
        #expect(LivePlaylistStaleRule.memory(watching: vod, at: Self.uri) == nil)
        #expect(LiveSegmentChangedRule.memory(watching: vod, at: Self.uri) == nil)
        // Without EXT-X-PART-INF no part can be late.
        #expect(LivePartStaleRule.memory(watching: live, at: Self.uri) == nil)
    }

    @Test func answersToTheProbeAreJudgedByTheDirectiveRules() throws {
        var memory: Void = ()
        let asked = Self.uri + "?_HLS_part=0"
        func partAlone(_ status: Int) -> DirectiveExchange {
            DirectiveExchange(
                uri: Self.uri, asked: asked, request: .partWithoutMediaSequence,
                answer: DirectiveAnswer(status: status))
        }
        // bis-22 §6.2.5.2: _HLS_part without _HLS_msn is a bad request.
        #expect(BlockingReloadInvalidRule.judge(partAlone(400), memory: &memory).isEmpty)
        #expect(
            BlockingReloadInvalidRule.judge(partAlone(200), memory: &memory).map(\.message) == [
                "\(asked) was answered HTTP 200; _HLS_part without _HLS_msn must be answered 400 Bad Request (bis-22 §6.2.5.2)"
            ])
        // A removed segment answered 404 while it must still be served, at its line.
        let removed = DirectiveExchange(
            uri: Self.uri, asked: "https://example.com/seg10.ts",
            request: .removedResource("seg10.ts", isPart: false, line: 6), answer: DirectiveAnswer(status: 404))
        let findings = RemovedMediaUnavailableRule.judge(removed, memory: &memory)
        #expect(findings.first?.location == SourceLocation(uri: Self.uri, line: 6))
        #expect(findings.first?.message.hasPrefix("segment seg10.ts left the playlist during the watch") == true)
        // Other rules leave an answer that is not theirs alone.
        #expect(PartUnavailableRule.judge(removed, memory: &memory).isEmpty)
    }
}
