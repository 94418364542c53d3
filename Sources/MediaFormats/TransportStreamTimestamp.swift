/// Apple's packed-audio timestamp (HLS Authoring Spec / "Timed Metadata for HTTP Live
/// Streaming"): a PRIV frame owned by `com.apple.streaming.transportStreamTimestamp` whose data is
/// 8 bytes big-endian, the low 33 bits being the 90 kHz MPEG-2 PTS of the first audio sample.
package struct TransportStreamTimestamp: Sendable, Hashable {
    /// The PRIV owner identifier of the timestamp frame.
    package static let owner = "com.apple.streaming.transportStreamTimestamp"
    /// The 33-bit PTS wraps at 2^33 ticks (about 26.5 hours), as in ISO/IEC 13818-1 §2.4.3.7.
    package static let ptsModulus: Int64 = 1 << 33

    /// 90 kHz ticks, always in 0..<2^33.
    package var pts90k: Int64

    /// Wraps `pts90k` into the 33-bit range (negative values wrap too).
    package init(pts90k: Int64) {
        self.pts90k = pts90k & (Self.ptsModulus - 1)
    }

    /// Reads the timestamp from a PRIV frame; nil for any other frame or a body that is not 8 bytes.
    package init?(_ frame: ID3Frame) {
        guard case .privateData(let owner, let data) = frame, owner == Self.owner, data.count == 8 else {
            return nil
        }
        var reader = ByteReader(data)
        guard let value = reader.readUInt64() else { return nil }
        // Bits above 33 are reserved and must be zero; ignore them rather than reject the segment.
        self.init(pts90k: Int64(value & UInt64(Self.ptsModulus - 1)))
    }

    /// The first timestamp PRIV frame in the tag.
    package init?(tag: ID3Tag) {
        guard let found = tag.frames.lazy.compactMap(TransportStreamTimestamp.init).first else { return nil }
        self = found
    }

    /// The PRIV frame carrying this timestamp.
    package var frame: ID3Frame {
        var writer = ByteWriter(capacity: 8)
        writer.writeUInt64(UInt64(pts90k))
        return .privateData(owner: Self.owner, data: writer.bytes)
    }

    /// The PRIV frame for a PTS, wrapped to 33 bits.
    package static func makeFrame(pts90k: Int64) -> ID3Frame {
        TransportStreamTimestamp(pts90k: pts90k).frame
    }
}

extension ID3Tag {
    /// The Apple transport-stream timestamp in this tag, if any.
    package var transportStreamTimestamp: TransportStreamTimestamp? {
        TransportStreamTimestamp(tag: self)
    }

    /// The first APIC frame, if any.
    package var attachedPicture: AttachedPicture? {
        for case .attachedPicture(let picture) in frames { return picture }
        return nil
    }
}
