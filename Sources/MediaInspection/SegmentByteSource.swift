package import MediaFormats
import FileSystem
import StreamSources

/// A byte range inside a resource, as given by EXT-X-BYTERANGE / EXT-X-MAP BYTERANGE
/// (RFC 8216 §4.3.2.2): `length` bytes starting at `offset`.
package struct SegmentByteRange: Sendable, Hashable, Codable {
    /// Offset of the first byte from the start of the resource.
    package var offset: Int
    /// Length in bytes.
    package var length: Int

    /// Makes a range: `length` bytes from byte `offset`.
    package init(offset: Int, length: Int) {
        self.offset = offset
        self.length = length
    }
}

/// Where segment bytes come from (files, HTTP, memory). Implementations must be safe to call
/// concurrently; the inspector asks for each resource once per request.
///
/// A source that can serve bytes where they are asked for (a file) implements `open`, and the
/// inspector then reads a segment of any size in bounded memory. A source that only fetches
/// whole bodies (HTTP today) implements `read` alone: the default `open` wraps what it fetched.
package protocol SegmentByteSource: Sendable {
    /// The bytes of `uri`, or of `range` inside it. Throws for operational failures
    /// (missing file, I/O error, resource too large), never for content problems.
    func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8]

    /// Random access to `uri` (or `range` in it) without loading it whole. Same failures as `read`.
    func open(_ uri: String, range: SegmentByteRange?) async throws -> any RandomAccessBytes & Sendable

    /// About how many bytes inspecting this resource keeps in memory while it is read: what
    /// ``SegmentInspector/inspectAll(_:maxConcurrent:maximumBytesInFlight:)`` budgets with.
    func residentByteEstimate(_ uri: String, range: SegmentByteRange?) -> Int

    /// Runs `body` with a source through which `requests`' segments (not their init sections or
    /// keys) are about to be read, each once, roughly in order: a network source fetches them
    /// ahead of being asked, bounded, so that fetching overlaps inspecting. Reads
    /// behave as through `self`; what `body` has not read when it returns is dropped.
    /// The default (files, memory) hands over `self`.
    func readingAhead<Value: Sendable>(
        _ requests: [SegmentRequest], _ body: (any SegmentByteSource) async -> Value
    ) async -> Value
}

extension SegmentByteSource {
    /// Whole bodies, wrapped: bytes fetched into memory are read from there.
    package func open(_ uri: String, range: SegmentByteRange?) async throws -> any RandomAccessBytes & Sendable {
        InMemoryBytes(try await read(uri, range: range))
    }

    /// A whole body is held: its length when a byte range says it, else a typical segment.
    package func residentByteEstimate(_ uri: String, range: SegmentByteRange?) -> Int {
        range?.length ?? SegmentInspector.typicalSegmentBytes
    }

    /// Nothing to fetch ahead: `body` reads from `self`.
    package func readingAhead<Value: Sendable>(
        _ requests: [SegmentRequest], _ body: (any SegmentByteSource) async -> Value
    ) async -> Value {
        await body(self)
    }
}

/// Reads segments from the local file system. `uri` is a path, or a `file://` URL, mapped to a
/// file by `LocalFileName` (query and fragment dropped, percent-decoded).
/// Regular files only (a FIFO or a device is refused before a byte is read, so nothing blocks);
/// honours byte ranges with positioned reads and refuses anything over `maximumByteCount`,
/// so a bogus playlist cannot make the checker allocate gigabytes.
package struct LocalSegmentSource: SegmentByteSource {
    /// 256 MiB: a 6-second segment of 4K video at 40 Mbit/s is 30 MB.
    package static let defaultMaximumByteCount = 256 << 20

    /// Largest read accepted, in bytes (a whole file, or a byte range's length).
    package var maximumByteCount: Int

    /// A source that refuses reads over `maximumByteCount` bytes (default 256 MiB).
    package init(maximumByteCount: Int = LocalSegmentSource.defaultMaximumByteCount) {
        self.maximumByteCount = maximumByteCount
    }

    /// Reads a regular file or a byte range of it. Throws `InputReadError` when the file is
    /// missing or not a regular file, the range is invalid or beyond the end of the file, or the
    /// read is over `maximumByteCount`.
    package func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        try readSync(uri, range: range)
    }

    /// The file (or the byte range in it) read with positioned reads, never loaded whole.
    package func open(_ uri: String, range: SegmentByteRange?) async throws -> any RandomAccessBytes & Sendable {
        try openSync(uri, range: range)
    }

    /// What one streaming inspection holds whatever the segment's size: the scanners' window,
    /// the demuxer's I/O buffer and libavformat's own packet buffers.
    package static let streamingFootprint = 4 << 20

    package func residentByteEstimate(_ uri: String, range: SegmentByteRange?) -> Int {
        min(range?.length ?? Self.streamingFootprint, Self.streamingFootprint)
    }

    func openSync(_ uri: String, range: SegmentByteRange?) throws(InputReadError) -> FileRegionBytes {
        let (file, offset, length) = try checkedRegion(uri, range: range)
        return FileRegionBytes(file: file, offset: offset, length: length)
    }

    func readSync(_ uri: String, range: SegmentByteRange?) throws(InputReadError) -> [UInt8] {
        let (file, offset, length) = try checkedRegion(uri, range: range)
        do {
            return try file.read(offset: offset, length: length)
        } catch {
            throw failure(uri, error.reason)
        }
    }

    /// The open file and the region of it to read, after every check (regular file, not a
    /// symlink, range inside the file, under the size limit).
    private func checkedRegion(_ uri: String, range: SegmentByteRange?) throws(InputReadError) -> (
        RegularFile, offset: Int, length: Int
    ) {
        // The URI's path, percent-decoded, without query or fragment (RFC 8216 §4.1): the same
        // mapping confinement judged.
        let name = LocalFileName(uri: uri)
        if let refusal = name.refusal { throw failure(uri, "not read: \(refusal)") }
        let file: RegularFile
        do {
            // The real path (what confinement judged), without following a final symlink.
            file = try RegularFile(path: RegularFile.realPath(name.path) ?? name.path, followSymlinks: false)
        } catch {
            throw failure(
                uri, name.isMissing ? name.triedNames.map { "no such file: \($0)" } ?? error.reason : error.reason)
        }
        let fileSize = file.size
        let offset = range?.offset ?? 0
        let length = range?.length ?? fileSize
        guard offset >= 0, length >= 0 else {
            throw failure(uri, "invalid byte range \(length)@\(offset)")
        }
        guard length <= maximumByteCount else {
            throw failure(
                uri,
                "\(length) bytes, over the limit of \(maximumByteCount) bytes per segment (raise it with --max-segment-bytes)"
            )
        }
        guard offset <= fileSize, length <= fileSize - offset else {
            throw failure(uri, "byte range \(length)@\(offset) lies beyond the end of the file (\(fileSize) bytes)")
        }
        return (file, offset, length)
    }

    private func failure(_ uri: String, _ reason: String) -> InputReadError {
        InputReadError(uri: uri, reason: reason)
    }
}

/// Refuses the URIs in `refused` (local files outside the stream's root) without touching them,
/// and reads every other one from `base`.
package struct RefusingSegmentSource: SegmentByteSource {
    /// The source every other URI is read from.
    package var base: any SegmentByteSource
    /// Resolved URIs that are refused without being read.
    package var refused: Set<String>
    /// The reason given in the `InputReadError` of a refused URI.
    package var reason: String

    /// Makes a source that refuses `refused` with `reason` and reads the rest from `base`.
    package init(base: any SegmentByteSource, refused: Set<String>, reason: String) {
        self.base = base
        self.refused = refused
        self.reason = reason
    }

    /// Throws `InputReadError` with `reason` for a refused URI; otherwise reads from `base`.
    package func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        if refused.contains(uri) { throw InputReadError(uri: uri, reason: reason) }
        return try await base.read(uri, range: range)
    }

    package func open(_ uri: String, range: SegmentByteRange?) async throws -> any RandomAccessBytes & Sendable {
        if refused.contains(uri) { throw InputReadError(uri: uri, reason: reason) }
        return try await base.open(uri, range: range)
    }

    package func residentByteEstimate(_ uri: String, range: SegmentByteRange?) -> Int {
        base.residentByteEstimate(uri, range: range)
    }

    /// `base` reads ahead only what is not refused: a refused URI is never fetched, not even ahead.
    package func readingAhead<Value: Sendable>(
        _ requests: [SegmentRequest], _ body: (any SegmentByteSource) async -> Value
    ) async -> Value {
        let allowed = refused.isEmpty ? requests : requests.filter { !refused.contains($0.uri) }
        return await base.readingAhead(allowed) { inner in
            await body(RefusingSegmentSource(base: inner, refused: refused, reason: reason))
        }
    }
}
