/// The continuity_counter story of one TS segment (ISO/IEC 13818-1 §2.4.3.3), small enough to
/// keep for every segment of a long stream: the gaps inside it, and each PID's first and last
/// counter so that a checker can judge the join with the next segment of the same playlist.
public struct TransportStreamContinuity: Sendable, Hashable, Codable {
    /// The counters a PID starts and ends the segment with.
    public struct Edge: Sendable, Hashable, Codable {
        /// The PID.
        public var pid: UInt16
        /// Counter of the PID's first packet, and whether that packet carries a payload (the
        /// counter advances only for those) or signals a discontinuity (which resets it).
        public var firstCounter: UInt8
        /// See `firstCounter`.
        public var firstHasPayload: Bool
        /// See `firstCounter`.
        public var firstSignalsDiscontinuity: Bool
        /// Counter of the PID's last packet in the segment.
        public var lastCounter: UInt8

        /// Makes an edge.
        public init(pid: UInt16, firstCounter: UInt8, firstHasPayload: Bool, firstSignalsDiscontinuity: Bool, lastCounter: UInt8) {
            self.pid = pid
            self.firstCounter = firstCounter
            self.firstHasPayload = firstHasPayload
            self.firstSignalsDiscontinuity = firstSignalsDiscontinuity
            self.lastCounter = lastCounter
        }

        /// Whether this edge continues `previous` (the same PID's end in the segment before):
        /// the counter advances by one for a packet with payload, stays for one without, may
        /// repeat once (a duplicate packet), and anything goes after a discontinuity_indicator.
        public func continues(_ previous: Edge) -> Bool {
            if firstSignalsDiscontinuity { return true }
            let expected = firstHasPayload ? (previous.lastCounter &+ 1) & 0x0F : previous.lastCounter
            return firstCounter == expected || (firstHasPayload && firstCounter == previous.lastCounter)
        }
    }

    /// Gaps inside the segment, at most `keptErrors` of them (the count is exact).
    public var errors: [ContinuityError]
    /// The exact number of gaps inside the segment (may exceed `errors.count`).
    public var errorCount: Int
    /// One per PID, in order of first appearance; the null PID is left out.
    public var edges: [Edge]

    /// How many gaps `errors` keeps.
    public static let keptErrors = 8

    /// Makes a summary.
    public init(errors: [ContinuityError] = [], errorCount: Int = 0, edges: [Edge] = []) {
        self.errors = errors
        self.errorCount = errorCount
        self.edges = edges
    }

    /// The edge of `pid`, nil when the PID does not appear in the segment.
    public func edge(of pid: UInt16) -> Edge? { edges.first { $0.pid == pid } }
}

/// Follows the continuity counters of a TS segment packet by packet, so that a segment of any
/// size is judged in one streaming pass (``TransportStream/forEachPacket(in:_:)``).
public struct ContinuityTracker {
    /// Per PID (13 bits, so a table rather than a dictionary: this runs for every packet of a
    /// segment of any size): the last counter, whether it was a duplicate, the edge's index.
    private var lastCounter = [UInt8](repeating: 0, count: 8192)
    private var lastWasDuplicate = [Bool](repeating: false, count: 8192)
    private var edgeIndex = [Int](repeating: -1, count: 8192)
    public private(set) var continuity = TransportStreamContinuity()

    public init() {}

    /// Takes the next packet (with its index among all packets); returns the gap it opens, nil
    /// when its counter is as expected or it is on the null PID (which is not checked).
    @discardableResult
    public mutating func consume(_ packet: TransportStreamPacket, packetIndex: Int) -> ContinuityError? {
        guard packet.pid != TransportStreamPacket.nullPID else { return nil }
        let error = step(packet, packetIndex: packetIndex)
        if let error {
            continuity.errorCount += 1
            if continuity.errors.count < TransportStreamContinuity.keptErrors { continuity.errors.append(error) }
        }
        let position = edgeIndex[Int(packet.pid)]
        if position >= 0 {
            continuity.edges[position].lastCounter = packet.continuityCounter
        } else {
            edgeIndex[Int(packet.pid)] = continuity.edges.count
            continuity.edges.append(TransportStreamContinuity.Edge(
                pid: packet.pid, firstCounter: packet.continuityCounter, firstHasPayload: packet.hasPayload,
                firstSignalsDiscontinuity: packet.discontinuity, lastCounter: packet.continuityCounter))
        }
        return error
    }

    private mutating func step(_ packet: TransportStreamPacket, packetIndex: Int) -> ContinuityError? {
        let pid = Int(packet.pid)
        // A PID seen before has an edge; the first packet of a PID and a discontinuity reset.
        guard edgeIndex[pid] >= 0, !packet.discontinuity else {
            (lastCounter[pid], lastWasDuplicate[pid]) = (packet.continuityCounter, false)
            return nil
        }
        let previous = lastCounter[pid]
        let expected = packet.hasPayload ? (previous + 1) & 0x0F : previous
        if packet.continuityCounter == expected {
            (lastCounter[pid], lastWasDuplicate[pid]) = (packet.continuityCounter, false)
            return nil
        } else if packet.hasPayload, packet.continuityCounter == previous, !lastWasDuplicate[pid] {
            (lastCounter[pid], lastWasDuplicate[pid]) = (packet.continuityCounter, true)   // one duplicate packet is allowed
            return nil
        }
        (lastCounter[pid], lastWasDuplicate[pid]) = (packet.continuityCounter, false)
        return ContinuityError(pid: packet.pid, packetIndex: packetIndex, expected: expected, found: packet.continuityCounter)
    }
}

extension TransportStream {
    /// Gaps and edge counters of a segment; see ``TransportStreamContinuity``.
    public static func continuity(in ts: [UInt8]) -> TransportStreamContinuity {
        var tracker = ContinuityTracker()
        forEachPacket(in: ByteCursor(InMemoryBytes(ts))) { _, index, packet in tracker.consume(packet, packetIndex: index) }
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
