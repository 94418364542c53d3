import HLSPlaylist
import MediaFormats

// Rules about how a remote stream is delivered over HTTP (docs/remote.md). They read the
// delivery log the remote sources kept; on a local stream the log is empty and they are silent.

extension RuleDescription {
    /// A rule that judges HTTP delivery: its examples live in the remote tests (HLSRemoteTests).
    static func network(
        id: String, name: String, defaultSeverity: Severity, summary: String, rationale: String,
        specItems: [SpecItem] = []
    ) -> RuleDescription {
        RuleDescription(
            id: id, name: name, defaultSeverity: defaultSeverity, summary: summary, rationale: rationale,
            specItems: specItems, needsNetwork: true)
    }
}

extension StreamAnalysis {
    /// Where to point a finding about the resource `uri`: the line that references a playlist
    /// (the root itself: line 0, the whole file), or a segment's line in its media playlist.
    func deliveryLocation(of uri: String) -> SourceLocation {
        if uri == loaded.rootURI { return SourceLocation(uri: uri, line: 0) }
        if let variant = variants.first(where: { $0.playlistURI == uri }) { return variant.location }
        if let master = multivariant {
            for rendition in master.renditions
            where rendition.uri.map({ URIResolver.resolve($0, against: loaded.rootURI) }) == uri {
                return root.location(line: rendition.line, column: rendition.attributes["URI"]?.column ?? 0)
            }
            for variant in master.iFrameVariants where URIResolver.resolve(variant.uri, against: loaded.rootURI) == uri
            {
                return root.location(line: variant.line)
            }
        }
        for measurement in measurements.values.sorted(by: { $0.playlistURI < $1.playlistURI }) {
            if let record = measurement.records.first(where: {
                URIResolver.resolve($0.uri, against: measurement.playlistURI) == uri
            }) {
                return SourceLocation(uri: measurement.playlistURI, line: record.line)
            }
        }
        return SourceLocation(uri: uri, line: 0)
    }
}

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

/// `--insecure`: the report says that TLS was not verified.
package struct TLSNotVerifiedRule: Rule {
    package static let description = RuleDescription.network(
        id: "tls-not-verified", name: "TLS not verified", defaultSeverity: .warning,
        summary: "The stream was fetched over https with certificate verification off (--insecure).",
        rationale: """
            With --insecure hlscheck accepts any certificate, so the bytes checked may not be the \
            bytes a player gets: a player verifies the certificate and refuses a self-signed or \
            mismatched one. The report says so, so a green run with --insecure is never mistaken \
            for a clean one.
            """)

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        guard stream.delivery.tlsVerificationDisabled, stream.delivery.usedTLS else { return [] }
        return [
            Finding(
                "TLS certificates were not verified (--insecure): players verify them and may refuse this server",
                at: SourceLocation(uri: stream.loaded.rootURI, line: 0))
        ]
    }
}

/// The path of a URL, without query or fragment.
enum URIPath {
    static func path(of uri: String) -> String {
        var rest = Substring(uri)
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        if let scheme = rest.firstRange(of: "://") {
            let afterAuthority = rest[scheme.upperBound...]
            return afterAuthority.firstIndex(of: "/").map { String(afterAuthority[$0...]) } ?? "/"
        }
        return String(rest)
    }
}
