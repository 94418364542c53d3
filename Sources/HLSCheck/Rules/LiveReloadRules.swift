import HLSPlaylist

// Rules over reloads beyond the segments (LiveReloadChecks.swift): the watcher files its
// findings under these ids; the rules pass them on, as LiveRules' do.

private func liveFindings(_ stream: StreamAnalysis, _ id: String) -> [Finding] {
    (stream.live?.findings ?? []).filter { $0.rule == id }.map { Finding($0.message, at: $0.location) }
}

package struct LiveVODChangedRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-vod-changed", name: "VOD playlist changed", defaultSeverity: .error,
        summary:
            "A media playlist with EXT-X-PLAYLIST-TYPE:VOD differed when it was loaded again (--live-duration reloads it once).",
        rationale:
            "bis-22 §6.2.1: a VOD playlist cannot change. Clients load it once and may cache it for good; a server that edits it serves different clients different presentations.",
        specItems: [
            .bis("6.2.1", rfc: "6.2.1", .must, "A playlist with EXT-X-PLAYLIST-TYPE:VOD never changes.")
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        liveFindings(stream, Self.description.id)
    }
}

package struct LiveDateRangeChangedRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-daterange-changed", name: "Date range removed early or its ID reused", defaultSeverity: .error,
        summary:
            "Across reloads, an EXT-X-DATERANGE went while its dates still mapped to segments, an ID came back for a range with another START-DATE, or a range was added between an END-ON-NEXT range and the range that ends it.",
        rationale:
            "bis-22 §6.2.1: a client that joins later must see every range its segments fall in, so a range stays until its dates have left the playlist; an ID names one range for good, so clients can merge the tags that carry it; and an END-ON-NEXT range ends where the next range of its class starts, which a range slipped in between would change after the fact.",
        specItems: [
            .bis(
                "6.2.1", .must,
                "An EXT-X-DATERANGE is not removed while any of its dates maps to a segment of the playlist."),
            .bis("6.2.1", .must, "A new date range does not reuse the ID of an earlier one."),
            .bis(
                "6.2.1", .must,
                "No range of the CLASS of an END-ON-NEXT range is added between it and its Following Range."),
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        liveFindings(stream, Self.description.id)
    }
}

package struct LivePreloadHintBrokenRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-preload-hint-broken", name: "Preload hint named another resource", defaultSeverity: .error,
        summary:
            "The part or map an EXT-X-PRELOAD-HINT announced was added by the next version under another URI or byte offset.",
        rationale:
            "bis-22 §4.4.5.3: a low-latency client requests the hinted resource before the playlist lists it, to have it the moment it exists. If the part then appears under another URI, the client fetched the wrong bytes (or waits on a resource that never comes) and must fetch again.",
        specItems: [
            .bis(
                "4.4.5.3", .must,
                "A preload hint's URI and byte offset match those of the part or map later added for it.")
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        liveFindings(stream, Self.description.id)
    }
}

package struct LivePartStaleRule: Rule {
    package init() {}
    package static let description = RuleDescription.live(
        id: "live-part-stale", name: "No new partial segment within the part target", defaultSeverity: .error,
        summary: "A live playlist with partial segments went longer than its part target duration without a new part.",
        rationale:
            "bis-22 §6.2.1: a server that publishes partial segments adds the next one within one part target duration of the last. Low-latency clients play a few part targets behind the live edge (PART-HOLD-BACK); a late part stalls them.",
        specItems: [
            .bis(
                "6.2.1", .must,
                "A live playlist with parts gets a new part within one Part Target duration of the last.")
        ])
    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        liveFindings(stream, Self.description.id)
    }
}
