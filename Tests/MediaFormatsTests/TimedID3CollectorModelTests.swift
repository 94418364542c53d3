import Testing
@testable import MediaFormats

/// TimedID3Collector keeps what it knows of each PID in slots found by index (it runs for the
/// table and timed-ID3 packets of every segment a check or embed scans). It must find exactly
/// what the same reading written plainly, with sets and dictionaries keyed by PID, finds: checked
/// here over deterministic pseudo-random streams in which PATs name changing sets of PMTs (more
/// of them than the collector looks along), PMTs name timed-ID3 PIDs, PES packets of several PIDs
/// interleave, some are unbounded or over the limit, and junk and damaged packets fall between.
@Suite("Timed-ID3 collector against a plain model")
struct TimedID3CollectorModelTests {
    /// The collector's reading with no slots: the PMT PIDs the latest PAT names, the timed-ID3
    /// PIDs the PMTs name, and each PID's section or PES being gathered, all keyed by PID.
    struct Model {
        let maximumTagBytes: Int
        var pmtPIDs: Set<UInt16> = []
        var id3PIDs: Set<UInt16> = []
        var sections: [UInt16: [UInt8]] = [:]
        var pending: [UInt16: (offset: Int, bytes: [UInt8])] = [:]
        var found: [FoundID3Tag] = []

        func wantsPayload(of pid: UInt16) -> Bool { pid == 0 || pmtPIDs.contains(pid) || id3PIDs.contains(pid) }

        mutating func handleSection(_ section: [UInt8], pid: UInt16) {
            if pid == 0, let pat = ProgramAssociationSection(section[...]) {
                pmtPIDs = Set(pat.programs.values)
            } else if pmtPIDs.contains(pid), let pmt = ProgramMapSection(section[...]) {
                for stream in pmt.streams where stream.carriesTimedID3 { id3PIDs.insert(stream.pid) }
            }
        }

        mutating func completeSectionIfReady(pid: UInt16) {
            guard let buffer = sections[pid], buffer.count >= 3 else { return }
            if buffer[0] == 0xFF {
                sections[pid] = nil
                return
            }
            let length = 3 + (Int(buffer[1] & 0x0F) << 8 | Int(buffer[2]))
            guard buffer.count >= length else { return }
            handleSection(Array(buffer.prefix(length)), pid: pid)
            sections[pid] = nil
        }

        mutating func flush(pid: UInt16) {
            guard let (offset, data) = pending.removeValue(forKey: pid) else { return }
            found.append(contentsOf: TimedID3Collector.tagsInPES(data, offset: offset))
        }

        mutating func consume(_ packet: TransportStreamPacket, at offset: Int) {
            guard !packet.transportError, packet.scramblingControl == 0, packet.hasPayload else { return }
            let pid = packet.pid
            if pid == 0 || pmtPIDs.contains(pid) {
                var payload = packet.payload
                if packet.payloadUnitStart {
                    guard let pointer = payload.first, Int(pointer) < payload.count else { return }
                    let tail = payload.dropFirst()
                    if sections[pid] != nil {
                        sections[pid]?.append(contentsOf: tail.prefix(Int(pointer)))
                        completeSectionIfReady(pid: pid)
                    }
                    sections[pid] = []
                    payload = tail.dropFirst(Int(pointer))
                }
                guard sections[pid] != nil else { return }
                sections[pid]?.append(contentsOf: payload)
                if (sections[pid]?.count ?? 0) > 4096 {
                    sections[pid] = nil
                    return
                }
                completeSectionIfReady(pid: pid)
            } else if id3PIDs.contains(pid) {
                if packet.payloadUnitStart {
                    flush(pid: pid)
                    pending[pid] = (offset, Array(packet.payload))
                } else if pending[pid] != nil {
                    pending[pid]?.bytes.append(contentsOf: packet.payload)
                } else {
                    return
                }
                guard let current = pending[pid] else { return }
                if current.bytes.count > maximumTagBytes {
                    pending[pid] = nil
                    found.append(
                        FoundID3Tag(
                            offset: current.offset,
                            error:
                                "timed-ID3 PES packet is over the limit of \(maximumTagBytes) bytes; not read (raise it with --max-id3-bytes)"
                        ))
                } else if current.bytes.count >= 6 {
                    let declared = Int(current.bytes[4]) << 8 | Int(current.bytes[5])
                    if declared != 0, current.bytes.count >= 6 + declared { flush(pid: pid) }
                }
            }
        }

        mutating func finish() -> [FoundID3Tag] {
            for pid in pending.keys.sorted() { flush(pid: pid) }
            return found.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(
                \.element)
        }
    }

    /// A fixed-seed generator (a 64-bit LCG, as ContinuityTrackerModelTests).
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// About `count` packets: tables, timed-ID3 PES packets on many PIDs interleaved, junk.
    static func stream(seed: UInt64, count: Int) -> [UInt8] {
        var random = Random(state: seed)
        // 24 PMT PIDs and 24 timed-ID3 PIDs: more than the collector looks along; a few PIDs
        // play both parts, and PID 0 is named as a PMT and as a timed-ID3 PID now and then.
        let pmtPIDs: [UInt16] = (0..<24).map { UInt16(0x30 + $0 * 3) } + [0]
        let id3PIDs: [UInt16] = (0..<24).map { UInt16(0x400 + $0 * 5) } + [0x33, 0x36, 0]
        var counter: UInt8 = 0
        var queues: [[[UInt8]]] = []
        var out: [UInt8] = []
        func packets(_ bytes: [UInt8]) -> [[UInt8]] {
            stride(from: 0, to: bytes.count, by: 188).map { Array(bytes[$0..<($0 + 188)]) }
        }
        while out.count < count * 188 {
            if !queues.isEmpty, random.next(3) != 0 {
                // The next packet of one of the PES packets and sections under way.
                let queue = random.next(queues.count)
                var packet = queues[queue].removeFirst()
                if queues[queue].isEmpty { queues.remove(at: queue) }
                switch random.next(40) {
                case 0: packet[4 + random.next(184)] ^= UInt8(1 + random.next(255))  // damage
                case 1: packet[1] |= 0x80  // transport_error_indicator
                case 2: packet[3] |= 0x40  // scrambled
                default: break
                }
                out += packet
                continue
            }
            switch random.next(12) {
            case 0:
                let programs = (0..<(1 + random.next(20))).map {
                    (programNumber: UInt16($0 + 1), pmtPID: pmtPIDs[random.next(pmtPIDs.count)])
                }
                queues.append(
                    packets(
                        PSISection.packets(
                            section: ProgramAssociationSection.serialized(programs: programs), pid: 0,
                            continuityCounter: &counter)))
            case 1, 2:
                let streams = (0..<(1 + random.next(4))).map { _ in
                    ElementaryStreamInfo(
                        streamType: random.next(4) == 0 ? 0x0F : 0x15, pid: id3PIDs[random.next(id3PIDs.count)])
                }
                let section = ProgramMapSection(pcrPID: 0x101, streams: streams).serialized()
                queues.append(
                    packets(
                        PSISection.packets(
                            section: section, pid: pmtPIDs[random.next(pmtPIDs.count)], continuityCounter: &counter)))
            case 3, 4, 5, 6:
                let text = String(repeating: "x", count: random.next(900))
                let tag = ID3Tag(frames: [.text(id: "TIT2", value: text)]).serialized()
                var pes = PESPacket.build(streamID: 0xBD, pts90k: Int64(random.next(1 << 30)), payload: tag)
                if random.next(4) == 0 { (pes[4], pes[5]) = (0, 0) }  // unbounded
                if random.next(8) == 0 { pes += tag }  // a second tag after the first
                queues.append(
                    packets(
                        TransportStream.packetize(
                            pes: pes, pid: id3PIDs[random.next(id3PIDs.count)], continuityCounter: &counter)))
            case 7:
                // Junk on any PID: payload start or not, with or without an adaptation field.
                let pid = (pmtPIDs + id3PIDs + [0x101])[random.next(pmtPIDs.count + id3PIDs.count + 1)]
                var packet: [UInt8] = [
                    0x47, UInt8(random.next(2) << 6) | UInt8(pid >> 8), UInt8(pid & 0xFF),
                    UInt8(0x10 | random.next(4) << 4),
                ]
                packet += (0..<184).map { _ in UInt8(random.next(256)) }
                out += packet
            default:
                out += TransportStream.packetize(
                    pes: [UInt8](repeating: 0x21, count: 184), pid: 0x101, continuityCounter: &counter)
            }
        }
        return out
    }

    @Test(
        "finds what the plain model finds",
        arguments: [(1, 2000), (2, 2000), (3, 700), (42, 10_000), (2026, 2000)] as [(UInt64, Int)])
    func findsWhatThePlainModelFinds(seed: UInt64, maximumTagBytes: Int) {
        let bytes = Self.stream(seed: seed, count: 6000)
        var model = Model(maximumTagBytes: maximumTagBytes)
        var collector = TimedID3Collector(maximumTagBytes: maximumTagBytes)
        var inPlace = TimedID3Collector(maximumTagBytes: maximumTagBytes)
        var disagreements = 0
        bytes.withUnsafeBytes { raw in
            TransportStream.forEachPacket(in: ByteCursor(InMemoryBytes(bytes))) { offset, _, packet in
                if collector.wantsPayload(of: packet.pid) != model.wantsPayload(of: packet.pid) { disagreements += 1 }
                model.consume(packet, at: offset)
                collector.consume(packet, at: offset)
                inPlace.consume(packet: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + 188)]), at: offset)
            }
        }
        #expect(disagreements == 0, "the PIDs whose packets matter")
        let expected = model.finish()
        for (name, found) in [("packets", collector.finish()), ("packets read in place", inPlace.finish())] {
            // The first tag that differs, rather than thousands of them printed whole.
            let differing = zip(found, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(found.count == expected.count, "\(name)")
            #expect(differing == nil, "\(name): \(differing.map { "\(found[$0]) is not \(expected[$0])" } ?? "")")
        }
        #expect(expected.filter { $0.tag != nil }.count > 50, "the run finds tags")
        #expect(expected.contains { $0.error != nil }, "and damaged or oversized ones")
        #expect(model.pmtPIDs.count + model.id3PIDs.count > 16, "more PIDs than the collector looks along")
    }
}
