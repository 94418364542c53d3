/// A forward-moving position over ``RandomAccessBytes`` that keeps only a bounded window of them
/// in memory: the scanners (ID3 in packed audio, TS packets, fMP4 boxes) walk a segment of any
/// size through it. The window is `windowSize` bytes, larger only while a caller asks to see more
/// at once (one ID3 tag, itself bounded by `--max-id3-bytes`). Bytes already in memory are
/// used where they are, without a copy.
///
/// A read failure ends the bytes early; `failure` keeps it for the caller to report.
package final class ByteCursor {
    package static let defaultWindowSize = 256 << 10
    /// The smallest window a cursor keeps, whatever it is given.
    package static let minimumWindowSize = 1024

    private let source: any RandomAccessBytes
    private let windowSize: Int
    private let gauge: BufferGauge?
    /// The bytes `[windowStart, windowStart + window.count)`.
    private var window: [UInt8]
    private var windowStart = 0
    /// Bytes counted in the gauge for this cursor.
    private var held = 0
    private let borrowsStorage: Bool

    /// Absolute position, from the start of the bytes.
    package private(set) var offset = 0
    package private(set) var failure: ByteReadError?

    package init(
        _ source: any RandomAccessBytes, windowSize: Int = ByteCursor.defaultWindowSize, gauge: BufferGauge? = nil
    ) {
        self.source = source
        self.windowSize = max(windowSize, Self.minimumWindowSize)
        self.gauge = gauge
        if let memory = source as? InMemoryBytes {
            window = memory.storage
            borrowsStorage = true
        } else {
            window = []
            borrowsStorage = false
        }
    }

    deinit {
        gauge?.release(held)
    }

    package var count: Int { source.count }

    /// Bytes from the cursor to the end (0 after a read failure).
    package var remaining: Int { failure == nil ? max(0, source.count - offset) : 0 }

    /// Up to `length` bytes from the cursor: fewer only at the end, or after a read failure.
    /// The slice is valid until the next call; do not keep it.
    package func peek(_ length: Int) -> ArraySlice<UInt8> {
        let wanted = max(0, min(length, remaining))
        let start = offset - windowStart
        if start >= 0, start + wanted <= window.count {
            return window[start..<(start + wanted)]
        }
        refill(atLeast: wanted)
        return window[0..<min(wanted, window.count)]
    }

    package func advance(by count: Int) {
        offset = min(source.count, offset + max(0, count))
    }

    /// Moves to an absolute position (forward or back).
    package func move(to position: Int) {
        offset = max(0, min(source.count, position))
    }

    private func refill(atLeast wanted: Int) {
        let length = min(max(wanted, windowSize), source.count - offset)
        // A window grown for one large read goes back to its usual size afterwards.
        if window.count != length || borrowsStorage {
            window = [UInt8](repeating: 0, count: length)
            gauge?.release(held)
            held = length
            gauge?.hold(held)
        }
        windowStart = offset
        var thrown: ByteReadError?
        let filled = window.withUnsafeMutableBytes { buffer -> Int in
            do throws(ByteReadError) { return try source.read(at: offset, into: buffer) } catch {
                thrown = error; return 0
            }
        }
        if let thrown {
            failure = thrown
            window.removeAll()
        } else if filled < length {
            window.removeLast(length - filled)
        }
    }
}

extension TransportStream {
    /// Every 188-byte packet from the cursor to the end, with its byte offset and its index
    /// (counting every packet found, as ``packetOffsets(in:)`` does). Packets are 188 bytes apart;
    /// after lost sync the next 0x47 followed by another 0x47 188 bytes later (or one in the last
    /// packet) is taken as the resynchronisation point. A packet that does not parse is counted
    /// but not passed on.
    package static func forEachPacket(in cursor: ByteCursor, _ body: (Int, Int, TransportStreamPacket) -> Void) {
        let size = TransportStreamPacket.size
        var index = 0
        while cursor.remaining >= size {
            // The packets of one window at a time, without going back to the cursor for each.
            let block = cursor.peek(348 * size)
            let start = block.startIndex, base = cursor.offset
            var i = start
            while block.endIndex - i >= size, block[i] == TransportStreamPacket.syncByte {
                if let packet = TransportStreamPacket(block[i..<(i + size)]) { body(base + (i - start), index, packet) }
                index += 1
                i += size
            }
            cursor.advance(by: i - start)
            guard cursor.remaining >= size, block.endIndex - i >= size else { continue }
            // Lost sync at the cursor.
            cursor.advance(by: 1)
            resync: while cursor.remaining >= size {
                let block = cursor.peek(65_536 + size)
                let atEnd = block.count >= cursor.remaining
                let last = atEnd ? block.count - size : block.count - size - 1
                let s = block.startIndex
                var j = 0
                while j <= last {
                    if block[s + j] == TransportStreamPacket.syncByte,
                        j + size >= block.count || block[s + j + size] == TransportStreamPacket.syncByte
                    {
                        cursor.advance(by: j)
                        break resync
                    }
                    j += 1
                }
                cursor.advance(by: last + 1)
            }
        }
    }
}
