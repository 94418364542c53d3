import HLSPlaylist

/// A file whose byte ranges are segments of one media playlist — ffmpeg's
/// `-hls_flags single_file`: an EXT-X-BYTERANGE for each segment (RFC 8216 §4.3.2.2), usually
/// the EXT-X-MAP initialization section at its start (BYTERANGE, §4.3.2.5).
///
/// The poster makes each segment longer, so every range after the first moves: the file is
/// written again whole — each segment's range replaced by its rewritten bytes, every other byte
/// (the init section, anything between or after the ranges) copied — and the playlist's
/// EXT-X-BYTERANGE and EXT-X-MAP lines get the new ranges. The new file takes a new name, also
/// under `--keep-names`: the old playlist's ranges only fit the old file, and a playlist and a
/// file cannot be replaced by one rename, so the old pair must stay whole until the new playlist
/// is in place (docs/embed.md, "Single-file variants").
struct ByteRangedFile: Sendable {
    /// The file's URI as its first segment's line writes it.
    var uri: String
    /// The file, as a resolved URI of the stream.
    var resolved: String
    /// The indices (in `PlannedTarget.segments`) of the segments that are ranges of the file, in
    /// playlist order.
    var segments: [Int]
    /// The line of each of those segments' EXT-X-BYTERANGE tag, in the same order.
    var rangeLines: [Int]
    /// The EXT-X-MAP tags whose BYTERANGE lies in the file: copied, but moved with the rest.
    var maps: [MapTag]

    struct MapTag: Sendable, Hashable {
        var line: Int
        /// The URI attribute as written.
        var uri: String
        var range: ByteRange
    }

    /// The files `segments` (of the playlist at `playlistURI`, whose text is `playlist`) are byte
    /// ranges of, in the order they first appear. Refused, naming the line, when the file cannot
    /// be rewritten consistently: a range that overlaps another (or lists the same bytes twice:
    /// the rewrites would differ), the file listed also without a range, or an EXT-X-MAP of it
    /// without BYTERANGE (its init section would be the whole file).
    static func files(of segments: [MediaSegment], playlistURI: String, playlist: [UInt8]) throws(EmbedError)
        -> [ByteRangedFile]
    {
        let place = StreamLayout.file(playlistURI)
        let tagLines = Self.byteRangeTagLines(playlist)
        var files: [ByteRangedFile] = []
        var index: [String: Int] = [:]
        var previousURILine = 0
        var nextTag = 0  // segments and tags are both in line order: one pass over each
        for (position, segment) in segments.enumerated() {
            defer { previousURILine = segment.uriLine }
            guard segment.byteRange != nil else { continue }
            let resolved = StreamLayout.file(URIResolver.resolve(segment.uri, against: playlistURI))
            // The segment's own tag: the last EXT-X-BYTERANGE between the URI line before and its own.
            while nextTag < tagLines.count, tagLines[nextTag] <= previousURILine { nextTag += 1 }
            var own: Int?
            while nextTag < tagLines.count, tagLines[nextTag] < segment.uriLine {
                own = tagLines[nextTag]
                nextTag += 1
            }
            guard let line = own else {
                throw EmbedError(
                    "\(place):\(segment.uriLine): segment \(segment.uri) has a byte range, but no EXT-X-BYTERANGE line before it was found: the playlist changed while embed ran? Run again"
                )
            }
            if let known = index[resolved] {
                files[known].segments.append(position)
                files[known].rangeLines.append(line)
            } else {
                index[resolved] = files.count
                files.append(
                    ByteRangedFile(
                        uri: segment.uri, resolved: resolved, segments: [position], rangeLines: [line], maps: []))
            }
        }
        guard !files.isEmpty else { return [] }
        var seenMaps = Set<Int>()
        for segment in segments {
            if segment.byteRange == nil,
                let known = index[StreamLayout.file(URIResolver.resolve(segment.uri, against: playlistURI))]
            {
                throw EmbedError(
                    "\(place):\(segment.uriLine): \(segment.uri) is listed whole here and by byte ranges elsewhere (line \(files[known].rangeLines[0])): embed cannot rewrite it for both; give the playlist one or the other"
                )
            }
            guard let map = segment.map, seenMaps.insert(map.line).inserted,
                let known = index[StreamLayout.file(URIResolver.resolve(map.uri, against: playlistURI))]
            else { continue }
            guard let range = map.byteRange else {
                throw EmbedError(
                    "\(place):\(map.line): EXT-X-MAP names all of \(map.uri), whose byte ranges are segments too: an init section is a range of its own (RFC 8216 §4.3.2.5); add its BYTERANGE"
                )
            }
            files[known].maps.append(MapTag(line: map.line, uri: map.uri, range: range))
        }
        for file in files {
            var ranges = file.segments.map {
                (range: segments[$0].byteRange ?? ByteRange(length: 0, offset: 0), line: segments[$0].uriLine)
            }
            ranges += file.maps.map { ($0.range, $0.line) }
            ranges.sort { ($0.range.offset, $0.range.length) < ($1.range.offset, $1.range.length) }
            for (earlier, later) in zip(ranges, ranges.dropFirst())
            where later.range.offset < earlier.range.offset + earlier.range.length {
                throw EmbedError(
                    "\(place):\(later.line): the byte range \(later.range.length)@\(later.range.offset) of \(file.uri) overlaps the one on line \(earlier.line) (\(earlier.range.length)@\(earlier.range.offset)): embed rewrites each range once, and cannot when two share bytes"
                )
            }
        }
        return files
    }

    /// The 1-based lines that hold an EXT-X-BYTERANGE tag, in order.
    static func byteRangeTagLines(_ playlist: [UInt8]) -> [Int] {
        let tag = Array("#EXT-X-BYTERANGE:".utf8)
        var lines: [Int] = []
        var line = 1
        var start = 0
        while start < playlist.count {
            let end = playlist[start...].firstIndex(of: 0x0A) ?? playlist.count
            var first = start
            while first < end, playlist[first] == 0x20 || playlist[first] == 0x09 { first += 1 }
            if playlist[first..<end].starts(with: tag) { lines.append(line) }
            start = end + 1
            line += 1
        }
        return lines
    }

    /// The file again, with each segment's range replaced by its rewritten bytes (`rewritten`,
    /// in the order of `segments`) and every other byte as it was; and the ranges the playlist's
    /// lines give them now.
    func assemble(original: [UInt8], rewritten: [[UInt8]], of allSegments: [MediaSegment]) throws(EmbedError) -> (
        bytes: [UInt8], rangeLines: [Int: ByteRange], maps: [Int: (uri: String, range: ByteRange)]
    ) {
        enum Piece { case segment(Int), map(Int) }
        var pieces: [(range: ByteRange, piece: Piece)] = []
        for (order, index) in segments.enumerated() {
            if let range = allSegments[index].byteRange { pieces.append((range, .segment(order))) }
        }
        for (order, map) in maps.enumerated() { pieces.append((map.range, .map(order))) }
        pieces.sort { $0.range.offset < $1.range.offset }
        let growth = zip(segments, rewritten).reduce(0) { $0 + $1.1.count - (allSegments[$1.0].byteRange?.length ?? 0) }
        var out: [UInt8] = []
        out.reserveCapacity(max(0, original.count + growth))
        var cursor = 0
        var newRanges: [Int: ByteRange] = [:]
        var newMaps: [Int: (uri: String, range: ByteRange)] = [:]
        for (range, piece) in pieces {
            guard range.offset + range.length <= original.count else {
                throw EmbedError(
                    "\(StreamLayout.file(resolved)): the byte range \(range.length)@\(range.offset) lies beyond the end of the file (\(original.count) bytes)"
                )
            }
            out += original[cursor..<range.offset]
            let offset = out.count
            switch piece {
            case .segment(let order):
                out += rewritten[order]
                newRanges[rangeLines[order]] = ByteRange(length: rewritten[order].count, offset: offset)
            case .map(let order):
                out += original[range.offset..<(range.offset + range.length)]
                newMaps[maps[order].line] = (maps[order].uri, ByteRange(length: range.length, offset: offset))
            }
            cursor = range.offset + range.length
        }
        out += original[cursor...]
        return (out, newRanges, newMaps)
    }
}
