import HLSPlaylist

// Rules about how a remote stream is delivered over HTTP (docs/remote.md). They read the
// delivery log the remote sources kept; on a local stream the log is empty and they are silent.

/// An https request redirected to plain http.
package struct RedirectToHTTPRule: Rule {
    package static let description = RuleDescription.network(
        id: "redirect-to-http", name: "Redirect from https to http", defaultSeverity: .error,
        summary: "A playlist, key or segment requested over https was redirected to a plain-http URL.",
        rationale: """
            The redirect drops transport security for the rest of the request: what was meant to be \
            private and tamper-proof travels in clear. Apple's App Transport Security blocks such \
            loads in apps, so the stream fails on iOS where it works in a desktop player. Serve every \
            resource of an https stream over https (Apple HLS authoring specification, "Security").
            """,
        specItems: [
            .apple("8.18", .must, "Media requests do not use HTTP redirects, except for ad content."),
            .apple("11.3", .should, "Media segments are delivered over TLS."),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        var seen: Set<String> = []
        return stream.delivery.records.compactMap { record in
            guard let hop = record.downgrade, seen.insert(record.uri).inserted else { return nil }
            return Finding(
                "\(record.kind.rawValue) \(record.uri) was redirected from \(hop.from) to \(hop.to): plain http after https; redirect to an https URL",
                at: stream.deliveryLocation(of: record.uri))
        }
    }
}
