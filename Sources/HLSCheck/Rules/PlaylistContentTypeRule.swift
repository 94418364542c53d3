import HLSPlaylist

// Rules about how a remote stream is delivered over HTTP (docs/remote.md). They read the
// delivery log the remote sources kept; on a local stream the log is empty and they are silent.

/// RFC 8216 §4: a playlist is identified by the path of its URI (.m3u8, .m3u) or by its HTTP
/// Content-Type, which must then be application/vnd.apple.mpegurl or audio/mpegurl.
package struct PlaylistContentTypeRule: Rule {
    package static let acceptedTypes: Set<String> = ["application/vnd.apple.mpegurl", "audio/mpegurl"]

    package static let description = RuleDescription.network(
        id: "playlist-content-type", name: "Playlist served with a wrong Content-Type", defaultSeverity: .warning,
        summary:
            "A playlist fetched over HTTP came with a Content-Type other than application/vnd.apple.mpegurl or audio/mpegurl.",
        rationale: """
            RFC 8216 §4: each playlist must be identifiable by the path of its URI (ending .m3u8 or \
            .m3u) or by its HTTP Content-Type, which must then be "application/vnd.apple.mpegurl" or \
            "audio/mpegurl", and clients should refuse playlists identified by neither. Apple's HLS \
            authoring specification asks servers to send the registered type; players and CDNs that \
            go by Content-Type (caching, compression, MIME sniffing) mishandle text/plain or \
            application/octet-stream.
            """,
        specItems: [
            .bis(
                "4", rfc: "4", .must,
                "A playlist is identified by a path ending .m3u8 or .m3u, or by the Content-Type application/vnd.apple.mpegurl or audio/mpegurl."
            ),
            .apple(
                "10.4", .should,
                "Playlists are served with the recommended MIME type application/vnd.apple.mpegurl (audio/mpegurl for .m3u)."
            ),
        ])

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        // A live playlist is fetched on every reload: one finding per playlist.
        var seen: Set<String> = []
        return stream.delivery.records.compactMap { record in
            guard record.kind == .playlist, seen.insert(record.uri).inserted, let status = record.status,
                (200..<300).contains(status)
            else { return nil }
            let type = record.contentType.map(Self.mediaType)
            if let type, Self.acceptedTypes.contains(type) { return nil }
            let served = type.map { "Content-Type \($0)" } ?? "no Content-Type"
            let path = URIPath.path(of: record.redirects.last ?? record.uri).lowercased()
            let identified = path.hasSuffix(".m3u8") || path.hasSuffix(".m3u")
            let consequence =
                identified
                ? "its path identifies it, but clients and caches that go by the type may not"
                : "and its path does not end in .m3u8 or .m3u, so nothing identifies it as a playlist (RFC 8216 §4: clients SHOULD refuse it)"
            return Finding(
                "playlist \(record.uri) was served with \(served); serve application/vnd.apple.mpegurl (RFC 8216 §4) — \(consequence)",
                at: stream.deliveryLocation(of: record.uri))
        }
    }

    /// "Application/VND.apple.mpegURL; charset=utf-8" → "application/vnd.apple.mpegurl".
    static func mediaType(_ contentType: String) -> String {
        let bare = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType
        return bare.trimmingWhiteSpace(newlines: false).lowercased()
    }
}
