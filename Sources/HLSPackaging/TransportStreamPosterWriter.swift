internal import MediaFormats

/// Embeds the poster into MPEG-TS segments as timed ID3 (Apple "Timed Metadata for HTTP Live
/// Streaming"): a PES stream of stream_type 0x15 (metadata in PES, ISO/IEC 13818-1 table 2-34)
/// with stream_id 0xBD (private_stream_1), declared in the PMT with a metadata_descriptor
/// (§2.6.60, format identifier 'ID3 ') and announced in program_info by a
/// metadata_pointer_descriptor (§2.6.58).
///
/// The rewrite is surgical, not a remux: every packet that is not PMT or timed ID3 keeps its
/// bytes and its place. PMT packets are rewritten in place (same count, same continuity
/// counters); the ID3 PES goes right after the first PMT, with the PTS of the first audio PES
/// so that the player shows the poster from the segment's first sample.
///
/// Use one writer per variant and feed it the segments in playlist order: it keeps the timed-ID3
/// PID and its continuity_counter (§2.4.3.3) running across segments, as one muxer would.
package struct TransportStreamPosterWriter: Sendable {
    /// The PID of the timed-ID3 stream, chosen at the first segment and kept for the variant.
    package private(set) var metadataPID: UInt16?
    private var nextContinuityCounter: UInt8 = 0
    /// How far this variant's PMT continuity counters are ahead of the originals: one for every
    /// packet added to carry a PMT that outgrew its packets, so they stay continuous across
    /// segments as well.
    private var pmtCounterShift: UInt8 = 0

    /// A writer for one variant, before its first segment.
    package init() {}

    /// `segment` with its APIC set to `poster`; `poster == nil` removes APIC frames (and the
    /// timed-ID3 stream, when it is the one this writer adds and nothing else remains in it).
    package mutating func rewrite(_ segment: [UInt8], poster: Poster?) throws(PackagingError) -> [UInt8] {
        let stream = try ParsedTransportStream(segment)
        let program = try stream.audioProgram()

        // The timed-ID3 stream: the one already declared, or a new one on an unused PID.
        let existing = program.pmt.streams.first { $0.carriesTimedID3 }
        let pid: UInt16
        if let existing {
            pid = existing.pid
        } else if poster == nil {
            // Nothing to remove (a final runt the poster leaves out, say); only the PMT counters
            // still move by the variant's shift, or they would jump back at this segment.
            guard pmtCounterShift != 0 else { return segment }
            var out = ByteWriter(capacity: segment.count)
            for index in 0..<stream.packetCount {
                if stream.packets[index].pid == program.pmtPID {
                    emitPMT(stream.packet(index), extra: [], into: &out)
                } else {
                    out.writeBytes(stream.packet(index))
                }
            }
            return out.bytes
        } else if let chosen = metadataPID {
            guard !stream.usedPIDs.contains(chosen) else {
                throw PackagingError(
                    .pidConflict,
                    "PID 0x\(hexPID(chosen)) carries timed ID3 in the earlier segments of this variant but is used by another stream in this one; the variant's segments do not share one program layout — re-mux them consistently"
                )
            }
            pid = chosen
        } else {
            pid = try stream.unusedPID(after: program.pmt.streams.map(\.pid).max() ?? 0x0FFF)
        }
        metadataPID = pid
        if pid == program.pmt.pcrPID {
            throw PackagingError(
                .layoutNotSupported,
                "the timed-ID3 PID 0x\(hexPID(pid)) is also the PCR PID; rewriting its packets would move clock references — re-mux the stream with a separate metadata PID"
            )
        }

        // Rewrite the ID3 PES packets already on the PID.
        let audioPTS = stream.firstPTS(pid: program.audioPID)
        var units = stream.pesUnits(pid: pid)
        var placed = false
        for index in units.indices {
            try units[index].applyPicture(poster, placed: &placed, pid: pid, fallbackPTS: audioPTS)
        }
        var inserted: [UInt8]? = nil
        if let poster, !placed {
            let tag = try ID3TagEditor.serializedTag([poster.frame])
            var counter: UInt8 = 0  // continuity counters are set when the packets are emitted
            guard let audioPTS else { throw ParsedTransportStream.missingPTS(audioPID: program.audioPID) }
            inserted = TransportStream.timedID3Packets(
                tag: tag, pts90k: audioPTS,
                pid: pid, continuityCounter: &counter)
        }

        // The PMT: declare the stream we add; undeclare it when we added it and it is now empty.
        let remainsEmpty = inserted == nil && units.allSatisfy { $0.replacement == [] }
        var pmtEdit: ((ProgramMapSection) -> ProgramMapSection)? = nil
        if existing == nil {
            pmtEdit = { Self.declaringTimedID3(pid: pid, in: $0) }
        } else if poster == nil, remainsEmpty, Self.isDeclaredByUs(pid: pid, in: program.pmt) {
            pmtEdit = { Self.undeclaringTimedID3(pid: pid, in: $0) }
        }
        var rewrittenPackets: [Int: ArraySlice<UInt8>] = [:]
        var extraPackets: [Int: [[UInt8]]] = [:]
        if let pmtEdit {
            for occurrence in stream.sectionOccurrences(pid: program.pmtPID) {
                guard let pmt = ProgramMapSection(occurrence.section[...]), pmt.programNumber == program.programNumber
                else {
                    throw PackagingError(
                        .missingProgramTables,
                        "a PMT on PID 0x\(hexPID(program.pmtPID)) cannot be read (bad CRC or length); the segment is damaged"
                    )
                }
                let rewritten = try stream.rewritingSection(occurrence, with: pmtEdit(pmt).serialized())
                for (index, packet) in rewritten.packets { rewrittenPackets[index] = packet }
                if !rewritten.extra.isEmpty, let last = occurrence.packetIndices.last {
                    extraPackets[last] = rewritten.extra
                }
            }
        }

        // Emit: everything in order; ID3 PES where they were, the new one after the first PMT.
        let insertAfter = stream.sectionOccurrences(pid: program.pmtPID).first?.packetIndices.last ?? 0
        var unitAtPacket: [Int: Int] = [:]
        var packetsInUnits: Set<Int> = []
        for (unitIndex, unit) in units.enumerated() {
            unitAtPacket[unit.packetIndices[0]] = unitIndex
            packetsInUnits.formUnion(unit.packetIndices)
        }
        var out = ByteWriter(capacity: segment.count + (inserted?.count ?? 0) + 188)
        for index in 0..<stream.packetCount {
            if let unitIndex = unitAtPacket[index] {
                let unit = units[unitIndex]
                if let replacement = unit.replacement {
                    emitID3(replacement[...], into: &out)
                } else {
                    for original in unit.packetIndices { emitID3(stream.packet(original), into: &out) }
                }
            } else if !packetsInUnits.contains(index) {
                let packet = rewrittenPackets[index] ?? stream.packet(index)
                if stream.packets[index].pid == program.pmtPID {
                    emitPMT(packet, extra: extraPackets[index] ?? [], into: &out)
                } else {
                    out.writeBytes(packet)
                }
            }
            if index == insertAfter, let inserted {
                emitID3(inserted[...], into: &out)
            }
        }
        return out.bytes
    }

    /// Writes a PMT packet with its continuity_counter moved by the variant's shift, then the
    /// packets added to carry the rest of a grown section, each one counter further.
    private mutating func emitPMT(_ packet: ArraySlice<UInt8>, extra: [[UInt8]], into out: inout ByteWriter) {
        var bytes = Array(packet)
        let counter = (bytes[3] &+ pmtCounterShift) & 0x0F
        bytes[3] = (bytes[3] & 0xF0) | counter
        out.writeBytes(bytes)
        for (number, added) in extra.enumerated() {
            var added = added
            added[3] = (added[3] & 0xF0) | ((counter &+ UInt8(number + 1)) & 0x0F)
            out.writeBytes(added)
        }
        pmtCounterShift = (pmtCounterShift &+ UInt8(extra.count)) & 0x0F
    }

    /// Writes timed-ID3 packets with this variant's running continuity_counter: it advances for
    /// each packet with payload and repeats for one without (§2.4.3.3).
    private mutating func emitID3(_ packets: ArraySlice<UInt8>, into out: inout ByteWriter) {
        var start = packets.startIndex
        while start + TransportStreamPacket.size <= packets.endIndex {
            var packet = Array(packets[start..<(start + TransportStreamPacket.size)])
            let hasPayload = packet[3] & 0x10 != 0
            let counter = hasPayload ? nextContinuityCounter : (nextContinuityCounter &+ 15) & 0x0F
            packet[3] = (packet[3] & 0xF0) | counter
            if hasPayload { nextContinuityCounter = (nextContinuityCounter + 1) & 0x0F }
            out.writeBytes(packet)
            start += TransportStreamPacket.size
        }
    }

    // MARK: PMT edits

    static func declaringTimedID3(pid: UInt16, in pmt: ProgramMapSection) -> ProgramMapSection {
        var pmt = pmt
        pmt.streams.append(ElementaryStreamInfo(streamType: 0x15, pid: pid, descriptors: TimedID3Descriptors.metadata))
        let hasPointer = Descriptor.list(pmt.programInfo).contains { $0.tag == 0x25 }
        if !hasPointer { pmt.programInfo += TimedID3Descriptors.metadataPointer(programNumber: pmt.programNumber) }
        return pmt
    }

    static func undeclaringTimedID3(pid: UInt16, in pmt: ProgramMapSection) -> ProgramMapSection {
        var pmt = pmt
        pmt.streams.removeAll { $0.pid == pid }
        let pointer = TimedID3Descriptors.metadataPointer(programNumber: pmt.programNumber)
        pmt.programInfo = Descriptor.list(pmt.programInfo).filter { $0.bytes != pointer }.flatMap(\.bytes)
        return pmt
    }

    /// The stream looks exactly like the one `declaringTimedID3` adds: last in the loop,
    /// stream_type 0x15, only our metadata_descriptor, and our pointer in program_info. Another
    /// packager's identical, empty declaration would be removed too, which loses nothing: an
    /// elementary stream without packets carries no metadata.
    static func isDeclaredByUs(pid: UInt16, in pmt: ProgramMapSection) -> Bool {
        guard let last = pmt.streams.last, last.pid == pid, last.streamType == 0x15,
            last.descriptors == TimedID3Descriptors.metadata
        else { return false }
        let pointer = TimedID3Descriptors.metadataPointer(programNumber: pmt.programNumber)
        return Descriptor.list(pmt.programInfo).contains { $0.bytes == pointer }
    }
}

/// One descriptor of a descriptor loop (ISO/IEC 13818-1 §2.6, table 2-45): tag, length, body.
struct Descriptor {
    var tag: UInt8
    var bytes: [UInt8]

    static func list(_ loop: [UInt8]) -> [Descriptor] {
        var reader = ByteReader(loop)
        var result: [Descriptor] = []
        while let tag = reader.readUInt8(), let length = reader.readUInt8(), let body = reader.readBytes(Int(length)) {
            result.append(Descriptor(tag: tag, bytes: [tag, length] + body))
        }
        return result
    }
}

/// A PID as four upper-case hex digits, the way analysers print them (0x0101).
func hexPID(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
