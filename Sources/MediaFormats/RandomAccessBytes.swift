#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why bytes could not be read from a ``RandomAccessBytes`` (an I/O error, a file that shrank,
/// a segment that does not decrypt): what a user can act on.
package struct ByteReadError: Error, Sendable, Hashable, CustomStringConvertible {
    package var reason: String

    package init(reason: String) {
        self.reason = reason
    }

    package var description: String { reason }
}

/// A segment's bytes, read where they are asked for instead of held whole: a region of a file,
/// bytes in memory (a body fetched over HTTP), a decrypting view of either, or an init section
/// followed by a fragment. Readers copy into the caller's buffer, so what a reader holds is
/// bounded by that buffer, whatever the segment's size.
package protocol RandomAccessBytes {
    /// The number of bytes, known before any is read (a file's size, a byte range's length).
    var count: Int { get }
    /// Copies `min(buffer.count, count - offset)` bytes starting at `offset` into `buffer` and
    /// returns how many; 0 at or past the end.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ByteReadError) -> Int
}

extension RandomAccessBytes {
    /// `length` bytes at `offset` (fewer at the end), as an array: for small, bounded reads.
    package func bytes(at offset: Int, length: Int) throws(ByteReadError) -> [UInt8] {
        let wanted = max(0, min(length, count - offset))
        guard wanted > 0 else { return [] }
        // Not zeroed first: the read fills what it returns, and only that much is kept (this
        // runs for every segment scanned; zeroing the buffer cost as much as the copy into it).
        var thrown: ByteReadError?
        let result = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            do throws(ByteReadError) {
                initialized = min(wanted, try read(at: offset, into: UnsafeMutableRawBufferPointer(buffer)))
            } catch {
                thrown = error
                initialized = 0
            }
        }
        if let thrown { throw thrown }
        return result
    }
}

/// Bytes already in memory (a body fetched over HTTP, a test fixture): reads are copies.
package struct InMemoryBytes: RandomAccessBytes, Sendable {
    package let storage: [UInt8]

    package init(_ storage: [UInt8]) {
        self.storage = storage
    }

    package var count: Int { storage.count }

    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ByteReadError) -> Int {
        guard offset >= 0, offset < storage.count, let destination = buffer.baseAddress else { return 0 }
        let length = min(buffer.count, storage.count - offset)
        storage.withUnsafeBytes { source in
            if let base = source.baseAddress { destination.copyMemory(from: base + offset, byteCount: length) }
        }
        return length
    }
}

/// `length` bytes of an open regular file starting at `offset` (a whole segment, or an
/// EXT-X-BYTERANGE inside one): positioned reads (`pread`), so a byte range is served by seeking
/// and concurrent readers of one file do not disturb each other.
package struct FileRegionBytes: RandomAccessBytes, Sendable {
    package let file: RegularFile
    package let offset: Int
    package let count: Int

    package init(file: RegularFile, offset: Int = 0, length: Int? = nil) {
        self.file = file
        self.offset = offset
        self.count = length ?? max(0, file.size - offset)
    }

    package func read(at position: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ByteReadError) -> Int {
        guard position >= 0, position < count, let base = buffer.baseAddress else { return 0 }
        let wanted = min(buffer.count, count - position)
        var filled = 0
        while filled < wanted {
            let n = file.positionedRead(into: base + filled, count: wanted - filled, at: offset + position + filled)
            if n < 0 {
                if errno == EINTR { continue }
                throw ByteReadError(reason: "read failed: \(RegularFile.reason(errno))")
            }
            if n == 0 {
                throw ByteReadError(
                    reason: "file shrank while reading (\(offset + position + filled) of \(offset + count) bytes)")
            }
            filled += n
        }
        return filled
    }
}

extension RegularFile {
    /// The whole file, or `range` (offset, length) of it — an EXT-X-BYTERANGE — refused when it
    /// does not lie inside the file as it is now.
    package func region(_ range: (offset: Int, length: Int)?) throws(RegularFileError) -> FileRegionBytes {
        guard let range else { return FileRegionBytes(file: self) }
        guard range.offset >= 0, range.length >= 0, range.offset <= size, range.length <= size - range.offset else {
            throw RegularFileError(
                path: path,
                reason: "byte range \(range.length)@\(range.offset) lies beyond the end of the file (\(size) bytes)")
        }
        return FileRegionBytes(file: self, offset: range.offset, length: range.length)
    }
}

/// One reader after another: an fMP4 fragment behind its EXT-X-MAP init section, demuxed as one
/// stream without concatenating them in memory.
package struct ConcatenatedBytes: RandomAccessBytes {
    package let first: any RandomAccessBytes
    package let second: any RandomAccessBytes

    package init(_ first: any RandomAccessBytes, _ second: any RandomAccessBytes) {
        self.first = first
        self.second = second
    }

    package var count: Int { first.count + second.count }

    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ByteReadError) -> Int {
        guard offset >= 0 else { return 0 }
        let firstCount = first.count
        if offset >= firstCount { return try second.read(at: offset - firstCount, into: buffer) }
        let head = try first.read(at: offset, into: buffer)
        guard head == min(buffer.count, firstCount - offset), head < buffer.count else { return head }
        let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[head...])
        return head + (try second.read(at: 0, into: rest))
    }
}

/// The most bytes the readers of one inspection held at once (window buffers, the demuxer's I/O
/// buffer, decryption buffers): what makes "memory does not grow with segment size" testable
/// without measuring RSS. One per inspection; not shared between threads.
package final class BufferGauge {
    package private(set) var current = 0
    package private(set) var peak = 0

    package init() {}

    package func hold(_ count: Int) {
        current += count
        peak = max(peak, current)
    }

    package func release(_ count: Int) {
        current -= count
    }
}
