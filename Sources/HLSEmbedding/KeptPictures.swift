import MediaInspection

/// The pictures other than the poster that a rewrite left in a playlist's segments: a back
/// cover, an artist photo — the segments' own content, which `hlscheck embed` keeps (it
/// replaces front covers only, ID3TagEditor) and which counts in the bit-rate budget like every
/// byte of a segment. Told to the user so that the budget result can be explained.
struct KeptPictures: Sendable, Hashable {
    /// Segments that keep at least one other picture.
    private(set) var segments = 0
    /// The most and the fewest other pictures one of those segments keeps.
    private(set) var mostPerSegment = 0
    private(set) var fewestPerSegment = Int.max
    /// By picture type: the largest image of that type, in bytes.
    private(set) var largestByType: [Int: Int] = [:]

    init() {}

    /// Counts the other pictures found in one rewritten segment (`artwork`: all its pictures).
    mutating func add(_ artwork: [PictureFacts]) {
        let others = artwork.filter { $0.pictureType != 3 }
        guard !others.isEmpty else { return }
        segments += 1
        mostPerSegment = max(mostPerSegment, others.count)
        fewestPerSegment = min(fewestPerSegment, others.count)
        for picture in others {
            largestByType[picture.pictureType] = max(largestByType[picture.pictureType] ?? 0, picture.byteCount)
        }
    }

    /// "kept 1 other picture (back cover, 12 KB) in 600 segments of audio/index.m3u8; it counts
    /// in the budget", nil when there is none.
    func note(playlist uri: String) -> String? {
        guard segments > 0 else { return nil }
        let kinds = largestByType.sorted { $0.key < $1.key }
            .map { "\(Self.name(ofPictureType: $0.key)), \(Self.size($0.value))" }.joined(separator: "; ")
        let what =
            mostPerSegment == 1
            ? "1 other picture"
            : "\(fewestPerSegment == mostPerSegment ? "" : "up to ")\(mostPerSegment) other pictures"
        let place = segments == 1 ? "1 segment" : "\(segments) segments"
        let counts =
            mostPerSegment == 1
            ? "it is the segments' own content, not the poster, and counts in the budget"
            : "they are the segments' own content, not the poster, and count in the budget"
        return "kept \(what) (\(kinds)) in \(place) of \(uri); \(counts)"
    }

    /// The picture types of ID3v2.4 frames §4.14, as a user reads them.
    static func name(ofPictureType type: Int) -> String {
        let names = [
            "other", "32×32 file icon", "file icon", "front cover", "back cover", "leaflet page", "media label",
            "lead artist", "artist", "conductor", "band", "composer", "lyricist", "recording location",
            "picture during recording", "picture during performance", "video screen capture", "bright coloured fish",
            "illustration", "band logo", "publisher logo",
        ]
        return names.indices.contains(type) ? names[type] : "picture type \(type)"
    }

    /// "12 KB", "980 bytes", "1.4 MB".
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return "\((bytes + 500) / 1000) KB" }
        return "\(Double(bytes / 100_000) / 10) MB"
    }
}
