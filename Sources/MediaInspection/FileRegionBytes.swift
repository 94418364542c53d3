#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
package import FileSystem
package import MediaFormats

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
