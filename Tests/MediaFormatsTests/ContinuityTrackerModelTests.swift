import Testing
@testable import MediaFormats

/// ContinuityTracker keeps one packed word per PID (it runs for every packet of a segment of any
/// size). It must judge exactly as the rules of ISO/IEC 13818-1 §2.4.3.3 written out
/// plainly, with dictionaries: checked here over long deterministic pseudo-random runs of
/// headers with repeats, skips, packets without payload, discontinuity flags and null packets.
@Suite("Continuity tracker against a plain model")
struct ContinuityTrackerModelTests {
    struct Header {
        var pid: UInt16
        var counter: UInt8
        var hasPayload: Bool
        var discontinuity: Bool
    }

    /// The rules with no packing: a packet with payload advances its PID's counter by one, one
    /// without keeps it, one repeat is allowed, a discontinuity_indicator resets, the null PID
    /// is not checked; the edges record each PID's first and last counters.
    struct Model {
        var last: [UInt16: (counter: UInt8, duplicate: Bool)] = [:]
        var result = TransportStreamContinuity()

        mutating func consume(_ header: Header, index: Int) -> ContinuityError? {
            guard header.pid != TransportStreamPacket.nullPID else { return nil }
            var error: ContinuityError?
            var duplicate = false
            if let previous = last[header.pid] {
                if !header.discontinuity {
                    let expected = header.hasPayload ? (previous.counter + 1) & 0x0F : previous.counter
                    if header.counter != expected {
                        if header.hasPayload, header.counter == previous.counter, !previous.duplicate {
                            duplicate = true
                        } else {
                            error = ContinuityError(
                                pid: header.pid, packetIndex: index, expected: expected, found: header.counter)
                        }
                    }
                }
                let edge = result.edges.firstIndex { $0.pid == header.pid }!
                result.edges[edge].lastCounter = header.counter
            } else {
                result.edges.append(
                    TransportStreamContinuity.Edge(
                        pid: header.pid, firstCounter: header.counter, firstHasPayload: header.hasPayload,
                        firstSignalsDiscontinuity: header.discontinuity, lastCounter: header.counter))
            }
            last[header.pid] = (header.counter, duplicate)
            if let error {
                result.errorCount += 1
                if result.errors.count < TransportStreamContinuity.keptErrors { result.errors.append(error) }
            }
            return error
        }
    }

    /// `count` headers on `pids`, mostly well-behaved, from a fixed seed.
    static func headers(
        count: Int, seed: UInt64, pids: [UInt16] = [0, 0x100, 0x101, 0x102, 0x1FFF, 0x1FFE]
    ) -> [Header] {
        var state = seed
        func next(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        var counters = [UInt16: UInt8]()
        return (0..<count).map { _ in
            let pid = pids[Int(next(UInt64(pids.count)))]
            let hasPayload = next(10) != 0
            var counter = counters[pid].map { hasPayload ? ($0 + 1) & 0x0F : $0 } ?? UInt8(next(16))
            switch next(40) {
            case 0: counter = (counter + UInt8(next(15)) + 1) & 0x0F  // a gap
            case 1: counter = counters[pid] ?? counter  // a repeat
            default: break
            }
            counters[pid] = counter
            return Header(pid: pid, counter: counter, hasPayload: hasPayload, discontinuity: next(60) == 0)
        }
    }

    @Test("judges as the plain model", arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func judgesAsThePlainModel(seed: UInt64) {
        var tracker = ContinuityTracker()
        var model = Model()
        for (index, header) in Self.headers(count: 20_000, seed: seed).enumerated() {
            let found = tracker.consume(
                pid: header.pid, continuityCounter: header.counter, hasPayload: header.hasPayload,
                discontinuity: header.discontinuity, packetIndex: index)
            #expect(found == model.consume(header, index: index), "packet \(index)")
        }
        #expect(tracker.continuity == model.result)
        #expect(model.result.errorCount > TransportStreamContinuity.keptErrors, "the run has gaps to find")
        #expect(model.result.edges.count == 5, "every PID but the null one has an edge")
    }

    /// A segment with more PIDs than the tracker looks along (it then keeps a table): judged
    /// the same, its edges in order of first appearance.
    @Test("judges as the plain model with many PIDs", arguments: [7, 99] as [UInt64])
    func judgesAsThePlainModelWithManyPIDs(seed: UInt64) {
        let pids = (0..<40).map { UInt16(0x40 + $0 * 37) } + [0x1FFF]
        var tracker = ContinuityTracker()
        var model = Model()
        for (index, header) in Self.headers(count: 20_000, seed: seed, pids: pids).enumerated() {
            let found = tracker.consume(
                pid: header.pid, continuityCounter: header.counter, hasPayload: header.hasPayload,
                discontinuity: header.discontinuity, packetIndex: index)
            #expect(found == model.consume(header, index: index), "packet \(index)")
        }
        #expect(tracker.continuity == model.result)
        #expect(model.result.edges.count == 40, "every PID but the null one has an edge")
    }
}
