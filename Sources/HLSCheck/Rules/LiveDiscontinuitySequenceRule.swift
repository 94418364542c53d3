import HLSPlaylist

package struct LiveDiscontinuitySequenceRule: LiveRule {
    package static let description: RuleDescription = {
        var description = RuleDescription.live(
            id: "live-discontinuity-sequence", name: "Discontinuity sequence missing or wrong", defaultSeverity: .error,
            summary:
                "A live playlist carries EXT-X-DISCONTINUITY without EXT-X-DISCONTINUITY-SEQUENCE, or across reloads EXT-X-DISCONTINUITY-SEQUENCE went back or did not grow by the discontinuities that left the window.",
            rationale:
                "RFC 8216 §6.2.1 allows the server only to increment it; §4.3.3.3: it counts the discontinuities removed from the front, so clients can align variants and renditions. bis-22 §6.2.2 and AS 8.17: a live playlist (one that drops segments from the front) that carries, or will ever carry, EXT-X-DISCONTINUITY has the tag from its first version on: without it a client that joins after a discontinuity left the window numbers the discontinuities from 0, unlike one that joined before.",
            specItems: [
                .liveUpdatesOnlyAppendAndRemove,
                .bis(
                    "6.2.2", .must,
                    "The discontinuity sequence number increments by the discontinuities removed from the front of the playlist and never decreases."
                ),
                .bis(
                    "6.2.2", .must,
                    "A playlist with EXT-X-DISCONTINUITY from which segments are removed has EXT-X-DISCONTINUITY-SEQUENCE."
                ),
                .apple(
                    "8.17", .must,
                    "A live playlist that will ever carry EXT-X-DISCONTINUITY always has EXT-X-DISCONTINUITY-SEQUENCE: in every version read, and from the first version on when a reload adds one."
                ),
            ])
        // A live playlist read once already shows a missing tag: the rule runs on local files too.
        description.needsNetwork = false
        description.triggering = [
            RuleExample(
                "a live playlist that dropped segments, with a discontinuity and no sequence tag",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:40\n#EXTINF:6,\nseg40.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg41.ts\n"
                ]
            ).expecting(
                line: 7, "this live playlist carries EXT-X-DISCONTINUITY but has no EXT-X-DISCONTINUITY-SEQUENCE")
        ]
        description.profileExamples = [
            ProfileExample(
                .appleIOS, triggers: true,
                RuleExample(
                    "a live playlist that has dropped no segment yet",
                    files: [
                        "master.m3u8":
                            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n"
                    ]
                ).expecting(
                    line: 6, "this live playlist carries EXT-X-DISCONTINUITY but has no EXT-X-DISCONTINUITY-SEQUENCE"))
        ]
        description.nonTriggering = [
            RuleExample(
                "a live playlist with both tags",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:40\n#EXT-X-DISCONTINUITY-SEQUENCE:2\n#EXTINF:6,\nseg40.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg41.ts\n"
                ]),
            RuleExample(
                "a VOD playlist with a discontinuity",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n#EXT-X-ENDLIST\n"
                ]),
            RuleExample(
                "a live playlist that has dropped no segment yet (AS 8.17 alone, Apple's profiles)",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n"
                ]),
            RuleExample(
                "an EVENT playlist with a discontinuity (it never drops segments)",
                files: [
                    "master.m3u8":
                        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:6,\nseg0.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:6,\nseg1.ts\n"
                ]),
        ]
        return description
    }()

    /// Whether `media` is a live playlist (no EXT-X-ENDLIST, no EXT-X-PLAYLIST-TYPE: it may drop
    /// segments) that carries EXT-X-DISCONTINUITY without EXT-X-DISCONTINUITY-SEQUENCE; EVENT
    /// and VOD playlists never drop segments, so their discontinuities count from 0 for ever.
    static func lacksSequenceTag(_ media: MediaPlaylist) -> Bool {
        !media.endList && media.playlistType == nil && media.discontinuitySequenceLine == nil
            && media.segments.contains(where: \.discontinuity)
    }

    /// Whether segments have left `media`: its first segment's number is above 0. bis-22 §6.2.2
    /// asks for the tag once segments are removed; AS 8.17 of every live playlist.
    static func hasDroppedSegments(_ media: MediaPlaylist) -> Bool { media.mediaSequence > 0 }

    static let missingTagMessage =
        "this live playlist carries EXT-X-DISCONTINUITY but has no EXT-X-DISCONTINUITY-SEQUENCE: once the discontinuity leaves the window, clients that join later number discontinuities differently from those that joined before; add #EXT-X-DISCONTINUITY-SEQUENCE:0 before the first segment (and increment it as discontinuities leave) (bis-22 §6.2.2, AS 8.17)"
    /// What a reload that adds the first discontinuity to a playlist that has dropped segments
    /// is told (bis-22 §6.2.2 and AS 8.17) …
    static let reloadAddedMessage =
        "a reload added EXT-X-DISCONTINUITY to this live playlist, which drops segments and has no EXT-X-DISCONTINUITY-SEQUENCE: clients that join after the discontinuity left the window would number discontinuities differently from those that joined before; add #EXT-X-DISCONTINUITY-SEQUENCE:0 before the first segment, from the first version on (bis-22 §6.2.2, AS 8.17)"
    /// … and to one that has not dropped any yet (AS 8.17 alone: Apple's profiles).
    static let reloadAddedBeforeRemovalMessage =
        "a reload added EXT-X-DISCONTINUITY to this live playlist, which has no EXT-X-DISCONTINUITY-SEQUENCE: a live playlist that will ever carry a discontinuity has the tag from its first version on; add #EXT-X-DISCONTINUITY-SEQUENCE:0 before the first segment (AS 8.17)"

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        // AS 8.17 holds every live playlist to it, bis-22 §6.2.2 those that drop segments.
        let apple = configuration.profile == .appleIOS || configuration.profile == .appleTVOS
        // The versions first read; later versions are judged as the watcher reloads them.
        let first = stream.playlists.compactMap { playlist -> Finding? in
            guard let media = playlist.media, Self.lacksSequenceTag(media), apple || Self.hasDroppedSegments(media)
            else { return nil }
            return Finding(
                Self.missingTagMessage,
                at: playlist.location(line: playlist.tagLines(named: "#EXT-X-DISCONTINUITY").first ?? 1))
        }
        let watched = (stream.live?.findings(of: Self.description.id) ?? []).filter {
            apple || $0.message != Self.reloadAddedBeforeRemovalMessage
        }
        return first + watched
    }

    package static func judge(_ reload: LiveReload, memory: inout Void) -> [Finding] {
        guard case .changed(let previous, let current) = reload.outcome else { return [] }
        func at(_ line: Int?) -> SourceLocation { SourceLocation(uri: reload.uri, line: line ?? 0) }
        var findings: [Finding] = []
        let lastPrevious = previous.mediaSequence + previous.segments.count - 1
        if current.discontinuitySequence < previous.discontinuitySequence {
            findings.append(
                Finding(
                    "EXT-X-DISCONTINUITY-SEQUENCE went back from \(previous.discontinuitySequence) to \(current.discontinuitySequence) between reloads; it may only increase (RFC 8216 §6.2.1)",
                    at: at(0)))
        } else if current.mediaSequence > previous.mediaSequence {
            // Segments removed from the front take their discontinuities with them: the sequence
            // must grow by exactly that count (RFC 8216 §4.3.3.3).
            let removed = previous.segments.prefix(
                min(previous.segments.count, current.mediaSequence - previous.mediaSequence))
            let expected = previous.discontinuitySequence + removed.filter(\.discontinuity).count
            if current.mediaSequence <= lastPrevious + 1, current.discontinuitySequence != expected {
                findings.append(
                    Finding(
                        "EXT-X-DISCONTINUITY-SEQUENCE is \(current.discontinuitySequence) after \(removed.count) segment(s) left the window with \(expected - previous.discontinuitySequence) discontinuit\(expected - previous.discontinuitySequence == 1 ? "y" : "ies"); it should be \(expected) (RFC 8216 §4.3.3.3)",
                        at: at(0)))
            }
        }
        if lacksSequenceTag(current), !lacksSequenceTag(previous) {
            // AS 8.17 (and bis-22 §6.2.2 once segments have left): told when a reload adds the
            // first discontinuity; the version first read is judged on its own by `check`, which
            // keeps the second message for Apple's profiles.
            let dropped =
                hasDroppedSegments(current)
                || LiveSegmentChangedRule.removedWithoutMediaSequence(previous: previous, current: current) != nil
            findings.append(
                Finding(
                    dropped ? reloadAddedMessage : reloadAddedBeforeRemovalMessage,
                    at: at(current.segments.first(where: \.discontinuity).flatMap { $0.extinfLine ?? $0.uriLine })))
        }
        return findings
    }
}
