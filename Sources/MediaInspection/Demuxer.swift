package import CFFmpeg
package import MediaFormats

/// What libavformat tells about a segment: tracks, durations from packet timestamps, problems.
struct DemuxResult: Sendable {
    var tracks: [TrackFacts] = []
    var duration: Double?
    var firstPTS: Double?
    var problem: String?
    var videoStartsWithKeyframe: Bool?
    var keyframeHasParameterSets: Bool?
}

/// Owns one `AVFormatContext` opened over a ``ReaderInput``; closes it in `deinit`.
/// Lives inside one synchronous call, so its pointers never cross a task boundary.
package final class Demuxer {
    private let input: ReaderInput
    private let container: SegmentContainer
    package private(set) var format: UnsafeMutablePointer<AVFormatContext>?

    /// Why the bytes stopped coming (an I/O error, a file that shrank), if they did.
    var readFailure: ByteReadError? { input.failure }

    package init(
        source: any RandomAccessBytes, container: SegmentContainer, gauge: BufferGauge? = nil, feed: ScanFeed? = nil
    ) throws(LibAVError) {
        input = try ReaderInput(source, gauge: gauge, feed: feed)
        self.container = container
        guard let context = avformat_alloc_context() else {
            throw LibAV.nullResult("avformat_alloc_context")
        }
        context.pointee.pb = input.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // Forcing the demuxer skips probing, which behind a 20 KiB ID3 tag costs ~1 ms
        // (design.md §7). `.unknown` falls back to libav's own probing.
        let inputFormat = container == .unknown ? nil : av_find_input_format(container.rawValue)
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        // On failure avformat_open_input frees the context and sets it to NULL.
        let result = avformat_open_input(&opened, nil, inputFormat, nil)
        format = opened
        try LibAV.check("avformat_open_input", result)
    }

    deinit {
        avformat_close_input(&format)
    }

    /// `maximumPixels` bounds every decoder `avformat_find_stream_info` opens: it decodes an
    /// attached picture (an ID3 APIC) to learn its size, and a 69-byte PNG declaring
    /// 16000 × 16000 would otherwise cost 800 MB.
    ///
    /// In MPEG-TS, H.264 and HEVC frames are not decoded (unless `decodingVideo`): their
    /// decoder is allowed one pixel, so it stops at its first frame buffer, before any
    /// macroblock. Nothing the facts hold comes from that decoding: libavformat's parsers fill
    /// size, pixel format, profile and level, packets carry their own timestamps, and the codec
    /// string comes from the parameter sets. libavformat would otherwise decode at least seven
    /// frames to guess the reordering delay: for 1080p, ≈ 25 ms and 9 MB of frame buffers
    /// (StreamInfoDifferentialTests compare both ways over every test segment).
    package func findStreamInfo(maximumPixels: Int = ImageHeader.defaultMaximumPixels, decodingVideo: Bool = false)
        throws(LibAVError)
    {
        guard let format else { return }
        var options = [OpaquePointer?](repeating: nil, count: Int(format.pointee.nb_streams))
        defer { for index in options.indices { av_dict_free(&options[index]) } }
        let skipsVideo = !decodingVideo && container == .mpegTS
        for index in options.indices {
            let pixels = skipsVideo && format.pointee.streams[index].map(Self.isParsedVideo) == true ? 1 : maximumPixels
            av_dict_set(&options[index], "max_pixels", String(pixels), 0)
        }
        let result = options.withUnsafeMutableBufferPointer { buffer in
            avformat_find_stream_info(format, buffer.baseAddress)
        }
        try LibAV.check("avformat_find_stream_info", result)
    }

    /// H.264 or HEVC video whose facts libavformat's parser gives (not a cover picture).
    private static func isParsedVideo(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        guard let parameters = stream.pointee.codecpar?.pointee, parameters.codec_type == AVMEDIA_TYPE_VIDEO,
            stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        else { return false }
        return parameters.codec_id == AV_CODEC_ID_H264 || parameters.codec_id == AV_CODEC_ID_HEVC
    }

    /// Reads every packet, then describes the streams. A read error ends the scan and becomes
    /// the problem; what was read before it still counts.
    func scan() -> DemuxResult {
        var result = DemuxResult()
        guard let format else { return result }
        var stats: [Int: PacketStats] = [:]
        guard let packet = av_packet_alloc() else {
            result.problem = LibAV.nullResult("av_packet_alloc").description
            return result
        }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }

        while true {
            let status = av_read_frame(format, packet)
            if status == hls_averror_eof() { break }
            do {
                try LibAV.check("av_read_frame", status)
            } catch {
                result.problem = error.description
                break
            }
            stats[Int(packet.pointee.stream_index), default: PacketStats()].add(packet.pointee)
            av_packet_unref(packet)
        }

        let streamCount = Int(format.pointee.nb_streams)
        for index in 0..<streamCount {
            guard let stream = format.pointee.streams[index] else { continue }
            let track = describe(stream: stream, stats: stats[index] ?? PacketStats())
            result.tracks.append(track)
            guard track.kind == .audio || track.kind == .video else { continue }
            if let duration = track.duration, duration > (result.duration ?? -1) {
                result.duration = duration
            }
            if let first = stats[index]?.firstPTS(timeBase: stream.pointee.time_base) {
                result.firstPTS = min(result.firstPTS ?? first, first)
            }
            if track.kind == .video, result.videoStartsWithKeyframe == nil, let videoStats = stats[index],
                videoStats.count > 0
            {
                result.videoStartsWithKeyframe = videoStats.firstPacketIsKeyframe
                result.keyframeHasParameterSets = inBandParameterSets(
                    codec: stream.pointee.codecpar?.pointee.codec_id, keyframe: videoStats.firstKeyframe)
            }
        }
        // A subtitle rendition's segments hold subtitles alone (IMSC in fMP4).
        if result.problem == nil,
            !result.tracks.contains(where: { [.audio, .video, .subtitles].contains($0.kind) && $0.packetCount > 0 })
        {
            result.problem = "no audio, video or subtitle packets found"
        }
        return result
    }

    private func describe(stream: UnsafeMutablePointer<AVStream>, stats: PacketStats) -> TrackFacts {
        guard let parameters = stream.pointee.codecpar?.pointee else {
            return TrackFacts(kind: .other, codecName: "none", packetCount: stats.count)
        }
        let codecName = LibAV.string(avcodec_get_name(parameters.codec_id)) ?? "unknown"
        var track = TrackFacts(kind: .other, codecName: codecName, packetCount: stats.count)
        let extradata: [UInt8] =
            parameters.extradata.map {
                Array(UnsafeBufferPointer(start: $0, count: Int(max(0, parameters.extradata_size))))
            } ?? []

        switch parameters.codec_type {
        case AVMEDIA_TYPE_AUDIO:
            describeAudio(&track, parameters, extradata: extradata, stats: stats)
        case AVMEDIA_TYPE_VIDEO:
            describeVideo(&track, stream, parameters, extradata: extradata, stats: stats)
        case AVMEDIA_TYPE_DATA where parameters.codec_id == AV_CODEC_ID_TIMED_ID3:
            track.kind = .timedMetadata
        case AVMEDIA_TYPE_DATA where fourCC(parameters.codec_tag) == "stpp":
            // IMSC subtitles in fMP4 (bis-22 §3): libavformat 5.1 reads the stpp sample entry
            // as a data track of no known codec. The TTML document of its first sample names the
            // IMSC profile; the codec string then names it too (TTML profile registry).
            track.kind = .subtitles
            track.codecName = "ttml"
            track.codecString = CodecStringBuilder.stpp(
                firstDocument: stats.firstKeyframe.isEmpty ? stats.firstPacketPrefix : stats.firstKeyframe)
        case AVMEDIA_TYPE_SUBTITLE:
            track.kind = .subtitles
        default:
            break
        }
        // An embedded cover (MP3/ADTS leading ID3 APIC) shows up as a one-frame "video" stream;
        // it must not make an audio-only segment look like video.
        if stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
            track.kind = .attachedPicture
        }
        track.duration = stats.duration(
            timeBase: stream.pointee.time_base, frameDuration: frameDuration(of: track, codec: parameters.codec_id))
        if track.kind == .video { track.frameRate = stats.frameRate(timeBase: stream.pointee.time_base) }
        track.id = Int(stream.pointee.id)
        track.startTime = stats.firstPTS(timeBase: stream.pointee.time_base)
        // An ISO BMFF track's time base is 1/timescale (the decode times come from the boxes).
        let timeBase = stream.pointee.time_base
        if container == .fragmentedMP4, timeBase.num == 1, timeBase.den > 0 {
            track.decodeTimeScale = Int(timeBase.den)
        }
        return track
    }

    /// An audio track's channels, rate and codec string: from the codec parameters, the
    /// AudioSpecificConfig, or the first ADTS header, in that order.
    private func describeAudio(
        _ track: inout TrackFacts, _ parameters: AVCodecParameters, extradata: [UInt8], stats: PacketStats
    ) {
        track.kind = .audio
        track.channels = positive(parameters.ch_layout.nb_channels)
        track.sampleRate = positive(parameters.sample_rate)
        if parameters.ch_layout.order == AV_CHANNEL_ORDER_NATIVE, parameters.ch_layout.u.mask != 0 {
            track.channelMask = parameters.ch_layout.u.mask
        }
        let adts = CodecStringBuilder.adts(stats.firstPacketPrefix[...])
        switch parameters.codec_id {
        case AV_CODEC_ID_AAC:
            let objectType =
                aacObjectType(profile: parameters.profile)
                ?? CodecStringBuilder.audioObjectType(audioSpecificConfig: extradata)
                ?? adts?.objectType
            track.codecString = objectType.map(CodecStringBuilder.mp4a(objectType:))
            if !extradata.isEmpty {
                track.sbrSignalling = CodecStringBuilder.sbrSignalling(audioSpecificConfig: extradata)
                // The decoder turns the profile to HE-AAC (v2) when a frame carries SBR
                // data the config did not announce (ISO/IEC 14496-3 §1.6.5, implicit
                // signalling); only frames avformat_find_stream_info decoded say so.
                if track.sbrSignalling == .notSignalled,
                    parameters.profile == FF_PROFILE_AAC_HE || parameters.profile == FF_PROFILE_AAC_HE_V2
                {
                    track.sbrSignalling = .implicit
                    // What the sample entry says, as for the segments whose frames are not
                    // decoded: the same track must not look like another codec and rate
                    // from one segment to the next.
                    track.codecString = CodecStringBuilder.mp4a(objectType: 2)
                    if extradata.count >= 2 {
                        let index = Int(extradata[0] & 0x07) << 1 | Int(extradata[1] >> 7)
                        let rates = CodecStringBuilder.aacSampleRates
                        track.sampleRate = index < rates.count ? rates[index] : track.sampleRate
                        // Implicit parametric stereo makes mono stereo in the decoder.
                        let channels = Int(extradata[1] >> 3 & 0x0F)
                        if (1...7).contains(channels) { track.channels = channels == 7 ? 8 : channels }
                    }
                }
            }
            track.channels = track.channels ?? adts?.channels
            track.sampleRate = track.sampleRate ?? adts?.sampleRate
        case AV_CODEC_ID_MP3: track.codecString = CodecStringBuilder.mp4a(objectType: 34)
        case AV_CODEC_ID_AC3: track.codecString = "ac-3"
        case AV_CODEC_ID_EAC3: track.codecString = "ec-3"
        case AV_CODEC_ID_OPUS: track.codecString = "Opus"
        case AV_CODEC_ID_FLAC: track.codecString = "fLaC"
        default: break
        }
    }

    /// A video track's size, colour, scan and codec string: from the codec parameters, then the
    /// parameter sets of the extradata or the first keyframe, which say it for every segment.
    private func describeVideo(
        _ track: inout TrackFacts, _ stream: UnsafeMutablePointer<AVStream>, _ parameters: AVCodecParameters,
        extradata: [UInt8], stats: PacketStats
    ) {
        track.kind = .video
        track.width = positive(parameters.width)
        track.height = positive(parameters.height)
        // What libavcodec learnt (a colr box, or the frames avformat_find_stream_info
        // decoded); the parameter sets below say it for every segment, where they are read.
        track.transferCharacteristics = Self.codePoint(parameters.color_trc.rawValue)
        track.colourPrimaries = Self.codePoint(parameters.color_primaries.rawValue)
        switch parameters.field_order {
        case AV_FIELD_TT, AV_FIELD_BB, AV_FIELD_TB, AV_FIELD_BT: track.interlaced = true
        case AV_FIELD_PROGRESSIVE: track.interlaced = false
        default: break
        }
        track.dolbyVision = Self.dolbyVision(stream)
        if parameters.format >= 0, let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: parameters.format)) {
            track.bitDepth = positive(Int32(descriptor.pointee.comp.0.depth))
        }
        switch parameters.codec_id {
        case AV_CODEC_ID_H264:
            track.codecString =
                (CodecStringBuilder.avc1(extradata: extradata)
                ?? CodecStringBuilder.avc1(annexB: stats.firstKeyframe[...]))
                // An fMP4 sample entry avc3 (parameter sets in band, ISO/IEC 14496-15 §5.4.2).
                .map { fourCC(parameters.codec_tag) == "avc3" ? "avc3" + $0.dropFirst(4) : $0 }
            if let sps = H264SequenceParameterSet(extradataOrAnnexB: extradata)
                ?? H264SequenceParameterSet(extradataOrAnnexB: stats.firstKeyframe)
            {
                if track.width == nil || track.height == nil {
                    track.width = sps.width
                    track.height = sps.height
                }
                // A stream that may code fields is interlaced video (ITU-T H.264 §7.4.2.1.1).
                if !sps.framesOnly { track.interlaced = true }
                track.interlaced = track.interlaced ?? false
                track.transferCharacteristics =
                    sps.transferCharacteristics.flatMap(Self.codePoint) ?? track.transferCharacteristics
                track.colourPrimaries = sps.colourPrimaries.flatMap(Self.codePoint) ?? track.colourPrimaries
            }
        case AV_CODEC_ID_HEVC:
            let entry = fourCC(parameters.codec_tag) == "hev1" ? "hev1" : "hvc1"
            track.codecString =
                CodecStringBuilder.hevc(sampleEntry: entry, extradata: extradata)
                ?? CodecStringBuilder.hevc(sampleEntry: entry, annexB: stats.firstKeyframe[...])
            // general_progressive_source_flag and general_interlaced_source_flag
            // (ITU-T H.265 §7.4.4): interlaced alone is interlaced video.
            if let ptl = CodecStringBuilder.hevcProfileTierLevel(extradata: extradata)
                ?? CodecStringBuilder.hevcProfileTierLevel(annexB: stats.firstKeyframe[...])
            {
                let progressive = ptl[5] & 0x80 != 0, interlaced = ptl[5] & 0x40 != 0
                if interlaced && !progressive { track.interlaced = true }
                track.interlaced = track.interlaced ?? false
            }
            track.hdrStaticMetadata = HDRStaticMetadata.hevc(
                extradata: extradata, keyframe: stats.firstKeyframe, annexB: container != .fragmentedMP4,
                fromBoxes: Self.staticMetadataBoxes(stream))
        case AV_CODEC_ID_AV1:
            track.codecString = CodecStringBuilder.av01(configuration: extradata)
        default: break
        }
    }

    /// Seconds per packet for audio codecs with a constant frame size, used when the demuxer
    /// gave no timestamps (raw ADTS without stream info).
    private func frameDuration(of track: TrackFacts, codec: AVCodecID) -> Double? {
        guard track.kind == .audio, let sampleRate = track.sampleRate else { return nil }
        let samples: Int
        switch codec {
        case AV_CODEC_ID_AAC:
            samples = track.codecString == "mp4a.40.5" || track.codecString == "mp4a.40.29" ? 2048 : 1024
        case AV_CODEC_ID_AC3, AV_CODEC_ID_EAC3: samples = 1536
        case AV_CODEC_ID_MP3: samples = sampleRate >= 32000 ? 1152 : 576
        default: return nil
        }
        return Double(samples) / Double(sampleRate)
    }

    private func aacObjectType(profile: Int32) -> Int? {
        switch profile {
        case FF_PROFILE_AAC_LOW: return 2
        case FF_PROFILE_AAC_HE: return 5
        case FF_PROFILE_AAC_HE_V2: return 29
        default: return nil
        }
    }

    private func positive(_ value: Int32) -> Int? { value > 0 ? Int(value) : nil }

    /// An ITU-T H.273 colour code point that says something: 0 and 3 are reserved, 2 is
    /// "unspecified", and values past 255 are libavutil's own.
    private static func codePoint<Value: BinaryInteger>(_ value: Value) -> Int? {
        let value = Int(value)
        return value == 0 || value == 2 || value == 3 || value > 255 ? nil : value
    }

    /// The Dolby Vision configuration libavformat attached to the stream (from a dvcC/dvvC box
    /// or a DOVI video stream descriptor).
    private static func dolbyVision(_ stream: UnsafeMutablePointer<AVStream>) -> DolbyVisionConfiguration? {
        guard let sideData = stream.pointee.side_data else { return nil }
        for index in 0..<Int(max(0, stream.pointee.nb_side_data)) {
            let entry = sideData[index]
            guard entry.type == AV_PKT_DATA_DOVI_CONF, let data = entry.data,
                entry.size >= MemoryLayout<AVDOVIDecoderConfigurationRecord>.size
            else { continue }
            let record = UnsafeRawPointer(data).loadUnaligned(as: AVDOVIDecoderConfigurationRecord.self)
            return DolbyVisionConfiguration(
                profile: Int(record.dv_profile), level: Int(record.dv_level),
                compatibility: Int(record.dv_bl_signal_compatibility_id))
        }
        return nil
    }

    /// The HDR10 static metadata libavformat read from an ISO BMFF sample entry (`mdcv` and
    /// `clli` boxes, or QuickTime's `SmDm` and `CoLL`) into the stream's side data.
    private static func staticMetadataBoxes(_ stream: UnsafeMutablePointer<AVStream>) -> HDRStaticMetadata {
        var result = HDRStaticMetadata(masteringDisplay: false, contentLightLevel: false)
        guard let sideData = stream.pointee.side_data else { return result }
        for index in 0..<Int(max(0, stream.pointee.nb_side_data)) {
            switch sideData[index].type {
            case AV_PKT_DATA_MASTERING_DISPLAY_METADATA: result.masteringDisplay = true
            case AV_PKT_DATA_CONTENT_LIGHT_LEVEL: result.contentLightLevel = true
            default: break
            }
        }
        return result
    }

    /// Whether an Annex B keyframe starts with the parameter sets a decoder needs (H.264: SPS and
    /// PPS, ITU-T H.264 §7.4.1.2.3; HEVC: VPS, SPS and PPS). Nil when the codec is neither, or
    /// when the parameter sets are out of band (length-prefixed samples from fMP4: no start code).
    private func inBandParameterSets(codec: AVCodecID?, keyframe: [UInt8]) -> Bool? {
        let required: Set<Int>
        let nalType: (UInt8) -> Int
        switch codec {
        case AV_CODEC_ID_H264?: (required, nalType) = ([7, 8], { Int($0 & 0x1F) })
        case AV_CODEC_ID_HEVC?: (required, nalType) = ([32, 33, 34], { Int($0 >> 1 & 0x3F) })
        default: return nil
        }
        guard keyframe.starts(with: [0, 0, 1]) || keyframe.starts(with: [0, 0, 0, 1]) else { return nil }
        var found: Set<Int> = []
        var index = 0
        while index + 3 < keyframe.count {
            if keyframe[index] == 0, keyframe[index + 1] == 0, keyframe[index + 2] == 1 {
                found.insert(nalType(keyframe[index + 3]))
                index += 3
            } else {
                index += 1
            }
        }
        return required.isSubset(of: found)
    }

    private func fourCC(_ tag: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: tag >> (8 * $0)) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Per-stream packet timestamps, in the stream's time base.
private struct PacketStats {
    var count = 0
    var minPTS: Int64?
    var maxPTS: Int64?
    var maxEnd: Int64?
    /// Packet index (0-based) of the first and of the last packet that carried a timestamp.
    var firstStampedIndex: Int?
    var lastStampedIndex: Int?
    var firstStamp: Int64?
    var lastStamp: Int64?
    /// Packets that carried a timestamp.
    var stampedCount = 0
    /// First bytes of the first packet (an ADTS header for AAC in TS / packed audio).
    var firstPacketPrefix: [UInt8] = []
    /// Start of the first keyframe (SPS/PPS for H.264/HEVC in TS when extradata is empty).
    var firstKeyframe: [UInt8] = []
    /// Whether the first packet of the stream is flagged as a keyframe.
    var firstPacketIsKeyframe = false

    mutating func add(_ packet: AVPacket) {
        if count == 0 { firstPacketIsKeyframe = packet.flags & AV_PKT_FLAG_KEY != 0 }
        if count == 0, let data = packet.data {
            firstPacketPrefix = Array(UnsafeBufferPointer(start: data, count: min(16, Int(max(0, packet.size)))))
        }
        if firstKeyframe.isEmpty, packet.flags & AV_PKT_FLAG_KEY != 0, let data = packet.data {
            firstKeyframe = Array(UnsafeBufferPointer(start: data, count: min(4096, Int(max(0, packet.size)))))
        }
        defer { count += 1 }
        let timestamp = packet.pts != hls_av_nopts_value() ? packet.pts : packet.dts
        guard timestamp != hls_av_nopts_value() else { return }
        minPTS = min(minPTS ?? timestamp, timestamp)
        maxPTS = max(maxPTS ?? timestamp, timestamp)
        let end = timestamp + max(0, packet.duration)
        maxEnd = max(maxEnd ?? end, end)
        if firstStampedIndex == nil {
            firstStampedIndex = count
            firstStamp = timestamp
        }
        lastStampedIndex = count
        lastStamp = timestamp
        stampedCount += 1
    }

    /// Frames per second from the presentation timestamps, as a ratio in the time base (as
    /// ffprobe's `avg_frame_rate`): n stamped frames span n − 1 frame intervals from the
    /// earliest timestamp to the latest, in whatever order they are decoded (B-frames), so a
    /// constant rate comes out exact — 25/1, 30000/1001 — without packet durations, which
    /// muxers round or leave out. Nil under two stamped frames or for a span of 0.
    func frameRate(timeBase: AVRational) -> Double? {
        guard let minPTS, let maxPTS, stampedCount > 1, maxPTS > minPTS, timeBase.num > 0, timeBase.den > 0 else {
            return nil
        }
        return Double(stampedCount - 1) * Double(timeBase.den) / (Double(maxPTS - minPTS) * Double(timeBase.num))
    }

    func firstPTS(timeBase: AVRational) -> Double? {
        minPTS.map { seconds($0, timeBase) }
    }

    /// max(pts + duration) − min(pts), in seconds.
    ///
    /// Without `avformat_find_stream_info` the demuxers leave gaps: TS audio carries a PTS only
    /// on the first frame of each PES packet and no packet durations; raw ADTS has no
    /// timestamps at all. The packets after the last timestamp are then counted at the average
    /// packet spacing, and a stream without timestamps falls back to `frameDuration` (seconds
    /// per packet, known for constant-frame-size audio codecs).
    func duration(timeBase: AVRational, frameDuration: Double?) -> Double? {
        guard let minPTS, let maxPTS, let maxEnd else {
            guard count > 0, let frameDuration else { return nil }
            return Double(count) * frameDuration
        }
        guard maxEnd == maxPTS else { return seconds(maxEnd - minPTS, timeBase) }
        // No durations: extrapolate from the spacing of the stamped packets.
        var end = Double(maxPTS - minPTS)
        let trailing = Double(count - (lastStampedIndex ?? count - 1))
        if let first = firstStampedIndex, let last = lastStampedIndex, let firstStamp, let lastStamp, last > first {
            end += trailing * Double(lastStamp - firstStamp) / Double(last - first)
        } else if let frameDuration {
            return seconds(maxPTS - minPTS, timeBase) + trailing * frameDuration
        }
        return end * rate(timeBase)
    }

    private func rate(_ timeBase: AVRational) -> Double {
        guard timeBase.den != 0 else { return 0 }
        return Double(timeBase.num) / Double(timeBase.den)
    }

    private func seconds(_ value: Int64, _ timeBase: AVRational) -> Double {
        Double(value) * rate(timeBase)
    }
}
