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

extension TransportStream {
    /// Gaps and edge counters of a segment; see ``TransportStreamContinuity``.
    public static func continuity(in ts: [UInt8]) -> TransportStreamContinuity {
        var result = TransportStreamContinuity()
        var index: [UInt16: Int] = [:]
        forEachContinuityStep(in: ts) { packet, packetIndex, error in
            if let error {
                result.errorCount += 1
                if result.errors.count < TransportStreamContinuity.keptErrors { result.errors.append(error) }
            }
            if let position = index[packet.pid] {
                result.edges[position].lastCounter = packet.continuityCounter
            } else {
                index[packet.pid] = result.edges.count
                result.edges.append(TransportStreamContinuity.Edge(
                    pid: packet.pid, firstCounter: packet.continuityCounter, firstHasPayload: packet.hasPayload,
                    firstSignalsDiscontinuity: packet.discontinuity, lastCounter: packet.continuityCounter))
            }
        }
        return result
    }

    /// The one walk behind ``continuityErrors(in:)`` and ``continuity(in:)``: every packet but
    /// the null PID's, with the gap it opens (nil when its counter is as expected).
    static func forEachContinuityStep(in ts: [UInt8], _ body: (TransportStreamPacket, Int, ContinuityError?) -> Void) {
        var last: [UInt16: (counter: UInt8, duplicates: Int)] = [:]
        for (packetIndex, offset) in packetOffsets(in: ts[...]).enumerated() {
            guard let packet = TransportStreamPacket(ts[offset...]), packet.pid != TransportStreamPacket.nullPID else { continue }
            guard let previous = last[packet.pid], !packet.discontinuity else {
                last[packet.pid] = (packet.continuityCounter, 0)
                body(packet, packetIndex, nil)
                continue
            }
            let expected = packet.hasPayload ? (previous.counter + 1) & 0x0F : previous.counter
            if packet.continuityCounter == expected {
                last[packet.pid] = (packet.continuityCounter, 0)
                body(packet, packetIndex, nil)
            } else if packet.hasPayload, packet.continuityCounter == previous.counter, previous.duplicates == 0 {
                last[packet.pid] = (packet.continuityCounter, 1)   // one duplicate packet is allowed
                body(packet, packetIndex, nil)
            } else {
                last[packet.pid] = (packet.continuityCounter, 0)
                body(packet, packetIndex, ContinuityError(
                    pid: packet.pid, packetIndex: packetIndex, expected: expected, found: packet.continuityCounter))
            }
        }
    }
}
