import HLSPlaylist

package struct LiveMediaSequenceRegressedRule: LiveRule {
    package static let description = RuleDescription.live(
        id: "live-media-sequence-regressed", name: "Media sequence went back", defaultSeverity: .error,
        summary: "A reload of a live playlist had a lower EXT-X-MEDIA-SEQUENCE than the version before.",
        rationale:
            "RFC 8216 §6.2.1: the server may only increment EXT-X-MEDIA-SEQUENCE. Clients locate their position by media sequence number; going back makes them replay or skip.",
        specItems: [.liveUpdatesOnlyAppendAndRemove])

    package static func judge(_ reload: LiveReload, memory: inout Void) -> [Finding] {
        guard case .changed(let previous, let current) = reload.outcome,
            current.mediaSequence < previous.mediaSequence
        else { return [] }
        return [
            Finding(
                "EXT-X-MEDIA-SEQUENCE went back from \(previous.mediaSequence) to \(current.mediaSequence) between reloads; it may only increase (RFC 8216 §6.2.1)",
                at: SourceLocation(uri: reload.uri, line: 0))
        ]
    }
}
