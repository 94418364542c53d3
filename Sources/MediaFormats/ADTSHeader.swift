/// The fixed and variable header of an ADTS frame (ISO/IEC 13818-7 §6.2.1 / ISO/IEC 14496-3
/// §1.A.2.2): 7 bytes, or 9 with CRC.
package struct ADTSHeader: Sendable, Hashable {
    /// 4 for MPEG-4 (ID = 0), 2 for MPEG-2 (ID = 1).
    package var mpegVersion: Int
    /// The 2-bit profile field; the MPEG-4 audio object type is `profile + 1` (1 = AAC LC).
    package var profile: UInt8
    /// sampling_frequency_index (0–15); see `sampleRate` for the rate in Hz.
    package var samplingFrequencyIndex: UInt8
    /// nil for the reserved indexes 13–15.
    package var sampleRate: Int?
    /// 0 means the channel layout is in the bitstream (a PCE); 1–7 per ISO/IEC 14496-3 table 1.19.
    package var channelConfiguration: UInt8
    /// Whole frame, header included.
    package var frameLength: Int
    /// Whether a 16-bit CRC follows the header (protection_absent = 0).
    package var hasCRC: Bool
    /// Raw data blocks in the frame (1–4); 1024 samples each.
    package var rawDataBlockCount: Int

    /// Header length in bytes: 9 with CRC, 7 without.
    package var headerLength: Int { hasCRC ? 9 : 7 }
    /// The MPEG-4 audio object type, `profile + 1` (2 = AAC LC).
    package var audioObjectType: Int { Int(profile) + 1 }

    static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    /// Parses the header at the start of `bytes`; nil without a sync word, with layer ≠ 0, or
    /// with a frame length shorter than the header itself.
    package init?(_ bytes: ArraySlice<UInt8>) {
        // Read in place: a packed-audio segment is walked header by header, ~86 frames a
        // 2-second segment, and a copy of each header cost an allocation.
        let s = bytes.startIndex
        // Syncword 0xFFF, layer 00.
        guard bytes.count >= 7, bytes[s] == 0xFF, bytes[s + 1] & 0xF6 == 0xF0 else { return nil }
        let (b1, b2, b3, b4, b5, b6) = (
            bytes[s + 1], bytes[s + 2], bytes[s + 3], bytes[s + 4], bytes[s + 5], bytes[s + 6]
        )
        mpegVersion = b1 & 0x08 == 0 ? 4 : 2
        hasCRC = b1 & 0x01 == 0
        profile = b2 >> 6
        samplingFrequencyIndex = (b2 >> 2) & 0x0F
        let index = Int(samplingFrequencyIndex)
        sampleRate = index < Self.sampleRates.count ? Self.sampleRates[index] : nil
        channelConfiguration = (b2 & 0x01) << 2 | b3 >> 6
        frameLength = Int(b3 & 0x03) << 11 | Int(b4) << 3 | Int(b5 >> 5)
        rawDataBlockCount = Int(b6 & 0x03) + 1
        guard frameLength >= (hasCRC ? 9 : 7) else { return nil }
    }
}

/// Frame sizes of AC-3 (ATSC A/52 §5.4.1, table 5.18) and E-AC-3 (A/52 Annex E §E.1.2.2)
/// sync frames, so packed audio can be walked frame by frame.
enum DolbyAudioFrame {
    private static let bitRatesKbps = [
        32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512, 576, 640,
    ]

    /// Byte length of the sync frame at the start of `bytes`, or nil if there is none.
    static func frameLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 6 else { return nil }
        let s = bytes.startIndex
        guard bytes[s] == 0x0B, bytes[s + 1] == 0x77 else { return nil }
        let bsid = bytes[s + 5] >> 3
        if bsid > 10 && bsid <= 16 {
            // E-AC-3: frmsiz (11 bits) = words per frame − 1.
            let words = (Int(bytes[s + 2] & 0x07) << 8 | Int(bytes[s + 3])) + 1
            return words * 2
        }
        guard bsid <= 10 else { return nil }
        let fscod = bytes[s + 4] >> 6
        let frmsizecod = Int(bytes[s + 4] & 0x3F)
        guard frmsizecod / 2 < bitRatesKbps.count else { return nil }
        let kbps = bitRatesKbps[frmsizecod / 2]
        let words: Int
        switch fscod {
        case 0: words = kbps * 2  // 48 kHz
        case 1: words = kbps * 1000 * 1536 / 44100 / 16 + (frmsizecod & 1)  // 44.1 kHz
        case 2: words = kbps * 3  // 32 kHz
        default: return nil
        }
        return words * 2
    }
}

/// Frame sizes of MPEG-1/2/2.5 audio Layer I–III frames (ISO/IEC 11172-3 §2.4.2.3,
/// ISO/IEC 13818-3 §2.4.2.3), so packed MP3 can be walked frame by frame.
enum MPEGAudioFrame {
    private static let mpeg1Kbps: [[Int]] = [
        [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],  // Layer I
        [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],  // Layer II
        [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],  // Layer III
    ]
    private static let mpeg2Kbps: [[Int]] = [
        [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],  // Layer I
        [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],  // Layers II and III
    ]

    /// Byte length of the frame at the start of `bytes`; nil without a valid header or for
    /// free-format frames (bitrate index 0), whose length is not in the header.
    static func frameLength(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        let s = bytes.startIndex
        let b1 = bytes[s + 1], b2 = bytes[s + 2]
        guard bytes[s] == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        let version = (b1 >> 3) & 0x03  // 0: MPEG-2.5, 2: MPEG-2, 3: MPEG-1
        let layerBits = (b1 >> 1) & 0x03  // 1: III, 2: II, 3: I
        let bitrateIndex = Int(b2 >> 4)
        let rateIndex = Int((b2 >> 2) & 0x03)
        let padding = Int((b2 >> 1) & 0x01)
        guard version != 1, layerBits != 0, (1...14).contains(bitrateIndex), rateIndex != 3 else { return nil }
        let layer = 4 - Int(layerBits)  // 1, 2 or 3
        let kbps =
            version == 3
            ? mpeg1Kbps[layer - 1][bitrateIndex - 1]
            : mpeg2Kbps[layer == 1 ? 0 : 1][bitrateIndex - 1]
        let sampleRate = [44100, 48000, 32000][rateIndex] >> (version == 3 ? 0 : version == 2 ? 1 : 2)
        let bitsPerSecond = kbps * 1000
        switch layer {
        case 1: return (12 * bitsPerSecond / sampleRate + padding) * 4
        case 2: return 144 * bitsPerSecond / sampleRate + padding
        default: return (version == 3 ? 144 : 72) * bitsPerSecond / sampleRate + padding
        }
    }
}
