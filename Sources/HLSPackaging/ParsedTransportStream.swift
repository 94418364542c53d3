internal import MediaFormats

/// A transport stream segment split into its 188-byte packets (ISO/IEC 13818-1 §2.4.3.2), with
/// the lookups the poster writer needs. Construction refuses what cannot be rewritten safely.
struct ParsedTransportStream {
    let bytes: [UInt8]
    let packets: [TransportStreamPacket]
    let usedPIDs: Set<UInt16>

    init(_ bytes: [UInt8]) throws(PackagingError) {
        let size = TransportStreamPacket.size
        guard !bytes.isEmpty, bytes.count % size == 0 else {
            throw PackagingError(
                .misalignedTransportStream,
                "the segment is \(bytes.count) bytes, not a whole number of 188-byte transport stream packets: it is truncated or not MPEG-TS"
            )
        }
        var packets: [TransportStreamPacket] = []
        packets.reserveCapacity(bytes.count / size)
        var pids: Set<UInt16> = []
        for offset in stride(from: 0, to: bytes.count, by: size) {
            guard let packet = TransportStreamPacket(bytes[offset..<(offset + size)]) else {
                throw PackagingError(
                    .misalignedTransportStream,
                    "packet \(offset / size) (byte \(offset)) does not start with the sync byte 0x47 or has an impossible adaptation field: the segment is damaged or not MPEG-TS"
                )
            }
            if packet.scramblingControl != 0 {
                throw PackagingError(
                    .encrypted,
                    "packet \(offset / size) on PID 0x\(hexPID(packet.pid)) is scrambled (transport_scrambling_control \(packet.scramblingControl)): encrypted segments cannot be rewritten; embed the poster before encryption"
                )
            }
            if packet.transportError {
                throw PackagingError(
                    .misalignedTransportStream,
                    "packet \(offset / size) on PID 0x\(hexPID(packet.pid)) has transport_error_indicator set: the segment is damaged"
                )
            }
            pids.insert(packet.pid)
            packets.append(packet)
        }
        self.bytes = bytes
        self.packets = packets
        self.usedPIDs = pids
    }

    var packetCount: Int { packets.count }

    func packet(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index * TransportStreamPacket.size)..<((index + 1) * TransportStreamPacket.size)]
    }

    // MARK: Sections (§2.4.4)

    /// One complete PSI section and the packets that carry it.
    struct SectionOccurrence {
        var packetIndices: [Int]
        var section: [UInt8]
    }

    func sectionOccurrences(pid: UInt16) -> [SectionOccurrence] {
        var found: [SectionOccurrence] = []
        var current: (indices: [Int], data: [UInt8])? = nil
        for (index, packet) in packets.enumerated() where packet.pid == pid && packet.hasPayload {
            if packet.payloadUnitStart {
                guard let pointer = packet.payload.first, 1 + Int(pointer) < packet.payload.count else {
                    current = nil; continue
                }
                current = ([index], Array(packet.payload.dropFirst(1 + Int(pointer))))
            } else if current != nil {
                current?.indices.append(index)
                current?.data.append(contentsOf: packet.payload)
            }
            guard let candidate = current, candidate.data.count >= 3 else { continue }
            if candidate.data[0] == 0xFF { current = nil; continue }  // only stuffing follows
            let length = 3 + (Int(candidate.data[1] & 0x0F) << 8 | Int(candidate.data[2]))
            if candidate.data.count >= length {
                found.append(
                    SectionOccurrence(packetIndices: candidate.indices, section: Array(candidate.data.prefix(length))))
                current = nil
            } else if candidate.data.count > 4096 {
                current = nil
            }
        }
        return found
    }

    /// The packets of `occurrence` with `section` in place of the old one: same headers,
    /// adaptation fields and continuity counters; the payload after the section is 0xFF
    /// stuffing (§2.4.4.2). When the new section does not fit, the adaptation-field stuffing
    /// of those packets is reclaimed first (GStreamer's mpegtsmux pads PSI packets that way,
    /// §2.4.3.5); what still does not fit goes into `extra` packets on the same PID, to follow
    /// the occurrence's last packet (their continuity counters are the caller's to set).
    func rewritingSection(_ occurrence: SectionOccurrence, with section: [UInt8]) throws(PackagingError)
        -> (packets: [(Int, ArraySlice<UInt8>)], extra: [[UInt8]])
    {
        let first = packets[occurrence.packetIndices[0]]
        let pointer = Int(first.payload[first.payload.startIndex])
        let carried = occurrence.packetIndices.map { packets[$0].payload }
        // Bytes after the old section must be stuffing; another section there would be lost.
        let used = 1 + pointer + occurrence.section.count
        let trailing = carried.flatMap { $0 }.dropFirst(used)
        guard trailing.allSatisfy({ $0 == 0xFF }) else {
            throw PackagingError(
                .layoutNotSupported,
                "the PMT shares its packet with another section; this layout is not supported — re-mux the segment")
        }
        var payload = Array(first.payload.prefix(1 + pointer)) + section
        var headers = occurrence.packetIndices.map { index in
            Array(packet(index).prefix(TransportStreamPacket.size - packets[index].payload.count))
        }
        if payload.count > carried.reduce(0, { $0 + $1.count }) {
            headers = headers.map { Self.withoutAdaptationStuffing($0) ?? $0 }
        }
        let capacities = headers.map { TransportStreamPacket.size - $0.count }
        let capacity = capacities.reduce(0, +)
        // A PMT section is at most 1021 bytes (§2.4.4.8): a few packets at most.
        let overflow = max(0, payload.count - capacity)
        let extraCount = (overflow + 183) / 184
        payload += repeatElement(0xFF, count: capacity + extraCount * 184 - payload.count)
        var result: [(Int, ArraySlice<UInt8>)] = []
        var consumed = 0
        for (index, (header, room)) in zip(occurrence.packetIndices, zip(headers, capacities)) {
            result.append((index, (header + payload[consumed..<(consumed + room)])[...]))
            consumed += room
        }
        let pid = packets[occurrence.packetIndices[0]].pid
        let extra = (0..<extraCount).map { number -> [UInt8] in
            // payload_unit_start_indicator 0: the section continues; payload only.
            let header: [UInt8] = [TransportStreamPacket.syncByte, UInt8(pid >> 8) & 0x1F, UInt8(pid & 0xFF), 0x10]
            return header + payload[(consumed + number * 184)..<(consumed + (number + 1) * 184)]
        }
        return (result, extra)
    }

    /// A packet header (4 bytes + adaptation field) without its adaptation-field stuffing bytes
    /// (§2.4.3.5): the flags and optional fields stay; an adaptation field that carries nothing
    /// at all goes, leaving a payload-only packet. Nil when there is nothing to reclaim or the
    /// field does not parse.
    static func withoutAdaptationStuffing(_ header: [UInt8]) -> [UInt8]? {
        guard header.count >= 5, header[3] & 0x30 == 0x30 else { return nil }
        let length = Int(header[4])
        guard header.count == 5 + length else { return nil }
        var base = Array(header.prefix(4))
        guard length > 0 else {
            base[3] = base[3] & 0xCF | 0x10
            return base
        }
        let flags = header[5]
        var optional = 0
        if flags & 0x10 != 0 { optional += 6 }  // PCR
        if flags & 0x08 != 0 { optional += 6 }  // OPCR
        if flags & 0x04 != 0 { optional += 1 }  // splice_countdown
        if flags & 0x02 != 0 {  // transport_private_data
            guard 6 + optional < header.count else { return nil }
            optional += 1 + Int(header[6 + optional])
        }
        if flags & 0x01 != 0 {  // adaptation_field_extension
            guard 6 + optional < header.count else { return nil }
            optional += 1 + Int(header[6 + optional])
        }
        let kept = 1 + optional
        guard kept <= length, kept < length || flags == 0 else { return nil }
        if flags == 0 {
            base[3] = base[3] & 0xCF | 0x10
            return base
        }
        return base + [UInt8(kept)] + header[5..<(5 + kept)]
    }

    // MARK: Program (PAT §2.4.4.3, PMT §2.4.4.8)

    struct AudioProgram {
        var programNumber: UInt16
        var pmtPID: UInt16
        var pmt: ProgramMapSection
        var audioPID: UInt16
    }

    /// Stream types of audio HLS carries in TS (table 2-34; ATSC A/52 for AC-3 0x81, E-AC-3 0x87).
    static let audioStreamTypes: Set<UInt8> = [0x03, 0x04, 0x0F, 0x11, 0x81, 0x87]
    /// Apple's SAMPLE-AES stream types ("MPEG-2 Stream Encryption Format for HTTP Live Streaming"):
    /// H.264 0xDB, AAC 0xCF, AC-3 0xC1, E-AC-3 0xC2.
    static let sampleAESStreamTypes: Set<UInt8> = [0xDB, 0xCF, 0xC1, 0xC2]

    /// The first program (lowest number) with an audio stream.
    func audioProgram() throws(PackagingError) -> AudioProgram {
        guard let patSection = sectionOccurrences(pid: 0).first?.section,
            let pat = ProgramAssociationSection(patSection[...])
        else {
            throw PackagingError(
                .missingProgramTables,
                "no readable PAT (PID 0) in the segment: RFC 8216 §3.2 requires a PAT and a PMT in every TS segment that has no EXT-X-MAP; it is damaged, encrypted as a whole, or not MPEG-TS — or its tables are in an EXT-X-MAP init section, which embed does not rewrite"
            )
        }
        guard !pat.programs.isEmpty else {
            throw PackagingError(.missingProgramTables, "the PAT lists no program")
        }
        var sawPMT = false
        for (number, pmtPID) in pat.programs.sorted(by: { $0.key < $1.key }) {
            guard let section = sectionOccurrences(pid: pmtPID).first?.section,
                let pmt = ProgramMapSection(section[...])
            else { continue }
            sawPMT = true
            if let encrypted = pmt.streams.first(where: { Self.sampleAESStreamTypes.contains($0.streamType) }) {
                throw PackagingError(
                    .encrypted,
                    "stream 0x\(hexPID(encrypted.pid)) has SAMPLE-AES stream_type 0x\(String(encrypted.streamType, radix: 16)): encrypted segments cannot be rewritten; embed the poster before encryption"
                )
            }
            if let audio = pmt.streams.first(where: { Self.isAudio($0) }) {
                return AudioProgram(programNumber: number, pmtPID: pmtPID, pmt: pmt, audioPID: audio.pid)
            }
        }
        guard sawPMT else {
            throw PackagingError(
                .missingProgramTables,
                "no readable PMT for the program(s) the PAT lists (PID \(pat.programs.values.sorted().map { "0x" + hexPID($0) }.joined(separator: ", "))): the segment is damaged or cut"
            )
        }
        throw PackagingError(
            .missingAudio,
            "the PMT declares no audio stream (AAC, MP3, AC-3, E-AC-3): a poster belongs in audio segments")
    }

    static func isAudio(_ stream: ElementaryStreamInfo) -> Bool {
        if audioStreamTypes.contains(stream.streamType) { return true }
        // DVB PES private data: AC-3 (0x6A) or E-AC-3 (0x7A) descriptor (ETSI EN 300 468 Annex D).
        return stream.streamType == 0x06
            && Descriptor.list(stream.descriptors).contains { $0.tag == 0x6A || $0.tag == 0x7A }
    }

    /// The lowest PID above `floor` that no packet or table uses (0x0010–0x1FFE are free for
    /// elementary streams, §2.4.3.3 table 2-3; ATSC/DVB reserve the range below 0x0020 too).
    func unusedPID(after floor: UInt16) throws(PackagingError) -> UInt16 {
        let lowest = 0x0020, highest = 0x1FFE
        let start = min(max(lowest, Int(floor) + 1), highest)
        for candidate in Array(start...highest) + Array(lowest..<start) where !usedPIDs.contains(UInt16(candidate)) {
            return UInt16(candidate)
        }
        throw PackagingError(.pidConflict, "no free PID left for the timed-ID3 stream")
    }

    /// PTS of the first PES packet that starts on `pid`.
    func firstPTS(pid: UInt16) -> Int64? {
        for packet in packets where packet.pid == pid && packet.payloadUnitStart {
            return PESPacket(packet.payload)?.pts90k
        }
        return nil
    }

    static func missingPTS(audioPID: UInt16) -> PackagingError {
        PackagingError(
            .missingAudio,
            "the audio stream (PID 0x\(hexPID(audioPID))) has no PES packet with a PTS in this segment, so the poster cannot be timed; the segment is cut or damaged"
        )
    }

    // MARK: PES (§2.4.3.6)

    func pesUnits(pid: UInt16) -> [PESUnit] {
        var units: [PESUnit] = []
        for (index, packet) in packets.enumerated() where packet.pid == pid {
            if packet.payloadUnitStart || units.isEmpty {
                units.append(
                    PESUnit(packetIndices: [index], data: Array(packet.payload), hasStart: packet.payloadUnitStart))
            } else {
                units[units.count - 1].packetIndices.append(index)
                units[units.count - 1].data.append(contentsOf: packet.payload)
            }
        }
        return units
    }
}

/// The packets of one PES packet on the timed-ID3 PID, and what replaces them.
struct PESUnit {
    var packetIndices: [Int]
    var data: [UInt8]
    /// false for a PES packet that began in the previous segment (kept as is).
    var hasStart: Bool
    /// nil: keep the original packets; []: drop them; else the new packets.
    var replacement: [UInt8]? = nil

    /// Sets the APIC of the tags in this PES: the first APIC-carrying tag of the segment gets
    /// `poster`, every other loses its APIC. Tags without APIC are kept, and so is a PES the
    /// segment ends in the middle of (it continues in the next one).
    ///
    /// A tag that cannot be read (its size runs past the PES, a frame overruns it…) is damaged:
    /// it is replaced — by the poster when none is placed yet, else by nothing — rather than kept
    /// beside a second poster, which players would see as two pictures, or one they cannot show.
    mutating func applyPicture(_ poster: Poster?, placed: inout Bool, pid: UInt16, fallbackPTS: Int64?)
        throws(PackagingError)
    {
        guard hasStart, let pes = PESPacket(data[...]) else { return }
        if pes.packetLength > 0, 6 + pes.packetLength > data.count { return }  // continues in the next segment
        var payload = pes.payload
        var tags: [(bytes: ArraySlice<UInt8>, tag: ID3Tag)] = []
        var damaged = false
        while payload.count >= 3, payload.starts(with: [0x49, 0x44, 0x33]) {
            guard let (tag, count) = try? ID3Tag.parse(payload) else {
                damaged = true  // where it ends cannot be told: the rest of the PES goes with it
                payload = []
                break
            }
            tags.append((payload.prefix(count), tag))
            payload = payload.dropFirst(count)
        }
        guard damaged || tags.contains(where: { ID3TagEditor.containsPicture($0.tag) }) else { return }
        var newPayload: [UInt8] = []
        for (bytes, tag) in tags {
            guard ID3TagEditor.containsPicture(tag) else { newPayload += bytes; continue }
            let picture = placed ? nil : poster?.frame
            if poster != nil { placed = true }
            if let edited = try ID3TagEditor.apply(.init(picture: picture, appendPictureIfAbsent: false), to: bytes) {
                newPayload += edited
            }
        }
        if damaged, let poster, !placed {
            newPayload += try ID3TagEditor.serializedTag([poster.frame])
            placed = true
        }
        newPayload += payload  // anything after the tags stays
        // Only pictures the poster does not replace (a back cover, say): the PES keeps its packets.
        if !damaged, newPayload.elementsEqual(pes.payload) { return }
        guard !newPayload.isEmpty else {
            replacement = []
            return
        }
        guard let pts = pes.pts90k ?? fallbackPTS else { throw ParsedTransportStream.missingPTS(audioPID: pid) }
        var counter: UInt8 = 0
        replacement = TransportStream.packetize(
            pes: PESPacket.build(streamID: pes.streamID, pts90k: pts, payload: newPayload),
            pid: pid, continuityCounter: &counter)
    }
}
