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

    /// Walks ADTS, AC-3/E-AC-3 and MPEG audio frames, reading every ID3 tag between them. Where no
    /// frame can be recognised (free-format MP3, damage) it scans byte by byte, then accepting only
    /// well-formed ID3v2.2–2.4 headers. Frame headers need a few bytes; only a tag is read whole.
    static func packedAudioTags(_ cursor: ByteCursor, maximumTagBytes: Int = maximumPESSize) -> [FoundID3Tag] {
        var found: [FoundID3Tag] = []
        let start = cursor.offset
        var inSync = true  // true at the start and after a recognised frame or tag
        while cursor.remaining > 0 {
            let offset = cursor.offset - start
            let head = cursor.peek(16)
            let s = head.startIndex
            if head.count >= 3, head[s] == 0x49, head[s + 1] == 0x44, head[s + 2] == 0x33 {
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
    private var pmtPIDs: Set<UInt16> = [] { didSet { updateRoles(oldValue, pmtPIDs, Self.pmtRole) } }
    private var id3PIDs: Set<UInt16> = [] { didSet { updateRoles(oldValue, id3PIDs, Self.id3Role) } }
    /// The two sets as a table indexed by PID (13 bits): looked up for every packet.
    private var roles = [UInt8](repeating: 0, count: 8192)
    private static let pmtRole: UInt8 = 1, id3Role: UInt8 = 2
    private var sections: [UInt16: [UInt8]] = [:]
    private var pending: [UInt16: (offset: Int, bytes: [UInt8])] = [:]
    private var found: [FoundID3Tag] = []

    package init(maximumTagBytes: Int = EmbeddedID3.maximumPESSize) {
        self.maximumTagBytes = maximumTagBytes
    }

    private mutating func updateRoles(_ old: Set<UInt16>, _ new: Set<UInt16>, _ role: UInt8) {
        for pid in old.subtracting(new) { roles[Int(pid) & 0x1FFF] &= ~role }
        for pid in new.subtracting(old) { roles[Int(pid) & 0x1FFF] |= role }
    }

    private mutating func handleSection(_ section: [UInt8], pid: UInt16) {
        if pid == 0, let pat = ProgramAssociationSection(section[...]) {
            pmtPIDs = Set(pat.programs.values)
        } else if pmtPIDs.contains(pid), let pmt = ProgramMapSection(section[...]) {
            for stream in pmt.streams where stream.carriesTimedID3 { id3PIDs.insert(stream.pid) }
        }
    }

    private mutating func completeSectionIfReady(pid: UInt16) {
        guard let buffer = sections[pid], buffer.count >= 3 else { return }
        if buffer[0] == 0xFF { sections[pid] = nil; return }  // stuffing
        let length = 3 + (Int(buffer[1] & 0x0F) << 8 | Int(buffer[2]))
        guard buffer.count >= length else { return }
        handleSection(Array(buffer.prefix(length)), pid: pid)
        sections[pid] = nil
    }

    private mutating func flush(pid: UInt16) {
        guard let (offset, data) = pending.removeValue(forKey: pid) else { return }
        found.append(contentsOf: Self.tagsInPES(data, offset: offset))
    }

    /// Whether packets on `pid` can matter (the PAT, a PMT, a timed-ID3 PID found so far): every
    /// other packet is passed over by ``consume(_:at:)``, so a caller may skip it unread.
    package func wantsPayload(of pid: UInt16) -> Bool {
        pid == 0 || roles[Int(pid) & 0x1FFF] != 0
    }

    /// Takes the next packet and the byte offset where it starts.
    package mutating func consume(_ packet: TransportStreamPacket, at offset: Int) {
        guard !packet.transportError, packet.scramblingControl == 0, packet.hasPayload else { return }
        let pid = packet.pid
        let role = roles[Int(pid) & 0x1FFF]
        if pid == 0 || role & Self.pmtRole != 0 {
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
            // §2.4.4: sections ≤ 1024 bytes (4096 for private sections)
            if (sections[pid]?.count ?? 0) > 4096 { sections[pid] = nil; return }
            completeSectionIfReady(pid: pid)
        } else if role & Self.id3Role != 0 {
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

    /// The tags found, in order of offset, after the last packet.
    package mutating func finish() -> [FoundID3Tag] {
        for pid in pending.keys.sorted() { flush(pid: pid) }
        // Stable order by offset: tags from one PES share its offset and keep their order.
        return found.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(
            \.element)
    }

    /// A PES packet's payload may hold one or several complete ID3 tags back to back.
    private static func tagsInPES(_ data: [UInt8], offset: Int) -> [FoundID3Tag] {
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
