internal import MediaFormats

/// A transport stream segment split into its 188-byte packets (ISO/IEC 13818-1 §2.4.3.2), with
/// the lookups the poster writer needs. Construction refuses what cannot be rewritten safely.
struct ParsedTransportStream {
    /// What the writer needs of one packet's header. It holds no slice of the segment, so the
    /// walks over every packet that the lookups below make copy no reference and count none.
    struct Packet {
        var pid: UInt16
        var payloadUnitStart: Bool
        var hasPayload: Bool
        /// Where the payload starts in the segment (the packet's end when there is none).
        var payloadStart: Int
    }

    let bytes: [UInt8]
    let packets: [Packet]

    init(_ bytes: [UInt8]) throws(PackagingError) {
        let size = TransportStreamPacket.size
        guard !bytes.isEmpty, bytes.count % size == 0 else {
            throw PackagingError(
                .misalignedTransportStream,
                "the segment is \(bytes.count) bytes, not a whole number of 188-byte transport stream packets: it is truncated or not MPEG-TS"
            )
        }
        let sync = TransportStreamPacket.syncByte
        var packets: [Packet] = []
        packets.reserveCapacity(bytes.count / size)
        for offset in stride(from: 0, to: bytes.count, by: size) {
            // The header read in place (this runs for every packet of every segment): the checks
            // and fields of `TransportStreamPacket.init(_:)`, without a slice of the segment.
            let b1 = bytes[offset + 1], b3 = bytes[offset + 3]
            let pid = UInt16(b1 & 0x1F) << 8 | UInt16(bytes[offset + 2])
            let hasAdaptationField = b3 & 0x20 != 0, hasPayload = b3 & 0x10 != 0
            let headerSize = hasAdaptationField ? 5 + Int(bytes[offset + 4]) : 4
            guard bytes[offset] == sync, headerSize <= size else {
                throw PackagingError(
                    .misalignedTransportStream,
                    "packet \(offset / size) (byte \(offset)) does not start with the sync byte 0x47 or has an impossible adaptation field: the segment is damaged or not MPEG-TS"
                )
            }
            let scramblingControl = b3 >> 6
            if scramblingControl != 0 {
                throw PackagingError(
                    .encrypted,
                    "packet \(offset / size) on PID 0x\(hexPID(pid)) is scrambled (transport_scrambling_control \(scramblingControl)): encrypted segments cannot be rewritten; embed the poster before encryption"
                )
            }
            if b1 & 0x80 != 0 {
                throw PackagingError(
                    .misalignedTransportStream,
                    "packet \(offset / size) on PID 0x\(hexPID(pid)) has transport_error_indicator set: the segment is damaged"
                )
            }
            packets.append(
                Packet(
                    pid: pid, payloadUnitStart: b1 & 0x40 != 0, hasPayload: hasPayload,
                    payloadStart: offset + (hasPayload ? headerSize : size)))
        }
        self.bytes = bytes
        self.packets = packets
    }

    var packetCount: Int { packets.count }

    func packet(_ index: Int) -> ArraySlice<UInt8> {
        let size = TransportStreamPacket.size
        return bytes[(index * size)..<((index + 1) * size)]
    }

    /// The payload of packet `index` (empty when it has none).
    func payload(_ index: Int) -> ArraySlice<UInt8> {
        bytes[packets[index].payloadStart..<((index + 1) * TransportStreamPacket.size)]
    }

    /// Whether any packet is on `pid`.
    func uses(_ pid: UInt16) -> Bool {
        packets.contains { $0.pid == pid }
    }

    // MARK: Sections (§2.4.4)

    /// One complete PSI section and the packets that carry it.
    struct SectionOccurrence {
        var packetIndices: [Int]
        var section: [UInt8]
    }

    /// The complete sections on `pid` in packet order, at most `limit` of them.
    func sectionOccurrences(pid: UInt16, limit: Int = .max) -> [SectionOccurrence] {
        var found: [SectionOccurrence] = []
        // The section being gathered, if any: its packets and its bytes so far.
        var gathering = false
        var indices: [Int] = []
        var data: [UInt8] = []
        for index in packets.indices where packets[index].pid == pid && packets[index].hasPayload {
            let payload = payload(index)
            if packets[index].payloadUnitStart {
                guard let pointer = payload.first, 1 + Int(pointer) < payload.count else {
                    gathering = false
                    continue
                }
                gathering = true
                indices = [index]
                data = Array(payload.dropFirst(1 + Int(pointer)))
            } else if gathering {
                indices.append(index)
                data.append(contentsOf: payload)
            } else {
                continue
            }
            guard data.count >= 3 else { continue }
            if data[0] == 0xFF {  // only stuffing follows
                gathering = false
                continue
            }
            let length = 3 + (Int(data[1] & 0x0F) << 8 | Int(data[2]))
            if data.count >= length {
                found.append(SectionOccurrence(packetIndices: indices, section: Array(data.prefix(length))))
                gathering = false
                if found.count == limit { break }
            } else if data.count > 4096 {
                gathering = false
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
    /// `packets` holds the new packets one after another, in the order of the occurrence's
    /// `packetIndices`; `extra` the added ones, likewise.
    func rewritingSection(_ occurrence: SectionOccurrence, with section: [UInt8]) throws(PackagingError)
        -> (packets: [UInt8], extra: [UInt8])
    {
        let size = TransportStreamPacket.size
        let indices = occurrence.packetIndices
        let firstPayload = payload(indices[0])
        let pointer = Int(firstPayload[firstPayload.startIndex])
        // Bytes after the old section must be stuffing; another section there would be lost.
        var sectionLeft = 1 + pointer + occurrence.section.count  // up to the old section's end
        var carriedCount = 0
        for index in indices {
            let carried = payload(index)
            carriedCount += carried.count
            let skipped = min(sectionLeft, carried.count)
            sectionLeft -= skipped
            guard carried.dropFirst(skipped).allSatisfy({ $0 == 0xFF }) else {
                throw PackagingError(
                    .layoutNotSupported,
                    "the PMT shares its packet with another section; this layout is not supported — re-mux the segment")
            }
        }
        // The new payload: the pointer_field and the bytes it skips, then the section.
        let head = firstPayload.prefix(1 + pointer)
        let needed = head.count + section.count
        var headers = indices.map { bytes[($0 * size)..<packets[$0].payloadStart] }
        if needed > carriedCount {
            headers = headers.map { Self.withoutAdaptationStuffing(Array($0)).map { $0[...] } ?? $0 }
        }
        let capacity = headers.reduce(0) { $0 + size - $1.count }
        // A PMT section is at most 1021 bytes (§2.4.4.8): a few packets at most.
        let extraCount = (max(0, needed - capacity) + 183) / 184
        // 0xFF stuffing after the section up to the end of the last packet (§2.4.4.2).
        var payload = [UInt8](repeating: 0xFF, count: capacity + extraCount * 184)
        payload.replaceSubrange(0..<head.count, with: head)
        payload.replaceSubrange(head.count..<needed, with: section)
        var rewritten: [UInt8] = []
        rewritten.reserveCapacity(indices.count * size)
        var consumed = 0
        for header in headers {
            rewritten += header
            rewritten += payload[consumed..<(consumed + size - header.count)]
            consumed += size - header.count
        }
        let pid = packets[indices[0]].pid
        var extra: [UInt8] = []
        extra.reserveCapacity(extraCount * size)
        for number in 0..<extraCount {
            // payload_unit_start_indicator 0: the section continues; payload only.
            extra += [TransportStreamPacket.syncByte, UInt8(pid >> 8) & 0x1F, UInt8(pid & 0xFF), 0x10]
            extra += payload[(consumed + number * 184)..<(consumed + (number + 1) * 184)]
        }
        return (rewritten, extra)
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
        /// Every complete PMT section of the segment, in packet order (`pmt` is the first).
        var pmtOccurrences: [SectionOccurrence]
    }

    /// Stream types of audio HLS carries in TS (table 2-34; ATSC A/52 for AC-3 0x81, E-AC-3 0x87).
    static let audioStreamTypes: [UInt8] = [0x03, 0x04, 0x0F, 0x11, 0x81, 0x87]
    /// Apple's SAMPLE-AES stream types ("MPEG-2 Stream Encryption Format for HTTP Live Streaming"):
    /// H.264 0xDB, AAC 0xCF, AC-3 0xC1, E-AC-3 0xC2.
    static let sampleAESStreamTypes: [UInt8] = [0xDB, 0xCF, 0xC1, 0xC2]

    /// The first program (lowest number) with an audio stream.
    func audioProgram() throws(PackagingError) -> AudioProgram {
        guard let patSection = sectionOccurrences(pid: 0, limit: 1).first?.section,
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
            let occurrences = sectionOccurrences(pid: pmtPID)
            guard let section = occurrences.first?.section, let pmt = ProgramMapSection(section[...])
            else { continue }
            sawPMT = true
            if let encrypted = pmt.streams.first(where: { Self.sampleAESStreamTypes.contains($0.streamType) }) {
                throw PackagingError(
                    .encrypted,
                    "stream 0x\(hexPID(encrypted.pid)) has SAMPLE-AES stream_type 0x\(String(encrypted.streamType, radix: 16)): encrypted segments cannot be rewritten; embed the poster before encryption"
                )
            }
            if let audio = pmt.streams.first(where: { Self.isAudio($0) }) {
                return AudioProgram(
                    programNumber: number, pmtPID: pmtPID, pmt: pmt, audioPID: audio.pid, pmtOccurrences: occurrences)
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
        var used = [Bool](repeating: false, count: Int(TransportStreamPacket.nullPID) + 1)
        for packet in packets { used[Int(packet.pid)] = true }
        for candidate in Array(start...highest) + Array(lowest..<start) where !used[candidate] {
            return UInt16(candidate)
        }
        throw PackagingError(.pidConflict, "no free PID left for the timed-ID3 stream")
    }

    /// PTS of the first PES packet that starts on `pid`.
    func firstPTS(pid: UInt16) -> Int64? {
        guard let index = packets.firstIndex(where: { $0.pid == pid && $0.payloadUnitStart }) else { return nil }
        return PESPacket(payload(index))?.pts90k
    }

    static func missingPTS(audioPID: UInt16) -> PackagingError {
        PackagingError(
            .missingAudio,
            "the audio stream (PID 0x\(hexPID(audioPID))) has no PES packet with a PTS in this segment, so the poster cannot be timed; the segment is cut or damaged"
        )
    }

    // MARK: PES (§2.4.3.6)

    /// The PES packets on `pid` in packet order; every packet on it belongs to one, the first
    /// one maybe without its start (it began in the previous segment).
    func pesUnits(pid: UInt16) -> [PESUnit] {
        var units: [PESUnit] = []
        for index in packets.indices where packets[index].pid == pid {
            let packet = packets[index]
            if packet.payloadUnitStart || units.isEmpty {
                units.append(
                    PESUnit(packetIndices: [index], data: Array(payload(index)), hasStart: packet.payloadUnitStart))
            } else {
                units[units.count - 1].packetIndices.append(index)
                units[units.count - 1].data.append(contentsOf: payload(index))
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
