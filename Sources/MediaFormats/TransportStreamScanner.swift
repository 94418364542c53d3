/// What a ``TransportStreamPacketWalker`` hands each packet to.
protocol TransportStreamPacketSink {
    /// One packet: its 188 bytes (valid during the call only), its byte offset and its index
    /// among all packets found.
    mutating func take(_ packet: UnsafeRawBufferPointer, offset: Int, index: Int)
}

/// Finds the 188-byte packets of a transport stream whose bytes arrive in pieces of any size, in
/// order (ISO/IEC 13818-1 §2.4.3.2): the push form of ``TransportStream/forEachPacket(in:_:)``,
/// with the same packets, offsets, indices and resynchronisation, for bytes that someone else
/// reads (libavformat, through the inspector's I/O callback). Holds only the few bytes of a packet
/// or a resynchronisation test that straddles two pieces.
struct TransportStreamPacketWalker {
    /// The stream's length: where packets stop, and where resynchronisation may take a lone
    /// sync byte (one in the last packet).
    let count: Int
    /// Absolute offset of the first byte not yet judged.
    private(set) var position = 0
    /// Packets found so far (parsed or not), the next packet's index.
    private(set) var index = 0
    private var inSync = true
    /// The bytes `[position, position + carry.count)`: fed, but too few to judge.
    private var carry: [UInt8] = []

    private static let size = TransportStreamPacket.size
    private static let sync = TransportStreamPacket.syncByte

    init(count: Int) {
        self.count = count
        carry.reserveCapacity(3 * Self.size)
    }

    /// Whether no further packet can be found (fewer than 188 bytes left).
    var isDone: Bool { position + Self.size > count }

    /// Takes the next bytes of the stream and hands `sink` every whole packet they complete.
    mutating func feed<Sink: TransportStreamPacketSink>(_ bytes: UnsafeRawBufferPointer, into sink: inout Sink) {
        guard !bytes.isEmpty, !isDone else { return }
        let start = position + carry.count
        if !carry.isEmpty {
            // A judgement needs at most 189 bytes from a position before `start`: the carry plus
            // two packets' worth of the new bytes always settles every such position.
            let taken = min(bytes.count, 2 * Self.size)
            carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<taken]))
            let base = position
            let carried = carry
            carried.withUnsafeBytes { walk($0, base: base, until: start, into: &sink) }
            if position < start {
                // Still short of bytes: every new byte is in the carry now.
                carry.removeFirst(position - base)
                return
            }
            carry.removeAll(keepingCapacity: true)
        }
        walk(bytes, base: start, until: Int.max, into: &sink)
        let end = start + bytes.count
        if !isDone, position < end {
            carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[(position - start)...]))
        }
    }

    /// Judges positions from `position` while they are below `limit` and `buffer` (the bytes from
    /// absolute offset `base`) holds what each needs.
    private mutating func walk<Sink: TransportStreamPacketSink>(
        _ buffer: UnsafeRawBufferPointer, base: Int, until limit: Int, into sink: inout Sink
    ) {
        let size = Self.size, end = base + buffer.count
        while position < limit, position + size <= count {
            let i = position - base
            if inSync {
                guard position + size <= end else { return }
                if buffer[i] == Self.sync {
                    sink.take(UnsafeRawBufferPointer(rebasing: buffer[i..<(i + size)]), offset: position, index: index)
                    index += 1
                    position += size
                } else {
                    // Lost sync: look again from the next byte.
                    inSync = false
                    position += 1
                }
            } else if position + size == count {
                // The last possible packet: a lone sync byte will do.
                guard position < end else { return }
                if buffer[i] == Self.sync { inSync = true } else { position += 1 }
            } else {
                // A sync byte with another one a packet later.
                guard position + size < end else { return }
                if buffer[i] == Self.sync, buffer[i + size] == Self.sync { inSync = true } else { position += 1 }
            }
        }
    }
}

extension TransportStreamPacket {
    /// The header fields of the packet at the start of `bytes` (188 of them), without the payload
    /// (empty): nil exactly when ``init(_:)`` returns nil.
    init?(header bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.size, bytes[0] == Self.syncByte else { return nil }
        let b1 = bytes[1], b2 = bytes[2], b3 = bytes[3]
        transportError = b1 & 0x80 != 0
        payloadUnitStart = b1 & 0x40 != 0
        pid = UInt16(b1 & 0x1F) << 8 | UInt16(b2)
        scramblingControl = b3 >> 6
        hasAdaptationField = b3 & 0x20 != 0
        hasPayload = b3 & 0x10 != 0
        continuityCounter = b3 & 0x0F
        discontinuity = false
        if hasAdaptationField {
            let length = Int(bytes[4])
            guard 5 + length <= Self.size else { return nil }
            if length > 0 { discontinuity = bytes[5] & 0x80 != 0 }
        }
        payload = []
    }
}

/// The scanners' whole work on a transport stream segment, fed its bytes in order as they are
/// read: the continuity counters of every packet and the timed ID3 tags, the same as one walk
/// of ``TransportStream/forEachPacket(in:_:)`` with a ``ContinuityTracker`` and a
/// ``TimedID3Collector``. Only the payloads of the PIDs that carry tables or ID3 are copied.
package final class TransportStreamScanner {
    private struct Consumers: TransportStreamPacketSink {
        var tracker = ContinuityTracker()
        var collector: TimedID3Collector

        mutating func take(_ raw: UnsafeRawBufferPointer, offset: Int, index: Int) {
            // The header fields read in place (this runs for every packet of a segment of any
            // size): the same checks and fields as `TransportStreamPacket(header:)`.
            let b1 = raw[1], b3 = raw[3]
            let pid = UInt16(b1 & 0x1F) << 8 | UInt16(raw[2])
            var discontinuity = false
            if b3 & 0x20 != 0 {
                let length = Int(raw[4])
                guard 5 + length <= TransportStreamPacket.size else { return }
                if length > 0 { discontinuity = raw[5] & 0x80 != 0 }
            }
            tracker.consume(
                pid: pid, continuityCounter: b3 & 0x0F, hasPayload: b3 & 0x10 != 0, discontinuity: discontinuity,
                packetIndex: index)
            guard collector.wantsPayload(of: pid) else { return }
            // A packet of the PAT, a PMT or a timed-ID3 PID: rare, and read in place too.
            collector.consume(packet: raw, at: offset)
        }
    }

    /// The packets of an init section: only its tables are read.
    private struct TablesOnly: TransportStreamPacketSink {
        var collector: TimedID3Collector

        mutating func take(_ raw: UnsafeRawBufferPointer, offset: Int, index: Int) {
            guard let header = TransportStreamPacket(header: raw), collector.wantsPayload(of: header.pid) else {
                return
            }
            collector.consume(packet: raw, at: offset)
        }
    }

    private struct State {
        var walker: TransportStreamPacketWalker
        var consumers: Consumers

        mutating func feed(_ bytes: UnsafeRawBufferPointer) {
            walker.feed(bytes, into: &consumers)
        }
    }

    private var state: State

    /// How many bytes the scanner has been fed.
    package private(set) var consumed = 0

    /// A scanner for a segment of `count` bytes; ID3 tags over `maximumTagBytes` are reported, not read.
    package init(count: Int, maximumTagBytes: Int = EmbeddedID3.maximumPESSize) {
        state = State(
            walker: TransportStreamPacketWalker(count: count),
            consumers: Consumers(collector: TimedID3Collector(maximumTagBytes: maximumTagBytes)))
    }

    /// The segment's length in bytes.
    package var count: Int { state.walker.count }

    /// Takes the next bytes of the segment (the ones right after those fed before).
    package func feed(_ bytes: UnsafeRawBufferPointer) {
        consumed += bytes.count
        state.feed(bytes)
    }

    /// Reads the PAT and PMT of the segment's init section (EXT-X-MAP before TS segments, RFC 8216
    /// §4.3.2.5), which say which PID carries timed ID3; call before `feed`. Its packets are not
    /// the segment's: not counted, and no continuity is kept for them.
    package func readTables(ofInitSection bytes: UnsafeRawBufferPointer) {
        var walker = TransportStreamPacketWalker(count: bytes.count)
        var tables = TablesOnly(collector: state.consumers.collector)
        walker.feed(bytes, into: &tables)
        state.consumers.collector = tables.collector
    }

    /// The counters' story and the tags, once every byte has been fed.
    package func finish() -> (continuity: TransportStreamContinuity, tags: [FoundID3Tag]) {
        (state.consumers.tracker.continuity, state.consumers.collector.finish())
    }
}
