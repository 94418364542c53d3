import HLSCheck

/// A variant or rendition whose playlist or segments embed needed and could not read.
struct UnreadPlaylist {
    /// The URI as the multivariant playlist writes it.
    var uri: String
    /// The resolved URI; nil when there is none to resolve.
    var playlistURI: String?
}

extension StreamAnalysis {
    /// Why each playlist was not read, to append to a refusal: audio that embed did not see is
    /// not the same as no audio, and the user can act on the reason (`--root`, a missing file).
    func notRead(_ playlists: [UnreadPlaylist]) -> String {
        var outside: [String] = []
        var root: String?
        var reasons: [String] = []
        var seen = Set<String>()
        for playlist in playlists where seen.insert(playlist.playlistURI ?? playlist.uri).inserted {
            if let resolved = playlist.playlistURI,
                let refused = loaded.outsideRoot.first(where: { $0.resolvedURI == resolved })
            {
                outside.append(playlist.uri)
                root = refused.root
            } else if let resolved = playlist.playlistURI, let failure = loaded.failure(for: resolved) {
                reasons.append("\(playlist.uri) could not be read: \(failure.reason)")
            } else {
                reasons.append("the segments of \(playlist.uri) could not be read (`hlscheck check` says why)")
            }
        }
        if let root {
            reasons.insert(
                "\(outside.joined(separator: ", ")) \(outside.count == 1 ? "lies" : "lie") outside the stream's root \(root) (choose the root with --root DIR, or pass --allow-outside-root)",
                at: 0)
        }
        return reasons.isEmpty ? "" : "; not read: " + reasons.joined(separator: "; ")
    }
}
