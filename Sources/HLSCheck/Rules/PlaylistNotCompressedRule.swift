import HLSPlaylist

// How playlists and segments are served over HTTP beyond their Content-Type: compression of
// playlists (AS 10.1, bis-22 §6.2.1) and redirects of media requests (AS 8.18). They read the
// delivery log the remote sources keep (DeliveryLog); a local stream has none.

/// A playlist served without gzip to a request that accepted it.
package struct PlaylistNotCompressedRule: Rule {
    package static let description = RuleDescription.network(
        id: "playlist-not-compressed", name: "Playlist served without gzip", defaultSeverity: .warning,
        summary: "A playlist fetched over HTTP came without gzip Content-Encoding although the request accepted gzip.",
        rationale: """
            A client reloads a live playlist every target duration, or every part target in \
            low-latency mode, and playlists are text that gzip shrinks several times over: \
            compressing them saves the client's bandwidth and shortens each reload. bis-22 §6.2.1 \
            asks servers to compress playlists for clients that accept it; Apple's authoring \
            specification (10.1) requires gzip for playlists. hlscheck offers gzip on every \
            playlist request (unless --header replaces Accept-Encoding).
            """,
        specItems: [
            .bis("6.2.1", .should, "Playlists are served with gzip Content-Encoding to clients that accept it."),
            .apple("10.1", .must, "Playlists are delivered with gzip content encoding."),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        // A live playlist is fetched on every reload: one finding per playlist.
        var seen: Set<String> = []
        return stream.delivery.records.compactMap { record in
            guard record.kind == .playlist, let status = record.status, (200..<300).contains(status),
                record.acceptEncoding?.lowercased().contains("gzip") == true,
                record.contentEncoding?.lowercased().contains("gzip") != true,
                seen.insert(record.uri).inserted
            else { return nil }
            let served = record.contentEncoding.map { "with Content-Encoding \($0)" } ?? "uncompressed"
            return Finding(
                "playlist \(record.uri) was served \(served) although the request accepted gzip; have the server gzip playlists (.m3u8) for clients that accept it (AS 10.1)",
                at: stream.deliveryLocation(of: record.uri))
        }
    }
}
