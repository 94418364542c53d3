import HLSPlaylist

// Rules over reloads of a live playlist (`--live-duration`, docs/remote.md). The watcher
// (LiveWatcher) files its findings under these ids; the rules only pass them on.

extension RuleDescription {
    /// A rule judged across reloads: no single playlist file can show it.
    static func live(
        id: String, name: String, defaultSeverity: Severity, summary: String, rationale: String,
        specItems: [SpecItem] = []
    ) -> RuleDescription {
        var description = RuleDescription(
            id: id, name: name, defaultSeverity: defaultSeverity, summary: summary, rationale: rationale,
            specItems: specItems)
        description.needsNetwork = true
        return description
    }
}

private func liveFindings(_ stream: StreamAnalysis, _ id: String) -> [Finding] {
    (stream.live?.findings ?? []).filter { $0.rule == id }.map { Finding($0.message, at: $0.location) }
}

package struct LiveMediaSequenceRegressedRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-media-sequence-regressed", name: "Media sequence went back", defaultSeverity: .error,
        summary: "A reload of a live playlist had a lower EXT-X-MEDIA-SEQUENCE than the version before.",
        rationale:
            "RFC 8216 §6.2.1: the server may only increment EXT-X-MEDIA-SEQUENCE. Clients locate their position by media sequence number; going back makes them replay or skip.",
        specItems: [
            .bis(
                "6.2.1", rfc: "6.2.1", .must,
                "A server changes a media playlist only by appending, removing from the front and incrementing EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE."
            )
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        liveFindings(stream, Self.description.id)
    }
}

package struct LiveDiscontinuitySequenceRule: Rule {
    package init() {}
    package static let description: RuleDescription = {
        var description = RuleDescription.live(
            id: "live-discontinuity-sequence", name: "Discontinuity sequence missing or wrong", defaultSeverity: .error,
            summary:
                "A live playlist carries EXT-X-DISCONTINUITY without EXT-X-DISCONTINUITY-SEQUENCE, or across reloads EXT-X-DISCONTINUITY-SEQUENCE went back or did not grow by the discontinuities that left the window.",
            rationale:
                "RFC 8216 §6.2.1 allows the server only to increment it; §4.3.3.3: it counts the discontinuities removed from the front, so clients can align variants and renditions. bis-22 §6.2.2 and AS 8.17: a live playlist (one that drops segments from the front) that carries, or will ever carry, EXT-X-DISCONTINUITY has the tag from its first version on: without it a client that joins after a discontinuity left the window numbers the discontinuities from 0, unlike one that joined before.",
            specItems: [
                .bis(
                    "6.2.1", rfc: "6.2.1", .must,
                    "A server changes a media playlist only by appending, removing from the front and incrementing EXT-X-MEDIA-SEQUENCE and EXT-X-DISCONTINUITY-SEQUENCE."
                ),
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
    /// What the watcher says when a reload adds the first discontinuity to a playlist that has
    /// dropped segments (bis-22 §6.2.2 and AS 8.17) …
    static let reloadAddedMessage =
        "a reload added EXT-X-DISCONTINUITY to this live playlist, which drops segments and has no EXT-X-DISCONTINUITY-SEQUENCE: clients that join after the discontinuity left the window would number discontinuities differently from those that joined before; add #EXT-X-DISCONTINUITY-SEQUENCE:0 before the first segment, from the first version on (bis-22 §6.2.2, AS 8.17)"
    /// … and to one that has not dropped any yet (AS 8.17 alone: Apple's profiles).
    static let reloadAddedBeforeRemovalMessage =
        "a reload added EXT-X-DISCONTINUITY to this live playlist, which has no EXT-X-DISCONTINUITY-SEQUENCE: a live playlist that will ever carry a discontinuity has the tag from its first version on; add #EXT-X-DISCONTINUITY-SEQUENCE:0 before the first segment (AS 8.17)"

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        // AS 8.17 holds every live playlist to it, bis-22 §6.2.2 those that drop segments.
        let apple = configuration.profile == .appleIOS || configuration.profile == .appleTVOS
        // The versions first read; later versions are the watcher's (LiveComparison).
        let first = stream.playlists.compactMap { playlist -> Finding? in
            guard let media = playlist.media, Self.lacksSequenceTag(media), apple || Self.hasDroppedSegments(media)
            else { return nil }
            return Finding(
                Self.missingTagMessage,
                at: playlist.location(line: playlist.tagLines(named: "#EXT-X-DISCONTINUITY").first ?? 1))
        }
        let watched = liveFindings(stream, Self.description.id).filter {
            apple || $0.message != Self.reloadAddedBeforeRemovalMessage
        }
        return first + watched
    }
}

package struct LiveTargetDurationChangedRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-target-duration-changed", name: "Target duration changed", defaultSeverity: .error,
        summary: "EXT-X-TARGETDURATION differs between two reloads of a live playlist.",
        rationale:
            "RFC 8216 §6.2.1 lists the only changes a server may make to a media playlist; changing EXT-X-TARGETDURATION is not one. Clients time their reloads by it (§6.3.4).",
        specItems: [
            .bis(
                "6.2.1", rfc: "6.2.1", .must,
                "A server changes a media playlist only by appending, removing from the front and incrementing its sequence numbers; the target duration stays."
            )
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        liveFindings(stream, Self.description.id)
    }
}

package struct LiveSegmentChangedRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-segment-changed", name: "Published segment changed or removed out of order", defaultSeverity: .error,
        summary:
            "A segment kept its media sequence number but changed URI, duration, discontinuity or key, segments vanished from the end of the window, or a playlist with EXT-X-PLAYLIST-TYPE, or without EXT-X-MEDIA-SEQUENCE, dropped segments from the front.",
        rationale:
            "RFC 8216 §6.2.1: the server may only append, and remove segments from the front in the order they appear. A client that already scheduled a segment must find the same one. bis-22 §6.2.3: the EXT-X-KEY of a segment still in the playlist stays, or a client that reads the segment later cannot decrypt it.",
        specItems: [
            .bis(
                "6.2.1", rfc: "6.2.1", .must,
                "Segments are removed only from the front, in playlist order, and a published segment keeps its URI and duration."
            ),
            .bis(
                "6.2.3", rfc: "6.2.3", .must,
                "A key stays in the playlist while it applies to a segment of it; it is not removed before."),
            .bis(
                "6.2.2", rfc: "6.2.2", .must, "A playlist from which segments are removed has no EXT-X-PLAYLIST-TYPE."),
            .bis(
                "6.2.2", rfc: "6.2.2", .must,
                "A playlist from which segments are removed has EXT-X-MEDIA-SEQUENCE: seen when a reload starts at a later segment of the previous version and neither has the tag."
            ),
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        liveFindings(stream, Self.description.id)
    }
}

package struct LivePlaylistStaleRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-playlist-stale", name: "Live playlist not refreshed in time", defaultSeverity: .error,
        summary:
            "A live playlist went longer than 1.5 × its target duration without a new segment, or a reload failed.",
        rationale:
            "RFC 8216 §6.2.1: a media playlist without EXT-X-ENDLIST must get a new version with at least one new segment no later than 1.5 times the target duration after the previous one; players that run dry stall.",
        specItems: [
            .bis(
                "6.2.1", rfc: "6.2.1", .must,
                "A live playlist gets a new version with at least one new segment within 1.5 target durations of the last."
            )
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        liveFindings(stream, Self.description.id)
    }
}

/// `--sample N`: the report says which share of the segments was read.
package struct SegmentsSampledRule: Rule {
    package init() {}
    package static let description = RuleDescription(
        id: "segments-sampled", name: "Segments sampled", defaultSeverity: .note,
        summary:
            "Only some segments of a media playlist were read (--sample N): measured bit rates and content findings cover those alone.",
        rationale:
            "A quick check of a long stream reads N segments spread over each media playlist. Peak and average bit rates are then lower bounds, and a problem in an unread segment goes unseen; the report says so every time.",
        needsMedia: true)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.measurements.values.sorted { $0.playlistURI < $1.playlistURI }.compactMap { measurement in
            let skipped = measurement.records.count(where: \.sampledOut)
            guard skipped > 0 else { return nil }
            let read = measurement.records.count - skipped
            return Finding(
                "sampled: \(read) of \(measurement.records.count) segments of this playlist were read (--sample \(configuration.sampleSegments ?? read)); bit rates and content findings cover those only",
                at: SourceLocation(uri: measurement.playlistURI, line: measurement.records.first?.line ?? 0))
        }
    }
}
