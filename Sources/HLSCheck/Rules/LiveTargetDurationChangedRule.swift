import HLSPlaylist

package struct LiveTargetDurationChangedRule: LiveRule {
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

    package static func judge(_ reload: LiveReload, memory: inout Void) -> [Finding] {
        guard case .changed(let previous, let current) = reload.outcome,
            previous.targetDuration != current.targetDuration
        else { return [] }
        return [
            Finding(
                "EXT-X-TARGETDURATION changed from \(previous.targetDuration.map(String.init) ?? "none") to \(current.targetDuration.map(String.init) ?? "none") between reloads; it must not change (RFC 8216 §6.2.1)",
                at: SourceLocation(uri: reload.uri, line: current.targetDurationLine ?? 0))
        ]
    }
}
