import HLSPlaylist
import StreamSources

// How playlists and segments are served over HTTP beyond their Content-Type: compression of
// playlists (AS 10.1, bis-22 §6.2.1) and redirects of media requests (AS 8.18). They read the
// delivery log the remote sources keep (DeliveryLog); a local stream has none.

/// A segment request answered with a redirect.
package struct MediaRedirectedRule: Rule {
    package static let description: RuleDescription = {
        var description = RuleDescription.network(
            id: "media-redirected", name: "Segment request redirected", defaultSeverity: .warning,
            summary:
                "A media segment fetched over HTTP was answered with a redirect (301, 302, 303, 307 or 308) before its body.",
            rationale: """
                Every redirect costs the client another round trip before the first byte of a segment, \
                on every segment, and a player that must fetch each segment within its duration has \
                that much less time. Apple's authoring specification (8.18) forbids redirects for media \
                requests, except for ad content: hlscheck cannot tell ad segments from others, so a \
                redirected ad segment is reported too (suppress it there). A redirect from https to \
                plain http is redirect-to-http's error.
                """,
            specItems: [
                .apple("8.18", .must, "Media requests are not redirected, except for ads.")
            ])
        // Only Apple's authoring specification asks it.
        description.settings = .appleOnly
        return description
    }()

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        var seen: Set<String> = []
        let redirected = stream.delivery.records.filter { record in
            record.kind == .segment && !record.redirects.isEmpty && record.downgrade == nil
                && seen.insert(record.uri).inserted
        }
        // One finding per playlist: a CDN that redirects one segment redirects them all.
        var byPlaylist: [String: (location: SourceLocation, example: DeliveryRecord, count: Int)] = [:]
        var order: [String] = []
        for record in redirected {
            let location = stream.deliveryLocation(of: record.uri)
            if byPlaylist[location.uri] == nil {
                order.append(location.uri)
                byPlaylist[location.uri] = (location, record, 0)
            }
            byPlaylist[location.uri]?.count += 1
        }
        return order.compactMap { uri in
            guard let entry = byPlaylist[uri] else { return nil }
            let others =
                entry.count > 1
                ? " (and \(entry.count - 1) more segment\(entry.count == 2 ? "" : "s") of this playlist)" : ""
            return Finding(
                "segment \(entry.example.uri) was redirected to \(entry.example.redirects.last ?? "")\(others); AS 8.18: media requests are not redirected (except ad content) — list the final URL in the playlist",
                at: entry.location)
        }
    }
}
