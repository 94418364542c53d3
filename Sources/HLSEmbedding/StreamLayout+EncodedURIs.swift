import HLSCheck
import HLSPlaylist
import MediaFormats
import FileSystem

extension StreamLayout {
    /// Refuses, before anything is written, a stream a URI of which does not name its file by
    /// its own text: percent-encoding (`seg%200.ts` for `seg 0.ts`), a query (`seg.ts?v=1`) or
    /// a fragment. Check reads such streams (`LocalFileName`), but embed renames segments and
    /// rewrites their lines by the text written, so it asks for plain names instead of guessing
    /// how the new line should be encoded.
    static func requirePlainFileNames(_ analysis: StreamAnalysis) throws(EmbedError) {
        let loaded = analysis.loaded
        func check(_ written: String, in playlist: String, line: Int) throws(EmbedError) {
            guard
                written.utf8.contains(where: {
                    $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
                })
            else { return }
            // The text written, not the playlist's URI: a folder the user typed as "Stream #1"
            // is "Stream %231" there, and embed writes into it by its path.
            let own = LocalFileName(uri: written)
            guard own.candidates.count > 1 || own.refusal != nil,
                let name = LocalPath.name(of: URIResolver.resolve(written, against: playlist))
            else { return }
            let meaning = name.refusal.map { "it names no file (\($0))" } ?? "it names the file '\(name.path)'"
            throw EmbedError(
                "\(StreamLayout.file(playlist)):\(line): embed cannot rewrite \(written): \(meaning), not the text written (percent-encoding, a query or a fragment); rename the file or folder to a plain name (letters, digits, '-', '_', '.') and write that name on the line, then run embed again. Nothing was written"
            )
        }
        if let multivariant = loaded.root.multivariant {
            for variant in multivariant.variants { try check(variant.uri, in: loaded.rootURI, line: variant.uriLine) }
            for rendition in multivariant.renditions {
                if let uri = rendition.uri { try check(uri, in: loaded.rootURI, line: rendition.line) }
            }
            for variant in multivariant.iFrameVariants where !variant.uri.isEmpty {
                try check(variant.uri, in: loaded.rootURI, line: variant.line)
            }
        }
        var mediaPlaylists = loaded.mediaPlaylists
        if loaded.root.media != nil { mediaPlaylists[loaded.rootURI] = loaded.root }
        for (uri, playlist) in mediaPlaylists.sorted(by: { $0.key < $1.key }) {
            guard let media = playlist.media else { continue }
            for segment in media.segments where !segment.gap {
                try check(segment.uri, in: uri, line: segment.uriLine)
                if let map = segment.map { try check(map.uri, in: uri, line: map.line) }
                if let key = segment.key, let keyURI = key.uri { try check(keyURI, in: uri, line: key.line) }
            }
        }
    }
}
