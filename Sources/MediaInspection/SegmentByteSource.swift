#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A byte range inside a resource, as given by EXT-X-BYTERANGE / EXT-X-MAP BYTERANGE
/// (RFC 8216 §4.3.2.2): `length` bytes starting at `offset`.
public struct SegmentByteRange: Sendable, Hashable, Codable {
    public var offset: Int
    public var length: Int

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
    public var uri: String
    public var reason: String

    public init(uri: String, reason: String) {
        self.uri = uri
        self.reason = reason
    }

    public var description: String { "\(uri): \(reason)" }
}

/// Reads segments from the local file system. `uri` is a path, or a `file://` URL.
/// Honours byte ranges with positioned reads and refuses anything over `maximumByteCount`,
/// so a bogus playlist cannot make the checker allocate gigabytes.
public struct LocalSegmentSource: SegmentByteSource {
    public static let defaultMaximumByteCount = 1 << 30

    public var maximumByteCount: Int

    public init(maximumByteCount: Int = LocalSegmentSource.defaultMaximumByteCount) {
        self.maximumByteCount = maximumByteCount
    }

    public func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        try readSync(uri, range: range)
    }

    func readSync(_ uri: String, range: SegmentByteRange?) throws(SegmentReadError) -> [UInt8] {
        let path = uri.hasPrefix("file://") ? String(uri.dropFirst("file://".count)) : uri
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw failure(uri, "cannot open: \(systemError())") }
        defer { close(descriptor) }

        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(uri, "cannot stat: \(systemError())") }
        let fileSize = Int(status.st_size)

        let offset = range?.offset ?? 0
        let length = range?.length ?? fileSize
        guard offset >= 0, length >= 0 else {
            throw failure(uri, "invalid byte range \(length)@\(offset)")
        }
        guard length <= maximumByteCount else {
            throw failure(uri, "\(length) bytes exceed the limit of \(maximumByteCount) bytes")
        }
        guard offset <= fileSize, length <= fileSize - offset else {
            throw failure(uri, "byte range \(length)@\(offset) lies beyond the end of the file (\(fileSize) bytes)")
        }

        var bytes = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            let count = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(descriptor, base + filled, length - filled, off_t(offset + filled))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(uri, "read failed: \(systemError())")
            }
            if count == 0 { throw failure(uri, "file shrank while reading") }
            filled += count
        }
        return bytes
    }

    private func failure(_ uri: String, _ reason: String) -> SegmentReadError {
        SegmentReadError(uri: uri, reason: reason)
    }

    private func systemError() -> String {
        String(cString: strerror(errno))
    }
}
