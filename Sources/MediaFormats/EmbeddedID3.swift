/// The container a segment's bytes are in, as far as finding ID3 goes.
package enum ContainerKind: String, Sendable, Hashable, Codable {
    case mpegTS, packedAudio, fragmentedMP4, unknown
}

/// One ID3 tag found inside a segment.
package struct FoundID3Tag: Sendable, Hashable {
    /// Byte offset in the segment: of the tag itself (packed audio), of the TS packet that
    /// starts its PES packet (MPEG-TS), or of the `emsg` box (fMP4).
    package var offset: Int
    /// 90 kHz time: the PRIV transportStreamTimestamp (packed audio), the PES PTS (MPEG-TS),
    /// or the emsg v1 presentation_time (fMP4).
    package var pts90k: Int64?
    /// nil when the tag could not be read; `error` then says why.
    package var tag: ID3Tag?
    /// Why the tag could not be read, nil when `tag` is set.
    package var error: String?

    /// Makes a found tag; `pts90k` in 90 kHz ticks.
    package init(offset: Int, pts90k: Int64? = nil, tag: ID3Tag? = nil, error: String? = nil) {
        self.offset = offset
        self.pts90k = pts90k
        self.tag = tag
        self.error = error
    }
}

/// Finds ID3 tags the way each HLS container carries them (design.md §6).
package enum EmbeddedID3 {
    /// Upper bound for one reassembled PES packet; larger ones are reported, not buffered.
    package static let maximumPESSize = 16 << 20

    /// Which container `bytes` (the start of a segment) is in, from its first bytes: `ID3` or an
    /// ADTS, AC-3/E-AC-3 or MPEG audio frame is packed audio, 0x47 sync bytes 188 apart MPEG-TS,
    /// a top-level ISO BMFF box type (`ftyp`, `moof`, `emsg`, …) fragmented MP4.
    package static func sniffContainer(_ bytes: ArraySlice<UInt8>) -> ContainerKind {
        let s = bytes.startIndex
        if bytes.count >= 3, bytes[s] == 0x49, bytes[s + 1] == 0x44, bytes[s + 2] == 0x33 { return .packedAudio }
        if bytes.count >= TransportStreamPacket.size, bytes[s] == TransportStreamPacket.syncByte,
            bytes.count < 2 * TransportStreamPacket.size
                || bytes[s + TransportStreamPacket.size] == TransportStreamPacket.syncByte
        {
            return .mpegTS
        }
        if bytes.count >= 8 {
            let type = String(decoding: bytes[(s + 4)..<(s + 8)], as: UTF8.self)
            if ["ftyp", "styp", "moof", "moov", "emsg", "sidx", "prft", "free", "mdat"].contains(type) {
                return .fragmentedMP4
            }
        }
        if ADTSHeader(bytes) != nil || DolbyAudioFrame.frameLength(bytes) != nil { return .packedAudio }
        // MPEG audio frame sync (11 bits) with a valid layer.
        if MPEGAudioFrame.frameLength(bytes) != nil { return .packedAudio }
        return .unknown
    }

    /// Every ID3 tag in the segment. `.unknown` sniffs the container first; bytes that match no
    /// container give no tags.
    /// A tag larger than `maximumTagBytes` is reported, not parsed (`--max-id3-bytes`).
    package static func tags(in bytes: [UInt8], container: ContainerKind, maximumTagBytes: Int = maximumPESSize)
        -> [FoundID3Tag]
    {
        tags(in: ByteCursor(InMemoryBytes(bytes)), container: container, maximumTagBytes: maximumTagBytes)
    }

    /// The same, read through a cursor from its position to the end, holding at most one window
    /// (and one tag) in memory: for segments of any size.
    package static func tags(in cursor: ByteCursor, container: ContainerKind, maximumTagBytes: Int = maximumPESSize)
        -> [FoundID3Tag]
    {
        switch container {
        case .packedAudio: return packedAudioTags(cursor, maximumTagBytes: maximumTagBytes)
        case .mpegTS:
            var collector = TimedID3Collector(maximumTagBytes: maximumTagBytes)
            TransportStream.forEachPacket(in: cursor) { offset, _, packet in collector.consume(packet, at: offset) }
            return collector.finish()
        case .fragmentedMP4: return fragmentedMP4Tags(cursor, maximumTagBytes: maximumTagBytes)
        case .unknown:
            let sniffed = sniffContainer(cursor.peek(4096))
            return sniffed == .unknown ? [] : tags(in: cursor, container: sniffed, maximumTagBytes: maximumTagBytes)
        }
    }

    static func overLimit(_ count: Int, _ limit: Int) -> String {
        "ID3 tag of \(count) bytes is over the limit of \(limit) bytes; not read (raise it with --max-id3-bytes)"
    }

    // MARK: Packed audio (HLS spec RFC 8216 §3.4; Apple "Timed Metadata" for the PRIV frame)

    static func packedAudioTags(_ bytes: ArraySlice<UInt8>, maximumTagBytes: Int = maximumPESSize) -> [FoundID3Tag] {
        packedAudioTags(ByteCursor(InMemoryBytes(Array(bytes))), maximumTagBytes: maximumTagBytes)
    }

    /// The bytes `packedAudioTags(_:maximumTagBytes:)` takes from its cursor at once to read
    /// frame headers in: a handful of frames, and never more than any cursor's window holds, so
    /// the walk does not make a window grow.
    static let headerBlockBytes = ByteCursor.minimumWindowSize

    /// Walks ADTS, AC-3/E-AC-3 and MPEG audio frames, reading every ID3 tag between them. Where no
    /// frame can be recognised (free-format MP3, damage) it scans byte by byte, then accepting only
    /// well-formed ID3v2.2–2.4 headers. Frame headers need a few bytes; only a tag is read whole.
    static func packedAudioTags(_ cursor: ByteCursor, maximumTagBytes: Int = maximumPESSize) -> [FoundID3Tag] {
        var found: [FoundID3Tag] = []
        let start = cursor.offset
        var inSync = true  // true at the start and after a recognised frame or tag
        // The frame headers are read from one block of the cursor's bytes at a time (a segment
        // has a frame every few hundred bytes), going back to the cursor only past its end.
        var block: ArraySlice<UInt8> = []
        var blockStart = 0
        while cursor.remaining > 0 {
            let offset = cursor.offset - start
            let head: ArraySlice<UInt8>
            let inBlock = cursor.offset - blockStart
            if inBlock >= 0, inBlock + 16 <= block.count {
                head = block[(block.startIndex + inBlock)..<(block.startIndex + inBlock + 16)]
            } else {
                // Let go of the old block first: held, it would make the cursor copy its window
                // before reading the next bytes into it.
                block = []
                block = cursor.peek(Self.headerBlockBytes)
                blockStart = cursor.offset
                head = block.prefix(16)
            }
            let s = head.startIndex
            if head.count >= 3, head[s] == 0x49, head[s + 1] == 0x44, head[s + 2] == 0x33 {
                // The tag is read through the cursor: the block is let go, not kept alive beside it.
                block = []
                // Out of sync (e.g. inside MP3 data) only a plausible version counts as a tag.
                if let header = try? ID3Tag.Header.parse(head), inSync || (2...4).contains(header.majorVersion) {
                    if header.tagByteCount > maximumTagBytes {
                        found.append(
                            FoundID3Tag(offset: offset, error: overLimit(header.tagByteCount, maximumTagBytes)))
                        cursor.advance(by: header.tagByteCount)
                        inSync = true
                        continue
                    }
                    let tagBytes = cursor.peek(header.tagByteCount)
                    do {
                        let (tag, count) = try ID3Tag.parse(tagBytes)
                        found.append(
                            FoundID3Tag(offset: offset, pts90k: tag.transportStreamTimestamp?.pts90k, tag: tag))
                        cursor.advance(by: count)
                    } catch {
                        found.append(FoundID3Tag(offset: offset, error: error.description))
                        cursor.advance(by: header.tagByteCount)
                    }
                    inSync = true
                    continue
                } else if inSync {
                    found.append(FoundID3Tag(offset: offset, error: ID3Error.notAnID3Tag.description))
                }
            }
            let remaining = cursor.remaining
            if let header = ADTSHeader(head), header.frameLength <= remaining {
                cursor.advance(by: header.frameLength)
                inSync = true
            } else if let length = DolbyAudioFrame.frameLength(head) ?? MPEGAudioFrame.frameLength(head),
                length > 0, length <= remaining
            {
                cursor.advance(by: length)
                inSync = true
            } else {
                cursor.advance(by: 1)
                inSync = false
            }
        }
        return found
    }

    // MARK: MPEG-TS (ISO/IEC 13818-1; timed ID3 per Apple "Timed Metadata for HTTP Live Streaming")

    static func transportStreamTags(_ bytes: ArraySlice<UInt8>, maximumTagBytes: Int = maximumPESSize) -> [FoundID3Tag]
    {
        tags(in: ByteCursor(InMemoryBytes(Array(bytes))), container: .mpegTS, maximumTagBytes: maximumTagBytes)
    }

    // MARK: fMP4 (ISO/IEC 14496-12 §4.2 boxes; ISO/IEC 23009-1 §5.10.3.3 emsg)

    static func fragmentedMP4Tags(_ bytes: ArraySlice<UInt8>, maximumTagBytes: Int = maximumPESSize) -> [FoundID3Tag] {
        fragmentedMP4Tags(ByteCursor(InMemoryBytes(Array(bytes))), maximumTagBytes: maximumTagBytes)
    }

    /// Walks the top-level boxes by their headers (an `mdat` of any size is stepped over, not
    /// read); only `emsg` boxes are read, and one over the limit only as far as its header.
    static func fragmentedMP4Tags(_ cursor: ByteCursor, maximumTagBytes: Int = maximumPESSize) -> [FoundID3Tag] {
        var found: [FoundID3Tag] = []
        let start = cursor.offset
        while cursor.remaining >= 8 {
            var reader = ByteReader(cursor.peek(16))
            guard let size32 = reader.readUInt32(), let type = reader.readBytes(4) else { break }
            var size = UInt64(size32)
            if size32 == 1 {
                guard let large = reader.readUInt64() else { break }
                size = large
            } else if size32 == 0 {
                size = UInt64(cursor.remaining)  // box extends to the end of the file
            }
            let headerLength = reader.offset
            guard size >= UInt64(headerLength), size <= UInt64(cursor.remaining) else { break }
            if type.elementsEqual("emsg".utf8) {
                let offset = cursor.offset - start
                let payloadSize = Int(size) - headerLength
                // A message over the limit is judged by its header (scheme, time) alone.
                let whole = payloadSize <= maximumTagBytes + Self.emsgHeaderAllowance
                let box = cursor.peek(whole ? Int(size) : headerLength + Self.emsgHeaderAllowance)
                if let message = EventMessageBox(payload: box.dropFirst(headerLength)) {
                    let messageCount =
                        whole
                        ? message.messageData.count
                        : message.messageData.count + payloadSize - (box.count - headerLength)
                    if message.carriesID3, messageCount > maximumTagBytes {
                        found.append(
                            FoundID3Tag(
                                offset: offset, pts90k: message.presentationTime90k,
                                error: overLimit(messageCount, maximumTagBytes)))
                    } else if message.carriesID3 {
                        do {
                            let (tag, _) = try ID3Tag.parse(message.messageData[...])
                            found.append(FoundID3Tag(offset: offset, pts90k: message.presentationTime90k, tag: tag))
                        } catch {
                            found.append(
                                FoundID3Tag(
                                    offset: offset, pts90k: message.presentationTime90k, error: error.description))
                        }
                    }
                } else {
                    found.append(FoundID3Tag(offset: offset, error: "emsg box is truncated or has an unknown version"))
                }
            }
            cursor.advance(by: Int(size))
        }
        return found
    }

    /// Room for an emsg's fixed fields and its scheme and value strings.
    static let emsgHeaderAllowance = 64 << 10
}

/// Collects the timed-ID3 tags of a transport stream packet by packet: follows the PAT and PMTs
/// to the PIDs that carry ID3 (stream_type 0x15 with an ID3 metadata descriptor), reassembles
/// their PES packets (each bounded by `maximumTagBytes`) and parses the tags in them.
package struct TimedID3Collector {
    private let maximumTagBytes: Int
    /// Every PID that has had a role — the PAT's PID 0, a PMT's, a timed-ID3 one — at its slot,
    /// and what is kept for it at the same slot of `streams`: looked up for every packet, so by
    /// index, not by hash. A PID keeps its slot (and a section it was gathering) when a new PAT
    /// takes its role away.
    private var pids = PIDIndex(capacity: 4)
    private var streams: [PIDState] = []
    /// The slots of the PIDs the latest PAT names as PMTs.
    private var pmtSlots: [Int] = []
    private var found: [FoundID3Tag] = []

    private static let patRole: UInt8 = 1, pmtRole: UInt8 = 2, id3Role: UInt8 = 4

    private struct PIDState {
        var role: UInt8
        /// The PSI section being gathered, nil when none is.
        var section: [UInt8]?
        /// The timed-ID3 PES packet being reassembled, nil when none is, and the offset of the TS
        /// packet that started it.
        var pes: [UInt8]?
        var pesOffset = 0
    }

    package init(maximumTagBytes: Int = EmbeddedID3.maximumPESSize) {
        self.maximumTagBytes = maximumTagBytes
        streams.reserveCapacity(4)  // the PAT, a PMT, a timed-ID3 PID and one more: a segment's usual lot, as `pids`
        streams.append(PIDState(role: Self.patRole))
        pids.add(0)
    }

    /// The slot of `pid`, given one with no role when it has none yet.
    private mutating func slot(adding pid: UInt16) -> Int {
        if let slot = pids.slot(of: pid) { return slot }
        streams.append(PIDState(role: 0))
        return pids.add(pid)
    }

    private mutating func handleSection(_ section: ArraySlice<UInt8>, slot: Int) {
        if pids.pids[slot] == 0, let pat = ProgramAssociationSection(section) {
            // The PAT names the PMTs anew (ISO/IEC 13818-1 §2.4.4.3).
            for pmt in pmtSlots { streams[pmt].role &= ~Self.pmtRole }
            pmtSlots.removeAll(keepingCapacity: true)
            for pid in pat.programs.values {
                let pmt = self.slot(adding: pid)
                if streams[pmt].role & Self.pmtRole == 0 {
                    streams[pmt].role |= Self.pmtRole
                    pmtSlots.append(pmt)
                }
            }
        } else if streams[slot].role & Self.pmtRole != 0, let pmt = ProgramMapSection(section) {
            for stream in pmt.streams where stream.carriesTimedID3 {
                streams[self.slot(adding: stream.pid)].role |= Self.id3Role
            }
        }
    }

    private mutating func completeSectionIfReady(slot: Int) {
        guard let buffer = streams[slot].section, buffer.count >= 3 else { return }
        if buffer[0] == 0xFF { streams[slot].section = nil; return }  // stuffing
        let length = 3 + (Int(buffer[1] & 0x0F) << 8 | Int(buffer[2]))
        guard buffer.count >= length else { return }
        streams[slot].section = nil
        handleSection(buffer[..<length], slot: slot)
    }

    private mutating func flush(slot: Int) {
        guard let data = streams[slot].pes else { return }
        streams[slot].pes = nil
        found.append(contentsOf: Self.tagsInPES(data, offset: streams[slot].pesOffset))
    }

    /// Whether packets on `pid` can matter (the PAT, a PMT, a timed-ID3 PID found so far): every
    /// other packet is passed over by ``consume(_:at:)``, so a caller may skip it unread.
    package func wantsPayload(of pid: UInt16) -> Bool {
        guard let slot = pids.slot(of: pid) else { return false }
        return streams[slot].role != 0
    }

    /// Takes the next packet and the byte offset where it starts.
    package mutating func consume(_ packet: TransportStreamPacket, at offset: Int) {
        guard !packet.transportError, packet.scramblingControl == 0, packet.hasPayload else { return }
        packet.payload.withUnsafeBufferPointer {
            consume(pid: packet.pid, payloadUnitStart: packet.payloadUnitStart, payload: $0, at: offset)
        }
    }

    /// The same for the 188 bytes of a packet read in place (a sync byte first): what
    /// ``consume(_:at:)`` does with `TransportStreamPacket(bytes)`, without copying the packet.
    package mutating func consume(packet bytes: UnsafeRawBufferPointer, at offset: Int) {
        guard bytes.count >= TransportStreamPacket.size, bytes[0] == TransportStreamPacket.syncByte else { return }
        let b1 = bytes[1], b3 = bytes[3]
        // transport_error_indicator, transport_scrambling_control, adaptation_field_control (§2.4.3.2)
        guard b1 & 0x80 == 0, b3 >> 6 == 0, b3 & 0x10 != 0 else { return }
        var payloadStart = 4
        if b3 & 0x20 != 0 {
            let length = Int(bytes[4])
            guard 5 + length <= TransportStreamPacket.size else { return }
            payloadStart = 5 + length
        }
        // Typed bytes: copied into the buffers whole, not byte by byte as raw ones would be.
        bytes.withMemoryRebound(to: UInt8.self) { typed in
            consume(
                pid: UInt16(b1 & 0x1F) << 8 | UInt16(typed[2]), payloadUnitStart: b1 & 0x40 != 0,
                payload: UnsafeBufferPointer(rebasing: typed[payloadStart..<TransportStreamPacket.size]), at: offset)
        }
    }

    private mutating func consume(
        pid: UInt16, payloadUnitStart: Bool, payload: UnsafeBufferPointer<UInt8>, at offset: Int
    ) {
        guard let slot = pids.slot(of: pid) else { return }
        let role = streams[slot].role
        if role & (Self.patRole | Self.pmtRole) != 0 {
            var payload = payload
            if payloadUnitStart {
                guard let pointer = payload.first, Int(pointer) < payload.count else { return }
                let tail = UnsafeBufferPointer(rebasing: payload[1...])
                if streams[slot].section != nil {
                    streams[slot].section?.append(contentsOf: UnsafeBufferPointer(rebasing: tail[..<Int(pointer)]))
                    completeSectionIfReady(slot: slot)
                }
                streams[slot].section = []
                payload = UnsafeBufferPointer(rebasing: tail[Int(pointer)...])
            }
            guard streams[slot].section != nil else { return }
            streams[slot].section?.append(contentsOf: payload)
            // §2.4.4: sections ≤ 1024 bytes (4096 for private sections)
            if (streams[slot].section?.count ?? 0) > 4096 { streams[slot].section = nil; return }
            completeSectionIfReady(slot: slot)
        } else if role & Self.id3Role != 0 {
            if payloadUnitStart {
                flush(slot: slot)
                streams[slot].pes = Array(payload)
                streams[slot].pesOffset = offset
            } else if streams[slot].pes != nil {
                streams[slot].pes?.append(contentsOf: payload)
            } else {
                return
            }
            let count = streams[slot].pes?.count ?? 0
            if count > maximumTagBytes {
                streams[slot].pes = nil
                found.append(
                    FoundID3Tag(
                        offset: streams[slot].pesOffset,
                        error:
                            "timed-ID3 PES packet is over the limit of \(maximumTagBytes) bytes; not read (raise it with --max-id3-bytes)"
                    ))
            } else if count >= 6, let pes = streams[slot].pes {
                // PES_packet_length (§2.4.3.7): a bounded packet is read as soon as it is whole.
                let declared = Int(pes[4]) << 8 | Int(pes[5])
                if declared != 0, count >= 6 + declared { flush(slot: slot) }
            }
        }
    }

    /// The tags found, in order of offset, after the last packet.
    package mutating func finish() -> [FoundID3Tag] {
        let open = streams.indices.filter { streams[$0].pes != nil }
        for slot in open.sorted(by: { pids.pids[$0] < pids.pids[$1] }) { flush(slot: slot) }
        // Stable order by offset: tags from one PES share its offset and keep their order.
        if zip(found, found.dropFirst()).allSatisfy({ $0.offset <= $1.offset }) { return found }
        return found.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(
            \.element)
    }

    /// A PES packet's payload may hold one or several complete ID3 tags back to back.
    static func tagsInPES(_ data: [UInt8], offset: Int) -> [FoundID3Tag] {
        guard let pes = PESPacket(data[...]) else {
            return [FoundID3Tag(offset: offset, error: "timed-ID3 PES packet has a malformed header")]
        }
        if pes.packetLength != 0, data.count < 6 + pes.packetLength {
            return [
                FoundID3Tag(
                    offset: offset, pts90k: pes.pts90k,
                    error:
                        "timed-ID3 PES packet declares \(pes.packetLength) bytes but the segment ends after \(data.count - 6)"
                )
            ]
        }
        var payload = pes.payload
        var tags: [FoundID3Tag] = []
        repeat {
            do {
                let (tag, count) = try ID3Tag.parse(payload)
                tags.append(FoundID3Tag(offset: offset, pts90k: pes.pts90k, tag: tag))
                payload = payload.dropFirst(count)
            } catch {
                tags.append(FoundID3Tag(offset: offset, pts90k: pes.pts90k, error: error.description))
                break
            }
        } while payload.count >= 3 && payload.starts(with: [0x49, 0x44, 0x33])
        return tags
    }
}
