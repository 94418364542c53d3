/// One 188-byte MPEG-2 transport stream packet (ISO/IEC 13818-1 §2.4.3.2, table 2-2, and the
/// adaptation field of §2.4.3.4, table 2-6).
package struct TransportStreamPacket: Sendable, Hashable {
    /// Packet length in bytes.
    package static let size = 188
    /// sync_byte, the first byte of every packet.
    package static let syncByte: UInt8 = 0x47
    /// The null PID (stuffing packets).
    package static let nullPID: UInt16 = 0x1FFF

    /// transport_error_indicator.
    package var transportError: Bool
    /// payload_unit_start_indicator: a PES packet or PSI section starts in this payload.
    package var payloadUnitStart: Bool
    /// The 13-bit PID.
    package var pid: UInt16
    /// transport_scrambling_control; non-zero means the payload is encrypted.
    package var scramblingControl: UInt8
    /// Whether an adaptation field is present (adaptation_field_control).
    package var hasAdaptationField: Bool
    /// Whether a payload is present (adaptation_field_control).
    package var hasPayload: Bool
    /// continuity_counter (4 bits).
    package var continuityCounter: UInt8
    /// discontinuity_indicator from the adaptation field.
    package var discontinuity: Bool
    /// The payload bytes (empty when there is none), as a slice of the input.
    package var payload: ArraySlice<UInt8>

    /// Parses a packet at the start of `bytes`; nil without the sync byte, with fewer than 188
    /// bytes, or with an adaptation field longer than the packet.
    package init?(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count >= Self.size, bytes[bytes.startIndex] == Self.syncByte else { return nil }
        let s = bytes.startIndex
        let b1 = bytes[s + 1], b2 = bytes[s + 2], b3 = bytes[s + 3]
        transportError = b1 & 0x80 != 0
        payloadUnitStart = b1 & 0x40 != 0
        pid = UInt16(b1 & 0x1F) << 8 | UInt16(b2)
        scramblingControl = b3 >> 6
        hasAdaptationField = b3 & 0x20 != 0
        hasPayload = b3 & 0x10 != 0
        continuityCounter = b3 & 0x0F
        discontinuity = false
        var payloadStart = s + 4
        let end = s + Self.size
        if hasAdaptationField {
            let length = Int(bytes[s + 4])
            guard 5 + length <= Self.size else { return nil }
            if length > 0 { discontinuity = bytes[s + 5] & 0x80 != 0 }
            payloadStart = s + 5 + length
        }
        payload = hasPayload ? bytes[payloadStart..<end] : bytes[end..<end]
    }
}

/// A continuity_counter gap on one PID (ISO/IEC 13818-1 §2.4.3.3).
package struct ContinuityError: Sendable, Hashable, Codable {
    /// The PID with the gap.
    package var pid: UInt16
    /// Index of the offending packet (0-based, counting 188-byte packets).
    package var packetIndex: Int
    /// The counter the previous packet called for.
    package var expected: UInt8
    /// The counter the packet carries.
    package var found: UInt8
}

/// Helpers over whole transport streams (byte arrays of 188-byte packets).
package enum TransportStream {
    /// Byte offsets of the packets in `ts`: packets are 188 bytes apart, and after lost sync the
    /// next 0x47 followed by another 0x47 188 bytes later is taken as the resynchronisation point.
    package static func packetOffsets(in ts: ArraySlice<UInt8>) -> [Int] {
        var offsets: [Int] = []
        offsets.reserveCapacity(ts.count / TransportStreamPacket.size)
        var index = ts.startIndex
        while index + TransportStreamPacket.size <= ts.endIndex {
            if ts[index] == TransportStreamPacket.syncByte {
                offsets.append(index - ts.startIndex)
                index += TransportStreamPacket.size
                continue
            }
            // Lost sync: look for two sync bytes one packet apart (or one in the last packet).
            var next = index + 1
            while next + TransportStreamPacket.size <= ts.endIndex {
                if ts[next] == TransportStreamPacket.syncByte,
                    next + TransportStreamPacket.size >= ts.endIndex
                        || ts[next + TransportStreamPacket.size] == TransportStreamPacket.syncByte
                {
                    break
                }
                next += 1
            }
            index = next
        }
        return offsets
    }

    /// continuity_counter errors (§2.4.3.3): the counter must advance by one (mod 16) for each
    /// packet with payload on a PID, stay the same for packets without payload, and may repeat
    /// once for a duplicate packet. A set discontinuity_indicator resets the expectation.
    /// The null PID is not checked.
    package static func continuityErrors(in ts: [UInt8]) -> [ContinuityError] {
        var errors: [ContinuityError] = []
        forEachContinuityStep(in: ts) { _, _, error in
            if let error { errors.append(error) }
        }
        return errors
    }

    /// Splits a PES packet into transport packets on `pid`, starting at `continuityCounter` and
    /// leaving it at the value for the next packet. The last packet is filled with adaptation
    /// field stuffing (§2.4.3.5), the standard way to end a PES without padding the payload.
    package static func packetize(pes: [UInt8], pid: UInt16, continuityCounter: inout UInt8) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((pes.count / 184 + 1) * TransportStreamPacket.size)
        var index = 0
        repeat {
            let chunk = min(184, pes.count - index)
            out.append(TransportStreamPacket.syncByte)
            out.append((index == 0 ? 0x40 : 0) | UInt8((pid >> 8) & 0x1F))
            out.append(UInt8(pid & 0xFF))
            let stuffing = 184 - chunk
            out.append((stuffing > 0 ? 0x30 : 0x10) | (continuityCounter & 0x0F))
            if stuffing > 0 {
                out.append(UInt8(stuffing - 1))  // adaptation_field_length
                if stuffing > 1 {
                    out.append(0x00)  // no flags
                    out.append(contentsOf: repeatElement(0xFF, count: stuffing - 2))
                }
            }
            out.append(contentsOf: pes[index..<(index + chunk)])
            index += chunk
            continuityCounter = (continuityCounter + 1) & 0x0F
        } while index < pes.count
        return out
    }

    /// A PES packet of private_stream_1 (stream_id 0xBD) carrying one timed-ID3 tag with a PTS,
    /// as Apple's "Timed Metadata for HTTP Live Streaming" prescribes, split into TS packets.
    /// PES_packet_length is 0 (unbounded) when the tag is too large for the 16-bit field.
    package static func timedID3Packets(tag: [UInt8], pts90k: Int64, pid: UInt16, continuityCounter: inout UInt8)
        -> [UInt8]
    {
        packetize(
            pes: PESPacket.build(streamID: 0xBD, pts90k: pts90k, payload: tag),
            pid: pid, continuityCounter: &continuityCounter)
    }
}

/// A PES packet header (ISO/IEC 13818-1 §2.4.3.6, table 2-21).
package struct PESPacket: Sendable, Hashable {
    /// stream_id (0xBD private_stream_1, 0xC0–0xDF audio, 0xE0–0xEF video, …).
    package var streamID: UInt8
    /// 0 means unbounded (allowed for video, and used by muxers for large timed-ID3 tags).
    package var packetLength: Int
    /// PTS in 90 kHz ticks (33 bits), nil when absent.
    package var pts90k: Int64?
    /// The payload after the header; a slice of the input.
    package var payload: ArraySlice<UInt8>

    /// Parses a reassembled PES packet; nil without the start code prefix or with a header
    /// longer than the data. A bounded packet's payload stops at PES_packet_length.
    package init?(_ bytes: ArraySlice<UInt8>) {
        var reader = ByteReader(bytes)
        guard reader.readUInt24() == 0x000001, let streamID = reader.readUInt8(),
            let length = reader.readUInt16()
        else { return nil }
        self.streamID = streamID
        packetLength = Int(length)
        let end = length == 0 ? bytes.endIndex : min(bytes.endIndex, bytes.startIndex + 6 + Int(length))
        // Streams without the optional header (table 2-21 condition): program_stream_map,
        // padding, private_stream_2, ECM, EMM, program_stream_directory, DSMCC, H.222.1 type E.
        if [0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xFF, 0xF2, 0xF8].contains(streamID) {
            pts90k = nil
            payload = bytes[reader.position..<max(reader.position, end)]
            return
        }
        guard reader.readUInt8() != nil, let flags = reader.readUInt8(),
            let headerLength = reader.readUInt8(), let header = reader.readBytes(Int(headerLength))
        else { return nil }
        if flags & 0x80 != 0, header.count >= 5 {
            let p = Array(header.prefix(5))
            let high = Int64(p[0] >> 1) & 0x07
            pts90k = high << 30 | Int64(p[1]) << 22 | Int64(p[2] >> 1) << 15 | Int64(p[3]) << 7 | Int64(p[4] >> 1)
        } else {
            pts90k = nil
        }
        payload = bytes[reader.position..<max(reader.position, end)]
    }

    /// A PES packet with a PTS-only header and data_alignment_indicator set.
    package static func build(streamID: UInt8, pts90k: Int64, payload: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: payload.count + 14)
        writer.writeUInt24(0x000001)
        writer.writeUInt8(streamID)
        let length = 3 + 5 + payload.count
        writer.writeUInt16(length <= 0xFFFF ? UInt16(length) : 0)
        writer.writeUInt8(0x84)  // '10', not scrambled, data_alignment_indicator
        writer.writeUInt8(0x80)  // PTS only
        writer.writeUInt8(5)
        let pts = UInt64(pts90k) & 0x1_FFFF_FFFF
        // '0010' PTS[32..30] marker, PTS[29..15] marker, PTS[14..0] marker (§2.4.3.7).
        writer.writeUInt8(0x21 | UInt8((pts >> 29) & 0x0E))
        writer.writeUInt16(UInt16((pts >> 14) & 0xFFFE) | 1)
        writer.writeUInt16(UInt16((pts << 1) & 0xFFFE) | 1)
        writer.writeBytes(payload)
        return writer.bytes
    }
}
