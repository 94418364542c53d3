import HLSPlaylist

/// Playlist text that is not in Unicode Normalization Form C.
package struct UnicodeNotNormalizedRule: Rule {
    package static let description = RuleDescription(
        id: "unicode-not-normalized", name: "Text not in Unicode NFC", defaultSeverity: .error,
        summary:
            "A tag, URI or comment of a playlist holds characters that are not in Unicode Normalization Form C (an 'é' written as 'e' and a combining accent, say).",
        rationale:
            "bis-22 §4.1: playlist text is normalized to NFC, so that names compare byte for byte: a NAME, a LANGUAGE or a URI written decomposed in one playlist and composed in another is a different string to a player (and a different file on most servers).",
        specItems: [
            .bis(
                "4.1", rfc: "4.1", .must,
                "Playlist text is in Unicode Normalization Form C (NFC), character sequences composed.")
        ],
        triggering: [
            RuleExample(
                "a NAME with a combining accent",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"Franc\u{0327}ais\",LANGUAGE=\"fr\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                )
            )
            .expecting(line: 3, "holds text that is not in Unicode Normalization Form C")
        ],
        nonTriggering: [
            RuleExample(
                "the same NAME precomposed",
                files: Examples.stream(
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"Fran\u{00E7}ais\",LANGUAGE=\"fr\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio.m3u8\"\n",
                    "#EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360,AUDIO=\"aud\"\nvideo.m3u8\n"
                ))
        ])

    /// Whether `text` is in NFC: its UTF-8 equals the standard library's NFC form of it (what
    /// Foundation's `precomposedStringWithCanonicalMapping` is built on). ASCII, nearly every
    /// line, is NFC without asking.
    static func isNormalized(_ text: String) -> Bool {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return true }
        return text.utf8.elementsEqual(text._nfcCodeUnits)
    }

    package func check(_ stream: StreamAnalysis, configuration: CheckConfiguration) -> [Finding] {
        stream.playlists.compactMap { playlist in
            // One finding per playlist, at its first such line: the fix is the same everywhere.
            var lines: [Int] = []
            for tag in playlist.tags where !Self.isNormalized(tag.name + (tag.value ?? "")) { lines.append(tag.line) }
            for comment in playlist.comments where !Self.isNormalized(comment.text) { lines.append(comment.line) }
            if let multivariant = playlist.multivariant {
                for variant in multivariant.variants where !Self.isNormalized(variant.uri) {
                    lines.append(variant.uriLine)
                }
            }
            if let media = playlist.media {
                for segment in media.segments where !Self.isNormalized(segment.uri) { lines.append(segment.uriLine) }
            }
            guard let first = lines.min() else { return nil }
            let more = lines.count > 1 ? " (and \(lines.count - 1) more line\(lines.count > 2 ? "s" : ""))" : ""
            return Finding(
                "this line\(more) holds text that is not in Unicode Normalization Form C: write composed characters (é as U+00E9, not e and U+0301), for example by saving the playlist through an NFC conversion",
                at: playlist.location(line: first))
        }
    }
}
