/// Which HDR10 static metadata an HEVC track carries: the mastering display colour volume
/// (SMPTE ST 2086; HEVC SEI payload type 137, ITU-T H.265 §D.2.28, or an ISO BMFF `mdcv` box)
/// and the content light level (MaxCLL and MaxFALL, CTA-861.3; SEI payload type 144, §D.2.35,
/// or a `clli` box). HDR10 is PQ, BT.2020 and 10 bits with both (CTA's HDR10 media profile).
package struct HDRStaticMetadata: Sendable, Hashable, Codable {
    /// Mastering display colour volume present.
    package var masteringDisplay: Bool
    /// Content light level present.
    package var contentLightLevel: Bool

    package init(masteringDisplay: Bool, contentLightLevel: Bool) {
        self.masteringDisplay = masteringDisplay
        self.contentLightLevel = contentLightLevel
    }

    static let masteringDisplayPayload = 137
    static let contentLightLevelPayload = 144

    /// What the HEVC NAL units of a track say: those of its decoder configuration record
    /// (`hvcC`, where AS 1.8 wants them) or Annex B extradata, and those of its first keyframe
    /// (Annex B from MPEG-TS, `annexB`; length-prefixed from fMP4), plus what libavformat read
    /// from the sample entry's boxes (`fromBoxes`).
    static func hevc(extradata: [UInt8], keyframe: [UInt8], annexB: Bool, fromBoxes: HDRStaticMetadata)
        -> HDRStaticMetadata
    {
        var units: [ArraySlice<UInt8>]
        var lengthSize = 4
        if extradata.count >= 23, extradata[0] == 1 {
            lengthSize = Int(extradata[21] & 0x03) + 1
            units = configurationRecordUnits(extradata)
        } else {
            units = CodecStringBuilder.annexBUnits(extradata[...])
        }
        if annexB {
            units += CodecStringBuilder.annexBUnits(keyframe[...])
        } else {
            units += lengthPrefixedUnits(keyframe, lengthSize: lengthSize)
        }
        let types = seiPayloadTypes(units)
        return HDRStaticMetadata(
            masteringDisplay: fromBoxes.masteringDisplay || types.contains(masteringDisplayPayload),
            contentLightLevel: fromBoxes.contentLightLevel || types.contains(contentLightLevelPayload))
    }

    /// The NAL units of an HEVCDecoderConfigurationRecord's arrays (ISO/IEC 14496-15 §8.3.3.1:
    /// 22 bytes of configuration, numOfArrays, then per array a type byte, a 16-bit count and
    /// 16-bit-length units). Stops at the first unit that would run past the end.
    static func configurationRecordUnits(_ record: [UInt8]) -> [ArraySlice<UInt8>] {
        guard record.count > 22 else { return [] }
        var units: [ArraySlice<UInt8>] = []
        var index = 23
        for _ in 0..<Int(record[22]) {
            guard index + 3 <= record.count else { break }
            let count = Int(record[index + 1]) << 8 | Int(record[index + 2])
            index += 3
            for _ in 0..<count {
                guard index + 2 <= record.count else { return units }
                let length = Int(record[index]) << 8 | Int(record[index + 1])
                index += 2
                guard index + length <= record.count else { return units }
                units.append(record[index..<index + length])
                index += length
            }
        }
        return units
    }

    /// The NAL units of length-prefixed sample data (ISO/IEC 14496-15 §4.3.2), as far as it goes.
    static func lengthPrefixedUnits(_ bytes: [UInt8], lengthSize: Int) -> [ArraySlice<UInt8>] {
        var units: [ArraySlice<UInt8>] = []
        var index = 0
        while index + lengthSize <= bytes.count {
            let length = bytes[index..<index + lengthSize].reduce(0) { $0 << 8 | Int($1) }
            index += lengthSize
            guard length > 0 else { continue }
            // The keyframe is read only in part: a unit cut short still names its SEI types.
            units.append(bytes[index..<min(bytes.count, index + length)])
            index += length
        }
        return units
    }

    /// The payload types of the SEI messages in the prefix SEI NAL units (type 39) of `units`
    /// (ITU-T H.265 §7.3.5: each message's type and size are runs of 0xFF plus a last byte).
    static func seiPayloadTypes(_ units: [ArraySlice<UInt8>]) -> Set<Int> {
        var types: Set<Int> = []
        for unit in units where unit.count > 2 && (unit[unit.startIndex] >> 1) & 0x3F == 39 {
            let payload = CodecStringBuilder.removingEmulationPrevention(unit.dropFirst(2))
            var index = 0
            func value() -> Int? {
                var total = 0
                while index < payload.count {
                    let byte = payload[index]
                    index += 1
                    total += Int(byte)
                    if byte != 0xFF { return total }
                }
                return nil
            }
            // The RBSP ends with a stop bit: 0x80 as the last byte.
            while index < payload.count, !(index == payload.count - 1 && payload[index] == 0x80) {
                guard let type = value(), let size = value() else { break }
                types.insert(type)
                index += size
            }
        }
        return types
    }
}
