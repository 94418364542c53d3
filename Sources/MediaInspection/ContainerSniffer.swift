internal import MediaFormats

/// Picks the demuxer for a segment: from the URI's extension when it is a known one, else from
/// the first bytes. Forcing the format matters for speed (design.md §7).
enum ContainerSniffer {
    /// The container to demux as, and a problem when the bytes do not start the way that
    /// container must (a TS sync byte, an audio frame sync after the ID3 tags).
    static func container(uri: String, bytes: [UInt8], hasInitSection: Bool) -> (SegmentContainer, problem: String?) {
        container(uri: uri, source: InMemoryBytes(bytes), hasInitSection: hasInitSection)
    }

    /// The same, reading only box and tag headers (a few bytes each), whatever the segment's size.
    static func container(uri: String, source: any RandomAccessBytes, hasInitSection: Bool) -> (
        SegmentContainer, problem: String?
    ) {
        // EXT-X-MAP is an fMP4 segment's init section, but a TS segment may have one too (its
        // PAT and PMT, RFC 8216 §4.3.2.5): TS bytes say which.
        if hasInitSection { return (container(sniffing: source) == .mpegTS ? .mpegTS : .fragmentedMP4, nil) }
        let sniffed = container(sniffing: source)
        if sniffed == .fragmentedMP4, isFragmentWithoutMovieBox(source) {
            return (sniffed, needsInitSection)
        }
        guard sniffed == .unknown, let byExtension = container(extension: pathExtension(of: uri)) else {
            // Bytes that clearly say what they are win over the extension.
            return (sniffed, nil)
        }
        let bytes = (try? source.bytes(at: 0, length: 1)) ?? []
        guard !bytes.isEmpty, byExtension != .fragmentedMP4 else { return (byExtension, nil) }
        let expected =
            switch byExtension {
            case .mpegTS: "a 0x47 sync byte every 188 bytes"
            case .webVTT: "the WEBVTT signature, W3C WebVTT §4.1"
            default: "an audio frame sync word after its ID3 tags"
            }
        return (byExtension, "does not start like \(byExtension.rawValue) (expected \(expected))")
    }

    /// The problem of an fMP4 media segment given alone: it cannot be demuxed without its init.
    static let needsInitSection =
        "an fMP4 fragment cannot be read without its initialization section: the playlist needs EXT-X-MAP (with hlscheck inspect, pass it with --init)"

    /// Whether the top-level boxes include a `moof` but no `moov`: a media fragment whose track
    /// descriptions are in a separate initialization section (ISO/IEC 14496-12 §8.8).
    static func isFragmentWithoutMovieBox(_ source: any RandomAccessBytes) -> Bool {
        var offset = 0, sawFragment = false
        while offset + 8 <= source.count {
            guard let header = try? source.bytes(at: offset, length: 8), header.count == 8 else { break }
            let size = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "moov" { return false }
            if type == "moof" { sawFragment = true }
            guard size >= 8 else { break }  // 0 (to the end) or 1 (64-bit size): stop looking
            offset += size
        }
        return sawFragment
    }

    static func container(extension ext: String) -> SegmentContainer? {
        switch ext {
        case "ts", "tsv", "tsa", "m2ts", "mts": return .mpegTS
        case "aac", "adts": return .adts
        case "mp3", "mpga": return .mp3
        case "ac3": return .ac3
        case "ec3", "eac3": return .eac3
        case "mp4", "m4s", "m4a", "m4v", "mov", "cmfa", "cmfv", "cmft", "cmfm", "fmp4": return .fragmentedMP4
        case "vtt", "webvtt": return .webVTT
        default: return nil
        }
    }

    static func pathExtension(of uri: String) -> String {
        var path = Substring(uri)
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        guard let slash = path.lastIndex(of: "/") else { return ext(path) }
        return ext(path[path.index(after: slash)...])
    }

    private static func ext(_ name: Substring) -> String {
        guard let dot = name.lastIndex(of: ".") else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// Whether `bytes` begin as a WebVTT file must (W3C WebVTT §4.1): an optional UTF-8 byte
    /// order mark, "WEBVTT", then the end of the file, a space, a tab or a line break.
    static func startsWithWebVTTSignature(_ bytes: [UInt8]) -> Bool {
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        guard rest.starts(with: Array("WEBVTT".utf8)) else { return false }
        guard let next = rest.dropFirst(6).first else { return true }
        return [0x20, 0x09, 0x0A, 0x0D].contains(next)
    }

    /// Cheap sniff of the first bytes: TS sync bytes, ISO BMFF box types, or (after any ID3v2
    /// tags) ADTS / MPEG audio / AC-3 sync words.
    static func container(sniffing source: any RandomAccessBytes) -> SegmentContainer {
        // The first bytes, and the few after each leading ID3 tag: never the whole segment.
        let prefix = (try? source.bytes(at: 0, length: 4096)) ?? []
        let bytes = prefix
        if bytes.count >= 189, bytes[0] == 0x47, bytes[188] == 0x47 { return .mpegTS }
        if startsWithWebVTTSignature(bytes) { return .webVTT }
        if bytes.count >= 8 {
            let box = String(decoding: bytes[4..<8], as: UTF8.self)
            if ["ftyp", "styp", "moof", "moov", "sidx", "emsg", "prft"].contains(box) { return .fragmentedMP4 }
        }
        var offset = 0
        var header = Array(prefix.prefix(10))
        // Skip leading ID3v2 tags (ID3v2.4 §3.1: 10-byte header, synchsafe size, optional footer).
        while offset + 10 <= source.count, header.count == 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33 {
            let size = header[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
            let footer = header[5] & 0x10 != 0 ? 10 : 0
            offset += 10 + size + footer
            header = (try? source.bytes(at: offset, length: 10)) ?? []
        }
        guard offset + 6 <= source.count, header.count >= 6 else {
            return source.count >= 188 && bytes.first == 0x47 ? .mpegTS : .unknown
        }
        let b0 = header[0], b1 = header[1]
        if b0 == 0x47, offset == 0 { return .mpegTS }
        if b0 == 0xFF, b1 & 0xF6 == 0xF0 { return .adts }
        if b0 == 0xFF, b1 & 0xE0 == 0xE0 { return .mp3 }
        if b0 == 0x0B, b1 == 0x77 {
            // bsid (A/52 §5.4.2.1 / Annex E): > 10 means E-AC-3.
            let bsid = header[5] >> 3
            return bsid > 10 ? .eac3 : .ac3
        }
        return .unknown
    }
}
