internal import MediaFormats

/// Hands the transport stream scanner the bytes libavformat reads through ``ReaderInput``, so
/// that each byte of a TS segment is read once for both. libavformat reads mostly in
/// order, but may go back (to re-read what it probed) or ahead (to the end, for timing) and back:
/// the scanner takes only the bytes right after those it has, once, and ``complete(from:gauge:)``
/// reads itself whatever libavformat never delivered in order.
package final class ScanFeed {
    let scanner: TransportStreamScanner
    /// Where the segment starts in what libavformat reads: after an init section (EXT-X-MAP).
    private let base: Int

    init(scanner: TransportStreamScanner, segmentOffset base: Int) {
        self.scanner = scanner
        self.base = base
    }

    /// Bytes libavformat read at `position` of its input.
    func observe(_ bytes: UnsafeRawBufferPointer, at position: Int) {
        let next = base + scanner.consumed
        guard position <= next, position + bytes.count > next else { return }
        scanner.feed(UnsafeRawBufferPointer(rebasing: bytes[(next - position)...]))
    }

    /// Reads and feeds the rest of `segment` after what the scanner has (nothing when libavformat
    /// read to the end in order) through one bounded buffer.
    func complete(from segment: any RandomAccessBytes, bufferSize: Int, gauge: BufferGauge?) throws(ByteReadError) {
        var offset = scanner.consumed
        guard offset < segment.count else { return }
        let length = min(max(bufferSize, 1024), segment.count - offset)
        var buffer = [UInt8](repeating: 0, count: length)
        gauge?.hold(length)
        defer { gauge?.release(length) }
        while offset < segment.count {
            var thrown: ByteReadError?
            let filled = buffer.withUnsafeMutableBytes { destination -> Int in
                do throws(ByteReadError) { return try segment.read(at: offset, into: destination) } catch {
                    thrown = error; return 0
                }
            }
            if let thrown { throw thrown }
            guard filled > 0 else { throw ByteReadError(reason: "no bytes at offset \(offset) of \(segment.count)") }
            buffer.withUnsafeBytes { scanner.feed(UnsafeRawBufferPointer(rebasing: $0[0..<filled])) }
            offset += filled
        }
    }
}
