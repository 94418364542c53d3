import HLSPlaylist
import StreamSources

/// Refuses bytes that are not a playlist before the parser sees them: a segment, an image or a
/// web page given (or referenced) as a playlist is named for what it is, instead of being
/// "checked" line by line with its binary echoed back as syntax errors.
///
/// RFC 8216 §4.3.1.1: a playlist's first line is `#EXTM3U`, and clients MUST fail to parse one
/// that does not start with it. Refused here: empty files, binary data, recognisable other
/// formats, and text whose first line is not a `#` line. Text that starts with another tag or a
/// comment is a playlist with a misplaced header: the parser reports that as `playlist-syntax`
/// at its line, and checks the rest. Blank lines and a UTF-8 byte order mark before the header
/// are tolerated here too (the parser's concern).
package enum PlaylistSniffer {
    /// nil when `bytes` start like a playlist; otherwise the reason, naming what they look like
    /// and what to do.
    package static func refusal(_ bytes: [UInt8], uri: String) -> String? {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[start]) { start += 1 }
        let rest = bytes[start...]
        let header = Array("#EXTM3U".utf8)
        if rest.starts(with: header) {
            let after = rest.dropFirst(header.count).first
            if after == nil || [0x20, 0x09, 0x0D, 0x0A].contains(after) { return nil }
        }
        let rule = "(a playlist starts with #EXTM3U, RFC 8216 §4.3.1.1)"
        if rest.isEmpty { return "not a playlist: the file is empty \(rule)" }
        if let kind = kind(of: bytes) {
            let hint =
                kind.isSegment ? "; to look inside a segment, run: hlscheck inspect \(TerminalText.escaped(uri))" : ""
            return "not a playlist: it looks like \(kind.name) \(rule)\(hint)"
        }
        if isBinary(rest.prefix(512)) { return "not a playlist: it holds binary data \(rule)" }
        if rest.first == UInt8(ascii: "#") { return nil }
        let firstLine = rest.prefix { $0 != 0x0A && $0 != 0x0D }
        let shown = String(decoding: firstLine.prefix(60), as: UTF8.self)
        return
            "not a playlist: its first line is \"\(TerminalText.escaped(shown))\"\(firstLine.count > 60 ? "…" : "") \(rule)"
    }

    struct Kind {
        var name: String
        var isSegment: Bool
    }

    /// What common non-playlist files look like from their first bytes.
    static func kind(of bytes: [UInt8]) -> Kind? {
        func at(_ offset: Int, _ ascii: String) -> Bool {
            let magic = Array(ascii.utf8)
            return bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }
        if bytes.first == 0x47, bytes.count >= 188, bytes.count == 188 || bytes[188] == 0x47 {
            return Kind(name: "an MPEG-TS segment", isSegment: true)
        }
        if at(0, "ID3") { return Kind(name: "a packed-audio segment (it starts with an ID3 tag)", isSegment: true) }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0, bytes[1] != 0xFF {
            return Kind(name: "an audio segment (AAC ADTS or MPEG audio frames)", isSegment: true)
        }
        if bytes.count >= 2, bytes[0] == 0x0B, bytes[1] == 0x77 {
            return Kind(name: "an AC-3 or E-AC-3 audio segment", isSegment: true)
        }
        if ["ftyp", "styp", "moof", "moov", "sidx", "emsg", "free"].contains(where: { at(4, $0) }) {
            return Kind(name: "an MP4 (fMP4/CMAF) segment", isSegment: true)
        }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
            return Kind(name: "a JPEG image", isSegment: false)
        }
        if bytes.count >= 4, bytes[0] == 0x89, at(1, "PNG") { return Kind(name: "a PNG image", isSegment: false) }
        if at(0, "GIF8") { return Kind(name: "a GIF image", isSegment: false) }
        if at(0, "RIFF"), at(8, "WEBP") { return Kind(name: "a WebP image", isSegment: false) }
        let text = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("<") {
            if text.contains("<mpd") {
                return Kind(name: "a DASH manifest (MPD), not an HLS playlist", isSegment: false)
            }
            if text.contains("<html") || text.contains("<!doctype html") {
                return Kind(name: "an HTML page (a server's error or login page?)", isSegment: false)
            }
            return Kind(name: "an XML document", isSegment: false)
        }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return Kind(name: "a JSON document", isSegment: false) }
        return nil
    }

    /// NUL bytes, or C0 controls other than tab, CR, LF and form feed: not text.
    private static func isBinary(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.contains { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) }
    }
}

/// A playlist source that refuses, with `PlaylistSniffer`'s reason, bytes that are not a
/// playlist: the root input then cannot be checked (exit code 2), and a referenced one is a
/// `playlist-unreadable` finding at the line that references it.
struct SniffingPlaylistSource: PlaylistSource {
    var base: any PlaylistSource

    func read(_ uri: String) async throws -> [UInt8] {
        let bytes = try await base.read(uri)
        if let reason = PlaylistSniffer.refusal(bytes, uri: uri) {
            throw InputReadError(uri: uri, reason: reason)
        }
        return bytes
    }

    func canonicalName(_ uri: String) async -> String? {
        await base.canonicalName(uri)
    }

    func finalURI(_ uri: String) async -> String? {
        await base.finalURI(uri)
    }

    /// The base's parse, when its bytes pass the sniff (else `read` says why).
    func parsedPlaylist(_ uri: String) async -> (bytes: [UInt8], playlist: Playlist)? {
        guard let handed = await base.parsedPlaylist(uri), PlaylistSniffer.refusal(handed.bytes, uri: uri) == nil else {
            return nil
        }
        return handed
    }
}
