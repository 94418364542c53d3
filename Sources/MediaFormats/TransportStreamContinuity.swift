/// The continuity_counter story of one TS segment (ISO/IEC 13818-1 §2.4.3.3), small enough to
/// keep for every segment of a long stream: the gaps inside it, and each PID's first and last
/// counter so that a checker can judge the join with the next segment of the same playlist.
package struct TransportStreamContinuity: Sendable, Hashable, Codable {
    /// The counters a PID starts and ends the segment with.
    package struct Edge: Sendable, Hashable, Codable {
        /// The PID.
        package var pid: UInt16
        /// Counter of the PID's first packet, and whether that packet carries a payload (the
        /// counter advances only for those) or signals a discontinuity (which resets it).
        package var firstCounter: UInt8
        /// See `firstCounter`.
        package var firstHasPayload: Bool
        /// See `firstCounter`.
        package var firstSignalsDiscontinuity: Bool
        /// Counter of the PID's last packet in the segment.
        package var lastCounter: UInt8

        /// Makes an edge.
        package init(
            pid: UInt16, firstCounter: UInt8, firstHasPayload: Bool, firstSignalsDiscontinuity: Bool, lastCounter: UInt8
        ) {
            self.pid = pid
            self.firstCounter = firstCounter
            self.firstHasPayload = firstHasPayload
            self.firstSignalsDiscontinuity = firstSignalsDiscontinuity
            self.lastCounter = lastCounter
        }

        /// Whether this edge continues `previous` (the same PID's end in the segment before):
        /// the counter advances by one for a packet with payload, stays for one without, may
        /// repeat once (a duplicate packet), and anything goes after a discontinuity_indicator.
        package func continues(_ previous: Edge) -> Bool {
            if firstSignalsDiscontinuity { return true }
            let expected = firstHasPayload ? (previous.lastCounter &+ 1) & 0x0F : previous.lastCounter
            return firstCounter == expected || (firstHasPayload && firstCounter == previous.lastCounter)
        }
    }

    /// Gaps inside the segment, at most `keptErrors` of them (the count is exact).
    package var errors: [ContinuityError]
    /// The exact number of gaps inside the segment (may exceed `errors.count`).
    package var errorCount: Int
    /// One per PID, in order of first appearance; the null PID is left out.
    package var edges: [Edge]

    /// How many gaps `errors` keeps.
    package static let keptErrors = 8

    /// Makes a summary.
    package init(errors: [ContinuityError] = [], errorCount: Int = 0, edges: [Edge] = []) {
        self.errors = errors
        self.errorCount = errorCount
        self.edges = edges
    }

    /// The edge of `pid`, nil when the PID does not appear in the segment.
    package func edge(of pid: UInt16) -> Edge? { edges.first { $0.pid == pid } }
}

/// Follows the continuity counters of a TS segment packet by packet, so that a segment of any
/// size is judged in one streaming pass (``TransportStream/forEachPacket(in:_:)``).
package struct ContinuityTracker {
    /// The PIDs seen so far, in order of first appearance — a PID's slot is its edge's position —
    /// and one word per PID, so that a packet reads and writes one entry: bits 0–3 the last
    /// counter, bit 4 whether that packet was a duplicate.
    private var pids: PIDIndex
    private var states: [UInt32] = []
    /// The story so far; the edges' last counters are kept in `states` and filled in by
    /// ``continuity``, so that a packet does not write into the edge list.
    private var recorded = TransportStreamContinuity()

    /// Room made at once for the PIDs of a segment (PAT, PMT, audio, video, timed ID3) rather
    /// than growing three lists packet by packet.
    private static let usualPIDs = 5

    package init() {
        pids = PIDIndex(capacity: Self.usualPIDs)
        states.reserveCapacity(Self.usualPIDs)
        recorded.edges.reserveCapacity(Self.usualPIDs)
    }

    /// The gaps and edge counters of the packets consumed so far.
    package var continuity: TransportStreamContinuity {
        var result = recorded
        for index in result.edges.indices {
            result.edges[index].lastCounter = UInt8(states[index] & 0x0F)
        }
        return result
    }

    /// Takes the next packet (with its index among all packets); returns the gap it opens, nil
    /// when its counter is as expected or it is on the null PID (which is not checked).
    @discardableResult
    package mutating func consume(_ packet: TransportStreamPacket, packetIndex: Int) -> ContinuityError? {
        consume(
            pid: packet.pid, continuityCounter: packet.continuityCounter, hasPayload: packet.hasPayload,
            discontinuity: packet.discontinuity, packetIndex: packetIndex)
    }

    /// ``consume(_:packetIndex:)`` from the header fields alone: the scanner's path, which sees
    /// every packet of a segment and parses no payload.
    @discardableResult
    package mutating func consume(
        pid: UInt16, continuityCounter counter: UInt8, hasPayload: Bool, discontinuity: Bool, packetIndex: Int
    ) -> ContinuityError? {
        guard pid != TransportStreamPacket.nullPID else { return nil }
        guard let slot = pids.slot(of: pid) else {
            // The PID's first packet: its edge starts here.
            recorded.edges.append(
                TransportStreamContinuity.Edge(
                    pid: pid, firstCounter: counter, firstHasPayload: hasPayload,
                    firstSignalsDiscontinuity: discontinuity, lastCounter: counter))
            pids.add(pid)
            states.append(UInt32(counter & 0x0F))
            return nil
        }
        let state = states[slot]
        var duplicate: UInt32 = 0
        var error: ContinuityError?
        // A discontinuity_indicator resets the counter (ISO/IEC 13818-1 §2.4.3.5).
        if !discontinuity {
            let previous = UInt8(state & 0x0F)
            let expected = hasPayload ? (previous &+ 1) & 0x0F : previous
            if counter != expected {
                if hasPayload, counter == previous, state & 0x10 == 0 {
                    duplicate = 0x10  // one duplicate packet is allowed (§2.4.3.3)
                } else {
                    let gap = ContinuityError(pid: pid, packetIndex: packetIndex, expected: expected, found: counter)
                    recorded.errorCount += 1
                    if recorded.errors.count < TransportStreamContinuity.keptErrors { recorded.errors.append(gap) }
                    error = gap
                }
            }
        }
        states[slot] = state & ~0x1F | duplicate | UInt32(counter & 0x0F)
        return error
    }
}

extension TransportStream {
    /// Gaps and edge counters of a segment; see ``TransportStreamContinuity``.
    package static func continuity(in ts: [UInt8]) -> TransportStreamContinuity {
        var tracker = ContinuityTracker()
        forEachPacket(in: ByteCursor(InMemoryBytes(ts))) { _, index, packet in
            tracker.consume(packet, packetIndex: index)
        }
        return tracker.continuity
    }

    /// The one walk behind ``continuityErrors(in:)``: every packet but the null PID's, with the
    /// gap it opens (nil when its counter is as expected).
    static func forEachContinuityStep(in ts: [UInt8], _ body: (TransportStreamPacket, Int, ContinuityError?) -> Void) {
        var tracker = ContinuityTracker()
        forEachPacket(in: ByteCursor(InMemoryBytes(ts))) { _, index, packet in
            guard packet.pid != TransportStreamPacket.nullPID else { return }
            body(packet, index, tracker.consume(packet, packetIndex: index))
        }
    }
}
