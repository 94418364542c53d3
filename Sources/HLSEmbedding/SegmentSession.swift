import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HLSCheck
import HLSPackaging
import HLSPlaylist
import MediaFormats
import MediaInspection
import FileSystem

/// Rewrites the segments of one media playlist in order: the TS writer keeps the timed-ID3
/// continuity counters running across them; packed audio without a timestamp gets the one that
/// follows from the segments before it, starting where the stream's other playlists start.
struct SegmentSession {
    private var transportStream = TransportStreamPosterWriter()
    private var nextTimestamp: Int64?
    private var initSections: [String: [UInt8]] = [:]
    /// Packed-audio segments that already started with the RFC 8216 §3.4 PRIV timestamp (it
    /// stays, poster or not), and those that had none and get one.
    private(set) var timestampsKept = 0
    private(set) var timestampsAdded = 0

    /// `timelineStart`: the 90 kHz timestamp the first segment gets when it has none of its own,
    /// so that packed audio lines up with the other variants (RFC 8216 §6.2.4: matching content
    /// has matching timestamps). Zero when the stream has nothing else to line up with.
    init(timelineStart: Int64? = nil) {
        nextTimestamp = timelineStart
    }

    /// Where the stream's other playlists start the segment with media sequence number
    /// `sequence`, as a 90 kHz timestamp: the earliest first timestamp among the demuxed
    /// segments of that number outside `playlistURI`. Packed audio without a PRIV tag has no
    /// timestamp of its own and is left out.
    static func timelineStart(_ analysis: StreamAnalysis, sequence: Int, excluding playlistURI: String) -> Int64? {
        let starts = analysis.measurements.values.filter { $0.playlistURI != playlistURI }.compactMap { measurement in
            measurement.records.first { $0.mediaSequence == sequence && $0.isInspected }?.firstPTS
        }
        guard let earliest = starts.min(), earliest.isFinite, earliest >= 0, earliest < Double(1 << 33) / 90_000 else {
            return nil
        }
        return Int64((earliest * 90_000).rounded())
    }

    /// Rewrites the segment at `uri` (a resolved URI of the stream).
    /// A segment that is a byte range of its file (EXT-X-BYTERANGE, a single-file variant) is
    /// that range alone, its init section the EXT-X-MAP BYTERANGE: what the rewrite returns
    /// replaces the range (ByteRangedFile puts the file together again). `alreadyRead`: the
    /// segment's bytes when they were read before (the analysis kept them); else the file is read.
    mutating func rewrite(
        _ uri: String, segment: MediaSegment, record: SegmentRecord, poster: Poster?, alreadyRead: [UInt8]? = nil
    ) throws(EmbedError) -> [UInt8] {
        // The file's path only where it is needed: reading it, or a message.
        var path: String { StreamLayout.file(uri) }
        let bytes: [UInt8]
        if let alreadyRead { bytes = alreadyRead } else { bytes = try Self.read(path, range: segment.byteRange) }
        do {
            switch record.container {
            case .mpegTS:
                return try transportStream.rewrite(bytes, poster: poster)
            case .adts, .mp3, .ac3, .eac3:
                let own = Self.leadingTimestamp(bytes)
                if own == nil { timestampsAdded += 1 } else { timestampsKept += 1 }
                let timestamp = own ?? nextTimestamp ?? 0
                nextTimestamp = timestamp + Int64((segment.duration * 90_000).rounded())
                return try PackedAudioPosterWriter.rewrite(bytes, poster: poster, timestampIfMissing: timestamp)
            case .fragmentedMP4:
                var initSection: [UInt8]?
                if let map = segment.map {
                    let initPath = StreamLayout.file(URIResolver.resolve(map.uri, against: uri))
                    let key = map.byteRange.map { "\(initPath) \($0.length)@\($0.offset)" } ?? initPath
                    if initSections[key] == nil { initSections[key] = try Self.read(initPath, range: map.byteRange) }
                    initSection = initSections[key]
                }
                return try FragmentedMP4PosterWriter.rewrite(bytes, initSection: initSection, poster: poster)
            case .webVTT, .unknown, nil:
                throw EmbedError("\(path): not a container hlscheck can rewrite")
            }
        } catch let error as PackagingError {
            throw EmbedError("\(path): \(error.description)")
        } catch let error as EmbedError {
            throw error
        } catch {
            throw EmbedError("\(path): \(error)")
        }
    }

    /// The bytes of `range` in the file at `path` (positioned reads of the range alone), or the
    /// whole file.
    static func read(_ path: String, range: ByteRange?) throws(EmbedError) -> [UInt8] {
        guard let range else { return try read(path) }
        do {
            let file = try RegularFile(path: path)
            let region = try file.region((range.offset, range.length))
            return try file.read(offset: region.offset, length: region.count)
        } catch {
            throw EmbedError("\(path): cannot read the segment: \(error.reason)")
        }
    }

    /// The whole file at `path`, read straight into the array (not through Data: one copy).
    private static func read(_ path: String) throws(EmbedError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw EmbedError("\(path): cannot read the segment: \(lastError())") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw EmbedError("\(path): cannot read the segment: \(lastError())")
        }
        var bytes = [UInt8](repeating: 0, count: max(0, Int(info.st_size)))
        var count = 0
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            // Into the array while the size fstat gave lasts, then through a small chunk (a file
            // that grew meanwhile; usually a single read of 0 bytes says the end is reached).
            let read =
                count < bytes.count
                ? bytes.withUnsafeMutableBytes {
                    systemRead(descriptor, $0.baseAddress.map { $0 + count }, $0.count - count)
                }
                : chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw EmbedError("\(path): cannot read the segment: \(lastError())") }
            if read == 0 { break }
            if count < bytes.count { count += read } else { bytes += chunk[..<read]; count += read }
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// The RFC 8216 §3.4 timestamp of a packed-audio segment that has one.
    static func leadingTimestamp(_ bytes: [UInt8]) -> Int64? {
        guard let tag = try? ID3Tag.parse(bytes[...]).tag else { return nil }
        return TransportStreamTimestamp(tag: tag)?.pts90k
    }
}
