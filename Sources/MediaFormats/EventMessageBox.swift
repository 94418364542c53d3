/// The `emsg` box of ISO/IEC 23009-1 §5.10.3.3 (DASH event message), versions 0 and 1. With
/// scheme_id_uri `https://aomedia.org/emsg/ID3` (AOM "Carriage of ID3 Timed Metadata in the
/// Common Media Application Format") message_data is one complete ID3v2 tag.
package struct EventMessageBox: Sendable, Hashable {
    /// The AOM scheme for ID3 in `emsg` (the one this module writes).
    package static let id3SchemeIDURI = "https://aomedia.org/emsg/ID3"
    /// Apple's earlier scheme for the same payload; accepted when reading.
    package static let appleID3SchemeIDURI = "https://developer.apple.com/streaming/emsg-id3"

    /// 0: `presentationTime` is presentation_time_delta relative to the segment's earliest
    /// presentation time; 1: it is an absolute presentation_time.
    package var version: UInt8
    /// scheme_id_uri.
    package var schemeIDURI: String
    /// value (scheme-specific; empty for ID3).
    package var value: String
    /// Ticks per second of `presentationTime` and `eventDuration`.
    package var timescale: UInt32
    /// presentation_time (version 1) or presentation_time_delta (version 0), in `timescale` ticks.
    package var presentationTime: UInt64
    /// event_duration in `timescale` ticks; 0xFFFFFFFF means unknown.
    package var eventDuration: UInt32
    /// id of the event.
    package var id: UInt32
    /// message_data: for the ID3 schemes, one complete ID3v2 tag.
    package var messageData: [UInt8]

    /// Makes a box; by default version 1 with the AOM ID3 scheme and an unknown duration.
    package init(
        version: UInt8 = 1, schemeIDURI: String = Self.id3SchemeIDURI, value: String = "",
        timescale: UInt32, presentationTime: UInt64, eventDuration: UInt32 = 0xFFFF_FFFF,
        id: UInt32 = 0, messageData: [UInt8]
    ) {
        self.version = version
        self.schemeIDURI = schemeIDURI
        self.value = value
        self.timescale = timescale
        self.presentationTime = presentationTime
        self.eventDuration = eventDuration
        self.id = id
        self.messageData = messageData
    }

    /// Parses the box payload after the 8-byte (or 16-byte) box header; nil for other versions
    /// or when a field is missing.
    package init?(payload: ArraySlice<UInt8>) {
        var reader = ByteReader(payload)
        guard let version = reader.readUInt8(), reader.readUInt24() != nil else { return nil }
        self.version = version
        switch version {
        case 0:
            schemeIDURI = String(decoding: reader.readNullTerminated(), as: UTF8.self)
            value = String(decoding: reader.readNullTerminated(), as: UTF8.self)
            guard let timescale = reader.readUInt32(), let delta = reader.readUInt32(),
                let duration = reader.readUInt32(), let id = reader.readUInt32()
            else { return nil }
            self.timescale = timescale
            presentationTime = UInt64(delta)
            eventDuration = duration
            self.id = id
        case 1:
            guard let timescale = reader.readUInt32(), let time = reader.readUInt64(),
                let duration = reader.readUInt32(), let id = reader.readUInt32()
            else { return nil }
            self.timescale = timescale
            presentationTime = time
            eventDuration = duration
            self.id = id
            schemeIDURI = String(decoding: reader.readNullTerminated(), as: UTF8.self)
            value = String(decoding: reader.readNullTerminated(), as: UTF8.self)
        default:
            return nil
        }
        messageData = Array(reader.readRemaining())
    }

    /// Whether the scheme is one of the ID3 schemes (AOM's or Apple's earlier one).
    package var carriesID3: Bool {
        schemeIDURI == Self.id3SchemeIDURI || schemeIDURI == Self.appleID3SchemeIDURI
    }

    /// presentation_time in 90 kHz ticks, for version 1 only (a version 0 delta needs the
    /// segment's earliest presentation time). nil for timescale 0 or on overflow.
    package var presentationTime90k: Int64? {
        guard version == 1, timescale > 0 else { return nil }
        let scale = UInt64(timescale)
        let (whole, overflow) = (presentationTime / scale).multipliedReportingOverflow(by: 90_000)
        guard !overflow else { return nil }
        // The fraction adds fewer than 90 000 ticks, enough to carry past 64 bits on its own.
        let (total, carry) = whole.addingReportingOverflow((presentationTime % scale) * 90_000 / scale)
        return !carry && total <= UInt64(Int64.max) ? Int64(total) : nil
    }

    /// The whole box, header included, in this box's version.
    package func serialized() -> [UInt8] {
        var writer = ByteWriter(capacity: messageData.count + 64)
        writer.writeUInt32(0)  // size, patched below
        writer.writeBytes(Array("emsg".utf8))
        writer.writeUInt8(version == 0 ? 0 : 1)
        writer.writeUInt24(0)
        if version == 0 {
            writer.writeNullTerminatedUTF8(schemeIDURI)
            writer.writeNullTerminatedUTF8(value)
            writer.writeUInt32(timescale)
            writer.writeUInt32(UInt32(clamping: presentationTime))
            writer.writeUInt32(eventDuration)
            writer.writeUInt32(id)
        } else {
            writer.writeUInt32(timescale)
            writer.writeUInt64(presentationTime)
            writer.writeUInt32(eventDuration)
            writer.writeUInt32(id)
            writer.writeNullTerminatedUTF8(schemeIDURI)
            writer.writeNullTerminatedUTF8(value)
        }
        writer.writeBytes(messageData)
        writer.patchUInt32(UInt32(clamping: writer.count), at: 0)
        return writer.bytes
    }

    /// A version 1 box carrying an ID3 tag at `pts90k` (timescale 90 kHz).
    package static func id3(tag: ID3Tag, pts90k: Int64, id: UInt32 = 0) -> EventMessageBox {
        EventMessageBox(
            version: 1, timescale: 90_000, presentationTime: UInt64(max(0, pts90k)),
            id: id, messageData: tag.serialized())
    }
}
