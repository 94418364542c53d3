internal import MediaFormats

/// A byte range inside a resource, as given by EXT-X-BYTERANGE / EXT-X-MAP BYTERANGE
/// (RFC 8216 §4.3.2.2): `length` bytes starting at `offset`.
public struct SegmentByteRange: Sendable, Hashable, Codable {
    /// Offset of the first byte from the start of the resource.
    public var offset: Int
    /// Length in bytes.
    public var length: Int

    /// Makes a range: `length` bytes from byte `offset`.
    public init(offset: Int, length: Int) {
        self.offset = offset
        self.length = length
    }
}

/// Where segment bytes come from (files, HTTP, memory). Implementations must be safe to call
/// concurrently; the inspector asks for each resource once per request.
public protocol SegmentByteSource: Sendable {
    /// The bytes of `uri`, or of `range` inside it. Throws for operational failures
    /// (missing file, I/O error, resource too large), never for content problems.
    func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8]
}

/// Why a ``LocalSegmentSource`` could not deliver bytes.
public struct SegmentReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URI (path or URL) that could not be read.
    public var uri: String
    /// The operating system's reason, or the limit or range that refused it.
    public var reason: String

    /// Makes an error.
    public init(uri: String, reason: String) {
        self.uri = uri
        self.reason = reason
    }

    /// `uri: reason`.
    public var description: String { "\(uri): \(reason)" }
}

/// Reads segments from the local file system. `uri` is a path, or a `file://` URL.
/// Regular files only (a FIFO or a device is refused before a byte is read, so nothing blocks);
/// honours byte ranges with positioned reads and refuses anything over `maximumByteCount`,
/// so a bogus playlist cannot make the checker allocate gigabytes.
public struct LocalSegmentSource: SegmentByteSource {
    /// 256 MiB: a 6-second segment of 4K video at 40 Mbit/s is 30 MB.
    public static let defaultMaximumByteCount = 256 << 20

    /// Largest read accepted, in bytes (a whole file, or a byte range's length).
    public var maximumByteCount: Int

    /// A source that refuses reads over `maximumByteCount` bytes (default 256 MiB).
    public init(maximumByteCount: Int = LocalSegmentSource.defaultMaximumByteCount) {
        self.maximumByteCount = maximumByteCount
    }

    /// Reads a regular file or a byte range of it. Throws `SegmentReadError` when the file is
    /// missing or not a regular file, the range is invalid or beyond the end of the file, or the
    /// read is over `maximumByteCount`.
    public func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        try readSync(uri, range: range)
    }

    func readSync(_ uri: String, range: SegmentByteRange?) throws(SegmentReadError) -> [UInt8] {
        let path = uri.hasPrefix("file://") ? String(uri.dropFirst("file://".count)) : uri
        let file: RegularFile
        do {
            // The real path (what confinement judged), without following a final symlink.
            file = try RegularFile(path: RegularFile.realPath(path) ?? path, followSymlinks: false)
        } catch {
            throw failure(uri, error.reason)
        }
        let fileSize = file.size
        let offset = range?.offset ?? 0
        let length = range?.length ?? fileSize
        guard offset >= 0, length >= 0 else {
            throw failure(uri, "invalid byte range \(length)@\(offset)")
        }
        guard length <= maximumByteCount else {
            throw failure(uri, "\(length) bytes, over the limit of \(maximumByteCount) bytes per segment (raise it with --max-segment-bytes)")
        }
        guard offset <= fileSize, length <= fileSize - offset else {
            throw failure(uri, "byte range \(length)@\(offset) lies beyond the end of the file (\(fileSize) bytes)")
        }
        do {
            return try file.read(offset: offset, length: length)
        } catch {
            throw failure(uri, error.reason)
        }
    }

    private func failure(_ uri: String, _ reason: String) -> SegmentReadError {
        SegmentReadError(uri: uri, reason: reason)
    }
}

/// Refuses the URIs in `refused` (local files outside the stream's root) without touching them,
/// and reads every other one from `base`.
public struct RefusingSegmentSource: SegmentByteSource {
    /// The source every other URI is read from.
    public var base: any SegmentByteSource
    /// Resolved URIs that are refused without being read.
    public var refused: Set<String>
    /// The reason given in the `SegmentReadError` of a refused URI.
    public var reason: String

    /// Makes a source that refuses `refused` with `reason` and reads the rest from `base`.
    public init(base: any SegmentByteSource, refused: Set<String>, reason: String) {
        self.base = base
        self.refused = refused
        self.reason = reason
    }

    /// Throws `SegmentReadError` with `reason` for a refused URI; otherwise reads from `base`.
    public func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        if refused.contains(uri) { throw SegmentReadError(uri: uri, reason: reason) }
        return try await base.read(uri, range: range)
    }
}
