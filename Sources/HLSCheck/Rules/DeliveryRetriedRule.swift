import HLSPlaylist

// Rules about how a remote stream is delivered over HTTP (docs/remote.md). They read the
// delivery log the remote sources kept; on a local stream the log is empty and they are silent.

/// Requests that needed retries: the stream played, but a client on the same network would
/// have stalled or switched down.
package struct DeliveryRetriedRule: Rule {
    package static let description = RuleDescription.network(
        id: "delivery-retried", name: "Request retried", defaultSeverity: .note,
        summary: "A request failed with a 5xx status or a reset connection and was retried (--retries).",
        rationale: """
            hlscheck retries a 5xx answer or a broken connection a bounded number of times with \
            backoff, as players do (RFC 8216 §6.3.1 leaves retry policy to clients). A resource that \
            needed it is reported so the check stays honest: players on a slow network may give up \
            where hlscheck succeeded.
            """)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.delivery.records.compactMap { record in
            guard !record.retries.isEmpty else { return nil }
            let outcome =
                record.failure.map { "still failing: \($0)" }
                ?? "then HTTP \(record.status ?? 200)\(record.httpVersion.map { " over \($0)" } ?? "")"
            return Finding(
                "\(record.kind.rawValue) \(record.uri) needed \(record.retries.count) retr\(record.retries.count == 1 ? "y" : "ies") (\(record.retries.joined(separator: ", "))), \(outcome)",
                at: stream.deliveryLocation(of: record.uri))
        }
    }
}
