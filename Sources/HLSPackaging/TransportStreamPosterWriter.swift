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
    /// The poster last embedded and its ID3 tag: a variant gets the same poster in every
    /// segment, and its tag is the same bytes each time.
    private var posterTag: (poster: Poster, tag: [UInt8])?
    /// The PMT section last changed, how, for which program, and what it became.
    private var lastPMTChange: (section: [UInt8], change: PMTChange, programNumber: UInt16, changed: [UInt8])?

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
            return emit(stream, Edit(pmtPID: program.pmtPID))
        } else if let chosen = metadataPID {
            guard !stream.uses(chosen) else {
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
        var edit = Edit(pmtPID: program.pmtPID, timedID3PID: pid, units: stream.pesUnits(pid: pid))
        var placed = false
        for index in edit.units.indices {
            try edit.units[index].applyPicture(poster, placed: &placed, pid: pid, fallbackPTS: audioPTS)
        }
        if let poster, !placed {
            let tag = try tag(for: poster)
            var counter: UInt8 = 0  // continuity counters are set when the packets are emitted
            guard let audioPTS else { throw ParsedTransportStream.missingPTS(audioPID: program.audioPID) }
            edit.inserted = TransportStream.timedID3Packets(
                tag: tag, pts90k: audioPTS,
                pid: pid, continuityCounter: &counter)
        }

        // The PMT: declare the stream we add; undeclare it when we added it and it is now empty.
        let remainsEmpty = edit.inserted == nil && edit.units.allSatisfy { $0.replacement == [] }
        var change: PMTChange? = nil
        if existing == nil {
            change = .declare(pid)
        } else if poster == nil, remainsEmpty, Self.isDeclaredByUs(pid: pid, in: program.pmt) {
            change = .undeclare(pid)
        }
        if let change {
            for occurrence in program.pmtOccurrences {
                let section = try changedPMT(occurrence.section, change, program: program)
                let rewritten = try stream.rewritingSection(occurrence, with: section)
                let size = TransportStreamPacket.size
                for (number, index) in occurrence.packetIndices.enumerated() {
                    let packet = rewritten.packets[(number * size)..<((number + 1) * size)]
                    let extra = number == occurrence.packetIndices.count - 1 ? rewritten.extra[...] : []
                    edit.pmtPackets.append((index, packet, extra))
                }
            }
        }

        // The new ID3 PES goes right after the first PMT.
        edit.insertAfter = program.pmtOccurrences.first?.packetIndices.last ?? 0
        return emit(stream, edit)
    }

    /// What a segment's PMT gets: the timed-ID3 stream on a PID declared, or undeclared.
    private enum PMTChange: Equatable {
        case declare(UInt16)
        case undeclare(UInt16)
    }

    /// `section` (a PMT of `program`) with `change` made. A variant's segments repeat the same
    /// PMT: one that is the same as the last one changed is not parsed, changed and serialized
    /// again.
    private mutating func changedPMT(
        _ section: [UInt8], _ change: PMTChange, program: ParsedTransportStream.AudioProgram
    ) throws(PackagingError) -> [UInt8] {
        if let last = lastPMTChange, last.change == change, last.programNumber == program.programNumber,
            last.section == section
        {
            return last.changed
        }
        guard let pmt = ProgramMapSection(section[...]), pmt.programNumber == program.programNumber else {
            throw PackagingError(
                .missingProgramTables,
                "a PMT on PID 0x\(hexPID(program.pmtPID)) cannot be read (bad CRC or length); the segment is damaged"
            )
        }
        let changed: [UInt8]
        switch change {
        case .declare(let pid): changed = Self.declaringTimedID3(pid: pid, in: pmt).serialized()
        case .undeclare(let pid): changed = Self.undeclaringTimedID3(pid: pid, in: pmt).serialized()
        }
        lastPMTChange = (section, change, program.programNumber, changed)
        return changed
    }

    /// The poster's ID3 tag, serialized once for as long as the poster stays the same.
    private mutating func tag(for poster: Poster) throws(PackagingError) -> [UInt8] {
        if let posterTag, posterTag.poster == poster { return posterTag.tag }
        let tag = try ID3TagEditor.serializedTag([poster.frame])
        posterTag = (poster, tag)
        return tag
    }

    /// What a segment's rewrite changes, by packet index.
    private struct Edit {
        var pmtPID: UInt16
        /// The PMT packets rewritten, in packet order: the new bytes, and the packets added after
        /// them (set only for the last packet of a section).
        var pmtPackets: [(index: Int, packet: ArraySlice<UInt8>, extra: ArraySlice<UInt8>)] = []
        /// The PID of the timed-ID3 stream (nil: nothing on it changes) and its PES packets, in
        /// packet order; every packet on the PID belongs to one of them.
        var timedID3PID: UInt16? = nil
        var units: [PESUnit] = []
        /// The packets of a new timed-ID3 PES, to go after packet `insertAfter`.
        var inserted: [UInt8]? = nil
        var insertAfter = 0
    }

    /// The segment with `edit` applied: everything in order; the ID3 PES where their first packet
    /// was, the new one after `insertAfter`; every PMT packet with the variant's counter shift.
    /// The packets that stay as they are go out in runs, one copy per run.
    private mutating func emit(_ stream: ParsedTransportStream, _ edit: Edit) -> [UInt8] {
        let size = TransportStreamPacket.size
        var out: [UInt8] = []
        out.reserveCapacity(stream.bytes.count + (edit.inserted?.count ?? 0) + size)
        var unchanged = 0  // the first packet of the run kept as it is, not yet written
        var nextUnit = 0, nextPMT = 0
        for index in 0..<stream.packetCount {
            let pid = stream.packets[index].pid
            if pid == edit.timedID3PID {
                out += stream.bytes[(unchanged * size)..<(index * size)]
                unchanged = index + 1
                if nextUnit < edit.units.count, edit.units[nextUnit].packetIndices[0] == index {
                    // The whole PES goes here, its later packets with it.
                    let unit = edit.units[nextUnit]
                    nextUnit += 1
                    if let replacement = unit.replacement {
                        emitID3(replacement[...], into: &out)
                    } else {
                        for original in unit.packetIndices { emitID3(stream.packet(original), into: &out) }
                    }
                }
            } else if pid == edit.pmtPID {
                out += stream.bytes[(unchanged * size)..<(index * size)]
                unchanged = index + 1
                if nextPMT < edit.pmtPackets.count, edit.pmtPackets[nextPMT].index == index {
                    emitPMT(edit.pmtPackets[nextPMT].packet, extra: edit.pmtPackets[nextPMT].extra, into: &out)
                    nextPMT += 1
                } else {
                    emitPMT(stream.packet(index), extra: [], into: &out)
                }
            }
            if index == edit.insertAfter, let inserted = edit.inserted {
                out += stream.bytes[(unchanged * size)..<((index + 1) * size)]
                unchanged = index + 1
                emitID3(inserted[...], into: &out)
            }
        }
        out += stream.bytes[(unchanged * size)...]
        return out
    }

    /// Writes a PMT packet with its continuity_counter moved by the variant's shift, then the
    /// packets added to carry the rest of a grown section, each one counter further.
    private mutating func emitPMT(_ packet: ArraySlice<UInt8>, extra: ArraySlice<UInt8>, into out: inout [UInt8]) {
        let size = TransportStreamPacket.size
        let counter = (packet[packet.startIndex + 3] &+ pmtCounterShift) & 0x0F
        Self.write(packet, counter: counter, into: &out)
        var added = 0
        for start in stride(from: extra.startIndex, to: extra.endIndex, by: size) {
            added += 1
            Self.write(extra[start..<(start + size)], counter: (counter &+ UInt8(added)) & 0x0F, into: &out)
        }
        pmtCounterShift = (pmtCounterShift &+ UInt8(added)) & 0x0F
    }

    /// Writes timed-ID3 packets with this variant's running continuity_counter: it advances for
    /// each packet with payload and repeats for one without (§2.4.3.3).
    private mutating func emitID3(_ packets: ArraySlice<UInt8>, into out: inout [UInt8]) {
        let size = TransportStreamPacket.size
        var start = packets.startIndex
        while start + size <= packets.endIndex {
            let hasPayload = packets[start + 3] & 0x10 != 0
            let counter = hasPayload ? nextContinuityCounter : (nextContinuityCounter &+ 15) & 0x0F
            if hasPayload { nextContinuityCounter = (nextContinuityCounter + 1) & 0x0F }
            Self.write(packets[start..<(start + size)], counter: counter, into: &out)
            start += size
        }
    }

    /// Appends `packet` with its continuity_counter set to `counter`.
    private static func write(_ packet: ArraySlice<UInt8>, counter: UInt8, into out: inout [UInt8]) {
        let flags = packet[packet.startIndex + 3]
        out += packet
        out[out.count - TransportStreamPacket.size + 3] = (flags & 0xF0) | counter
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
