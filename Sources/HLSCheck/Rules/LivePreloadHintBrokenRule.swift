import HLSPlaylist

package struct LivePreloadHintBrokenRule: LiveRule {
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

    /// bis-22 §4.4.5.3: the part or map a preload hint announced is added under the hint's
    /// URI (and at its byte offset, when the hint gives one).
    package static func judge(_ reload: LiveReload, memory: inout Void) -> [Finding] {
        guard case .changed(let previous, let current) = reload.outcome else { return [] }
        let uri = reload.uri
        var findings: [Finding] = []
        let lastPrevious = previous.mediaSequence + previous.segments.count - 1
        for hint in previous.preloadHints {
            guard let hinted = hint.string("URI") else { continue }
            switch hint.string("TYPE") {
            case "PART":
                // The hinted part is the one after the last listed part.
                let next: (sequence: Int, index: Int)
                if let last = previous.lastPart {
                    next = last.sequence == lastPrevious ? (lastPrevious + 1, 0) : (last.sequence, last.index + 1)
                } else {
                    next = (lastPrevious + 1, 0)
                }
                guard let parts = current.parts(ofSegment: next.sequence), next.index < parts.count else { continue }
                let part = parts[next.index]
                let offset = hint.decimalInteger("BYTERANGE-START").map(Int.init)
                if part.uri != hinted || (offset != nil && part.byteRange != nil && part.byteRange?.offset != offset) {
                    let what = part.uri != hinted ? "URI \(part.uri)" : "byte offset \(part.byteRange?.offset ?? 0)"
                    findings.append(
                        Finding(
                            "EXT-X-PRELOAD-HINT announced part \(next.index) of segment \(next.sequence) as \(hinted)\(offset.map { " from byte \($0)" } ?? ""), but it was added with \(what); a hint must name the part that follows (bis-22 §4.4.5.3)",
                            at: SourceLocation(uri: uri, line: part.line)))
                }
            case "MAP":
                // The hinted map is the next one new segments use.
                let previousMap = previous.segments.last?.map?.uri
                guard
                    let newMap = current.segments.first(where: {
                        $0.mediaSequence > lastPrevious && $0.map?.uri != previousMap
                    })?.map
                else { continue }
                if newMap.uri != hinted {
                    findings.append(
                        Finding(
                            "EXT-X-PRELOAD-HINT announced the next EXT-X-MAP as \(hinted), but it was added as \(newMap.uri); a hint must name the resource that follows (bis-22 §4.4.5.3)",
                            at: SourceLocation(uri: uri, line: newMap.line)))
                }
            default:
                continue
            }
        }
        return findings
    }
}
