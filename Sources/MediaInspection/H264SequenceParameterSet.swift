/// The picture size, field coding and colour description from an H.264 sequence parameter set
/// (ITU-T H.264 §7.3.2.1.1, cropping per §7.4.2.1.1, VUI per Annex E.1.1). Without
/// `avformat_find_stream_info` libavformat leaves video width/height at 0, and in MPEG-TS it
/// never decodes a frame, so it never learns the colour description either; reading the SPS at
/// the start of the first keyframe gives them for free.
struct H264SequenceParameterSet: Equatable {
    var width: Int
    var height: Int
    /// frame_mbs_only_flag: false when the stream may code fields (PAFF or MBAFF), which is how
    /// H.264 carries interlaced video (§7.4.2.1.1).
    var framesOnly = true
    /// The VUI's colour description (Annex E.2.1, code points of ITU-T H.273); nil when absent.
    var colourPrimaries: Int?
    var transferCharacteristics: Int?

    /// `nal` starts with the NAL header byte (type 7), emulation prevention still in place.
    init?(nal: ArraySlice<UInt8>) {
        guard nal.count >= 4, nal[nal.startIndex] & 0x1F == 7 else { return nil }
        var bits = ExpGolombReader(CodecStringBuilder.removingEmulationPrevention(nal.dropFirst()))
        guard let parsed = Self.parse(&bits) else { return nil }
        self = parsed
    }

    /// From extradata (AVCDecoderConfigurationRecord or Annex B) or an Annex B access unit.
    init?(extradataOrAnnexB bytes: [UInt8]) {
        if bytes.count >= 8, bytes[0] == 1, bytes[5] & 0x1F > 0 {
            // avcC (ISO/IEC 14496-15 §5.3.3.1): numOfSequenceParameterSets, then length + NAL.
            let length = Int(bytes[6]) << 8 | Int(bytes[7])
            guard 8 + length <= bytes.count else { return nil }
            self.init(nal: bytes[8..<(8 + length)])
            return
        }
        for nal in CodecStringBuilder.annexBUnits(bytes[...]) where nal.first.map({ $0 & 0x1F == 7 }) == true {
            self.init(nal: nal)
            return
        }
        return nil
    }

    private static let highProfiles: Set<UInt32> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    private init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    private static func parse(_ r: inout ExpGolombReader) -> H264SequenceParameterSet? {
        guard let profile = r.bits(8), r.bits(16) != nil, r.ue() != nil else { return nil }
        var chromaFormat: UInt32 = 1
        var separateColourPlanes = false
        if highProfiles.contains(profile) {
            guard let chroma = r.ue() else { return nil }
            chromaFormat = chroma
            if chroma == 3 { separateColourPlanes = r.bits(1) == 1 }
            guard r.ue() != nil, r.ue() != nil, r.bits(1) != nil, let scaling = r.bits(1) else { return nil }
            if scaling == 1 {
                for list in 0..<(chromaFormat == 3 ? 12 : 8) where r.bits(1) == 1 {
                    guard skipScalingList(&r, size: list < 6 ? 16 : 64) else { return nil }
                }
            }
        }
        guard r.ue() != nil, let pocType = r.ue() else { return nil }
        if pocType == 0 {
            guard r.ue() != nil else { return nil }
        } else if pocType == 1 {
            guard r.bits(1) != nil, r.se() != nil, r.se() != nil, let cycle = r.ue(), cycle < 256 else { return nil }
            for _ in 0..<cycle { guard r.se() != nil else { return nil } }
        }
        guard r.ue() != nil, r.bits(1) != nil, let widthMBs = r.ue(), let heightUnits = r.ue(),
            let frameMBsOnly = r.bits(1)
        else { return nil }
        if frameMBsOnly == 0 { guard r.bits(1) != nil else { return nil } }
        guard r.bits(1) != nil, let cropping = r.bits(1) else { return nil }
        var crop: [Int] = [0, 0, 0, 0]
        if cropping == 1 {
            for i in 0..<4 {
                guard let value = r.ue() else { return nil }
                crop[i] = Int(value)
            }
        }
        let heightFactor = 2 - Int(frameMBsOnly)
        let arrayType = separateColourPlanes ? 0 : chromaFormat
        let subWidth = arrayType == 1 || arrayType == 2 ? 2 : 1
        let subHeight = arrayType == 1 ? 2 : 1
        let cropX = arrayType == 0 ? 1 : subWidth
        let cropY = (arrayType == 0 ? 1 : subHeight) * heightFactor
        let width = (Int(widthMBs) + 1) * 16 - cropX * (crop[0] + crop[1])
        let height = heightFactor * (Int(heightUnits) + 1) * 16 - cropY * (crop[2] + crop[3])
        guard width > 0, height > 0, width <= 16384, height <= 16384 else { return nil }
        var parameters = H264SequenceParameterSet(width: width, height: height)
        parameters.framesOnly = frameMBsOnly == 1
        // A VUI cut short leaves the colour unknown, not the size.
        if r.bits(1) == 1 { readColourDescription(&r, into: &parameters) }
        return parameters
    }

    /// vui_parameters() up to the colour description (Annex E.1.1).
    private static func readColourDescription(
        _ r: inout ExpGolombReader, into parameters: inout H264SequenceParameterSet
    ) {
        if r.bits(1) == 1 {
            // aspect_ratio_idc 255 is Extended_SAR: two 16-bit numbers follow.
            guard let idc = r.bits(8) else { return }
            if idc == 255 { guard r.bits(32) != nil else { return } }
        }
        if r.bits(1) == 1 { guard r.bits(1) != nil else { return } }
        // video_signal_type_present_flag: video_format, video_full_range_flag, then the colour.
        guard r.bits(1) == 1, r.bits(4) != nil, r.bits(1) == 1,
            let primaries = r.bits(8), let transfer = r.bits(8)
        else { return }
        parameters.colourPrimaries = Int(primaries)
        parameters.transferCharacteristics = Int(transfer)
    }

    private static func skipScalingList(_ r: inout ExpGolombReader, size: Int) -> Bool {
        var last: Int32 = 8, next: Int32 = 8
        for _ in 0..<size {
            if next != 0 {
                guard let delta = r.se() else { return false }
                next = (last + delta + 256) % 256
            }
            last = next == 0 ? last : next
        }
        return true
    }
}

/// MSB-first bit reader with Exp-Golomb codes (H.264 §9.1); nil when the data runs out.
struct ExpGolombReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func bits(_ count: Int) -> UInt32? {
        guard count <= 32, position + count <= bytes.count * 8 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<count {
            let bit = bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1
            value = value << 1 | UInt32(bit)
            position += 1
        }
        return value
    }

    mutating func ue() -> UInt32? {
        var zeros = 0
        while true {
            guard let bit = bits(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            if zeros > 31 { return nil }
        }
        guard let suffix = bits(zeros) else { return nil }
        return UInt32((UInt64(1) << zeros) - 1 + UInt64(suffix))
    }

    mutating func se() -> Int32? {
        guard let code = ue() else { return nil }
        let magnitude = Int32(truncatingIfNeeded: (UInt64(code) + 1) / 2)
        return code & 1 == 1 ? magnitude : -magnitude
    }
}
