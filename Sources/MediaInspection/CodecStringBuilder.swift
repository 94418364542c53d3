/// RFC 6381 codec strings, as HLS CODECS uses them (RFC 8216 §4.4.6.2, Apple HLS authoring
/// spec), built from the bytes libav hands over: decoder configuration records, ADTS headers,
/// or the parameter sets at the start of the first keyframe. Pure functions of bytes.
enum CodecStringBuilder {
    /// `stpp.ttml.<profile>` for IMSC in ISO BMFF (ISO/IEC 14496-30, the W3C TTML profile
    /// registry's codecs parameter), the profile found among the first bytes of a TTML document
    /// by its designator; `stpp` alone when the document names none of them.
    static func stpp(firstDocument bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let designators = [
            ("imsc1/text", "im1t"), ("imsc1/image", "im1i"), ("imsc1.1/text", "im2t"), ("imsc1.1/image", "im2i"),
        ]
        for (designator, code) in designators where text.contains("http://www.w3.org/ns/ttml/profile/" + designator) {
            return "stpp.ttml." + code
        }
        return "stpp"
    }

    /// `mp4a.40.<audio object type>` (ISO/IEC 14496-3 §1.5.1.1): 2 = AAC-LC, 5 = HE-AAC (SBR),
    /// 29 = HE-AACv2 (PS), 34 = MP3 as HLS writes it.
    static func mp4a(objectType: Int) -> String { "mp4a.40.\(objectType)" }

    /// The audio object type signalled in an AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1),
    /// reporting explicit SBR/PS signalling (object type 5 or 29) as such.
    static func audioObjectType(audioSpecificConfig config: [UInt8]) -> Int? {
        guard config.count >= 2 else { return nil }
        var objectType = Int(config[0] >> 3)
        if objectType == 31 {
            objectType = 32 + Int((config[0] & 0x07) << 3 | config[1] >> 5)
        }
        return objectType == 0 ? nil : objectType
    }

    /// How an AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1) signals SBR: object type 5 or 29
    /// first (hierarchical), or an AAC-LC config followed by the sync extension 0x2b7 naming
    /// object type 5 with sbrPresentFlag set (backward compatible), or neither. Nil for configs
    /// other than those of HE-AAC and AAC-LC, and for an AAC-LC config with a program config
    /// element (channelConfiguration 0), whose length this does not work out.
    static func sbrSignalling(audioSpecificConfig config: [UInt8]) -> AACSBRSignalling? {
        var reader = ExpGolombReader(config)
        var consumed = 0
        func read(_ count: Int) -> UInt32? {
            consumed += count
            return reader.bits(count)
        }
        guard var objectType = read(5) else { return nil }
        if objectType == 31 { objectType = (read(6) ?? 0) + 32 }
        guard let frequencyIndex = read(4) else { return nil }
        if frequencyIndex == 0x0F, read(24) == nil { return nil }
        guard let channelConfiguration = read(4) else { return nil }
        if objectType == 5 || objectType == 29 { return .hierarchical }
        // GASpecificConfig of AAC-LC (§4.4.1): frameLengthFlag, dependsOnCoreCoder (and its
        // 14-bit delay), extensionFlag (0 for object type 2).
        guard objectType == 2, channelConfiguration != 0, read(1) != nil, let dependsOnCore = read(1) else {
            return nil
        }
        if dependsOnCore == 1, read(14) == nil { return nil }
        guard read(1) == 0 else { return nil }
        // The sync extension, when at least 16 bits are left (§1.6.2.1, Table 1.15).
        guard config.count * 8 - consumed >= 16, read(11) == 0x2B7, read(5) == 5 else { return .notSignalled }
        return read(1) == 1 ? .backwardCompatible : .notSignalled
    }

    /// Facts from an ADTS header (ISO/IEC 13818-7 §6.2): profile, sample rate, channels.
    struct ADTSFacts: Equatable {
        var objectType: Int
        var sampleRate: Int?
        var channels: Int?
    }

    static let aacSampleRates = [
        96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
    ]

    static func adts(_ header: ArraySlice<UInt8>) -> ADTSFacts? {
        guard header.count >= 7 else { return nil }
        let b = Array(header.prefix(7))
        guard b[0] == 0xFF, b[1] & 0xF6 == 0xF0 else { return nil }
        let objectType = Int(b[2] >> 6) + 1
        let rateIndex = Int(b[2] >> 2 & 0x0F)
        let channelConfig = Int((b[2] & 0x01) << 2 | b[3] >> 6)
        return ADTSFacts(
            objectType: objectType,
            sampleRate: rateIndex < aacSampleRates.count ? aacSampleRates[rateIndex] : nil,
            channels: channelConfig == 0 ? nil : (channelConfig == 7 ? 8 : channelConfig)
        )
    }

    /// `avc1.PPCCLL` from the three bytes after the NAL header of an SPS
    /// (ISO/IEC 14496-15 §3.3.1 / RFC 6381 §3.3): profile_idc, constraint flags, level_idc.
    static func avc1(profile: UInt8, constraints: UInt8, level: UInt8) -> String {
        "avc1." + hex2(profile) + hex2(constraints) + hex2(level)
    }

    /// From extradata: an AVCDecoderConfigurationRecord (starts with version 1) or Annex B.
    static func avc1(extradata: [UInt8]) -> String? {
        if extradata.count >= 4, extradata[0] == 1 {
            return avc1(profile: extradata[1], constraints: extradata[2], level: extradata[3])
        }
        return avc1(annexB: extradata[...])
    }

    /// From an Annex B byte stream (TS video): the first SPS (NAL type 7).
    static func avc1(annexB bytes: ArraySlice<UInt8>) -> String? {
        for nal in annexBUnits(bytes) where nal.count >= 4 && nal[nal.startIndex] & 0x1F == 7 {
            let i = nal.startIndex
            return avc1(profile: nal[i + 1], constraints: nal[i + 2], level: nal[i + 3])
        }
        return nil
    }

    /// `hvc1.<space><profile>.<compat>.<tier><level>[.<constraint bytes>]` (ISO/IEC 14496-15
    /// Annex E.3) from the 12-byte general profile_tier_level block.
    static func hevc(sampleEntry: String, profileTierLevel p: [UInt8]) -> String? {
        guard p.count >= 12 else { return nil }
        let space = ["", "A", "B", "C"][Int(p[0] >> 6)]
        let tier = p[0] & 0x20 != 0 ? "H" : "L"
        let profile = Int(p[0] & 0x1F)
        let compat = UInt32(p[1]) << 24 | UInt32(p[2]) << 16 | UInt32(p[3]) << 8 | UInt32(p[4])
        var reversed: UInt32 = 0
        for bit in 0..<32 where compat & (1 << bit) != 0 { reversed |= 1 << (31 - bit) }
        var constraints = Array(p[5..<11])
        while let last = constraints.last, last == 0 { constraints.removeLast() }
        var parts = [
            sampleEntry, "\(space)\(profile)", String(reversed, radix: 16, uppercase: true), "\(tier)\(p[11])",
        ]
        parts += constraints.map { String($0, radix: 16, uppercase: true) }
        return parts.joined(separator: ".")
    }

    /// From extradata: an HEVCDecoderConfigurationRecord (version 1) or Annex B parameter sets.
    static func hevc(sampleEntry: String, extradata: [UInt8]) -> String? {
        if extradata.count >= 13, extradata[0] == 1 {
            return hevc(sampleEntry: sampleEntry, profileTierLevel: Array(extradata[1..<13]))
        }
        return hevc(sampleEntry: sampleEntry, annexB: extradata[...])
    }

    /// From Annex B: the first SPS (NAL type 33); its PTL follows the 2-byte NAL header and
    /// one byte of vps id / max sub layers / nesting flag (H.265 §7.3.2.2).
    static func hevc(sampleEntry: String, annexB bytes: ArraySlice<UInt8>) -> String? {
        for nal in annexBUnits(bytes) where nal.count >= 2 && (nal[nal.startIndex] >> 1) & 0x3F == 33 {
            let payload = removingEmulationPrevention(nal.dropFirst(2).prefix(20))
            guard payload.count >= 13 else { return nil }
            return hevc(sampleEntry: sampleEntry, profileTierLevel: Array(payload[1..<13]))
        }
        return nil
    }

    /// The 12-byte general profile_tier_level block (ITU-T H.265 §7.3.3) from an
    /// HEVCDecoderConfigurationRecord or, in Annex B, from the first SPS.
    static func hevcProfileTierLevel(extradata: [UInt8]) -> [UInt8]? {
        if extradata.count >= 13, extradata[0] == 1 { return Array(extradata[1..<13]) }
        return hevcProfileTierLevel(annexB: extradata[...])
    }

    static func hevcProfileTierLevel(annexB bytes: ArraySlice<UInt8>) -> [UInt8]? {
        for nal in annexBUnits(bytes) where nal.count >= 2 && (nal[nal.startIndex] >> 1) & 0x3F == 33 {
            let payload = removingEmulationPrevention(nal.dropFirst(2).prefix(20))
            return payload.count >= 13 ? Array(payload[1..<13]) : nil
        }
        return nil
    }

    /// `av01.<profile>.<level><tier>.<bit depth>` (AV1 Codec ISO Media File Format Binding
    /// §5 "Codecs Parameter String") from an AV1CodecConfigurationRecord (marker and version
    /// 0x81, then seq_profile and seq_level_idx_0, then tier, high_bitdepth and twelve_bit).
    static func av01(configuration c: [UInt8]) -> String? {
        guard c.count >= 4, c[0] == 0x81 else { return nil }
        let profile = Int(c[1] >> 5), level = Int(c[1] & 0x1F)
        let tier = c[2] & 0x80 != 0 ? "H" : "M"
        let depth = c[2] & 0x40 == 0 ? 8 : (profile == 2 && c[2] & 0x20 != 0 ? 12 : 10)
        return "av01.\(profile).\(level < 10 ? "0" : "")\(level)\(tier).\(depth < 10 ? "0" : "")\(depth)"
    }

    /// NAL units of an Annex B stream (start codes 00 00 01 / 00 00 00 01), without start codes.
    static func annexBUnits(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var starts: [Int] = []
        var i = bytes.startIndex
        while i + 2 < bytes.endIndex {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                starts.append(i + 3)
                i += 3
            } else {
                i += 1
            }
        }
        var units: [ArraySlice<UInt8>] = []
        for (n, start) in starts.enumerated() {
            var end = n + 1 < starts.count ? starts[n + 1] - 3 : bytes.endIndex
            while end > start, bytes[end - 1] == 0 { end -= 1 }
            if end > start { units.append(bytes[start..<end]) }
        }
        return units
    }

    static func removingEmulationPrevention(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }

    private static func hex2(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
