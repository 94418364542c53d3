import HLSPlaylist

// Rules over the answers to delivery directives (DeliveryDirectiveProbe): with --live-duration,
// a playlist whose EXT-X-SERVER-CONTROL offers blocking reloads or delta updates is sent the
// directives, and these rules pass on what the answers showed.

package struct BlockingReloadInvalidRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "blocking-reload-invalid", name: "Blocking reload answered wrongly", defaultSeverity: .error,
        summary:
            "A server that says CAN-BLOCK-RELOAD=YES answered _HLS_msn or _HLS_part before the playlist held the segment or part asked for, with a delta update, with an error, did not answer _HLS_part alone with 400, or did not ignore the directives on an ended playlist.",
        rationale:
            "bis-22 §6.2.5.2: a low-latency client asks for the next segment or part and the server holds the request until the playlist has it, then sends the entire playlist; a part index past a segment's last part means the next segment's first part; _HLS_part without _HLS_msn is a bad request (400); once the playlist has EXT-X-ENDLIST the directives are ignored. A server that answers early makes the client poll; one that never answers stalls it.",
        specItems: [
            .bis(
                "6.2.5.2", .must, "A request with _HLS_msn is held until the playlist holds that media sequence number."
            ),
            .bis("6.2.5.2", .must, "A request with _HLS_msn and _HLS_part is held until the playlist holds that part."),
            .bis("6.2.5.2", .must, "A Part Index past a segment's last part asks for part 0 of the next segment."),
            .bis("6.2.5.2", .must, "A blocking reload answers with the entire playlist."),
            .bis("6.2.5.2", .must, "A playlist with EXT-X-ENDLIST ignores _HLS_msn and _HLS_part."),
            .bis("6.2.5.2", .must, "_HLS_part without _HLS_msn is answered 400."),
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.live?.findings(of: Self.description.id) ?? []
    }
}

package struct DeltaUpdateInvalidRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "delta-update-invalid", name: "Delta update answered wrongly", defaultSeverity: .error,
        summary:
            "A server that says CAN-SKIP-UNTIL answered _HLS_skip with the whole playlist, or with a delta update that differs from the playlist in what it does not skip or misses removed date ranges; or a server without it (or an ended playlist) answered _HLS_skip with a delta update.",
        rationale:
            "bis-22 §6.2.5.1: a client that asks for a delta update (_HLS_skip=YES, or v2 to skip date ranges too) merges it into the copy it holds; every tag the update does not skip must be as in the whole playlist, and a v2 update lists the date ranges removed since (RECENTLY-REMOVED-DATERANGES, §4.4.5.2), or the client keeps ranges that are gone. A server that cannot skip, or a playlist that has ended, ignores the directive.",
        specItems: [
            .bis(
                "6.2.5.1", .must,
                "A playlist with CAN-SKIP-UNTIL answers a request with _HLS_skip with a delta update: the server must respond so."
            ),
            .bis(
                "6.2.5.1", .must, "RECENTLY-REMOVED-DATERANGES lists the date ranges removed within the skip boundary."),
            .bis("6.2.5.1", .must, "A delta update keeps every tag that is not skipped."),
            .bis("6.2.5.1", .must, "Without CAN-SKIP-UNTIL, or with EXT-X-ENDLIST, the server must ignore _HLS_skip."),
            .bis("4.4.5.2", .must, "A delta update that skips date ranges has RECENTLY-REMOVED-DATERANGES."),
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.live?.findings(of: Self.description.id) ?? []
    }
}

package struct PartUnavailableRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "part-unavailable", name: "Listed part or hinted resource not served", defaultSeverity: .error,
        summary:
            "A partial segment the playlist lists without GAP=YES, or the resource its EXT-X-PRELOAD-HINT names, was answered with an error (--live-duration requests them once the watch is over, unless --playlist-only).",
        rationale:
            "A low-latency client fetches each part the moment the playlist lists it, and requests the hinted part before it is listed, expecting the server to hold that request until the part is ready (bis-22 §6.2.6). A part that is not there must say GAP=YES (§4.4.4.9, §6.2.1); a 404 instead stalls the client at the live edge.",
        specItems: [
            .bis("4.4.4.9", .must, "A partial segment that cannot be fetched is marked GAP=YES."),
            .bis("6.2.1", .must, "A Partial segment can be fetched as soon as it is in the playlist."),
            .bis(
                "6.2.1", .must,
                "Gap parts carry GAP=YES, as gap segments carry EXT-X-GAP: a listed part without it that cannot be fetched is reported."
            ),
            .bis("6.2.6", .must, "A hinted resource is available to requests as soon as its hint is in the playlist."),
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.live?.findings(of: Self.description.id) ?? []
    }
}

package struct RemovedMediaUnavailableRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "removed-media-unavailable", name: "Removed part or segment deleted too early", defaultSeverity: .error,
        summary:
            "A segment or part that left a live playlist during --live-duration was answered with an error when requested once the watch was over, sooner than the protocol lets a server delete it (not with --playlist-only).",
        rationale:
            "bis-22 §6.2.2: a client may hold an older version of the playlist and fetch from it, so a part that left the playlist stays downloadable for three target durations, and a segment for its own duration plus the playlist's. Deleting them sooner makes clients that are a reload behind fail.",
        specItems: [
            .bis("6.2.2", .must, "A removed Partial Segment stays available for 3 × the target duration."),
            .bis(
                "6.2.2", .must,
                "A removed segment stays available for its Availability duration, its own plus the playlist's."),
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.live?.findings(of: Self.description.id) ?? []
    }
}
