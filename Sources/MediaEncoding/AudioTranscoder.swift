internal import CFFmpeg
package import MediaInspection
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
package import MediaFormats

/// One segment of the playlist the new audio comes from.
package struct AudioSourceSegment: Sendable, Hashable {
    /// Local path of the segment.
    package var path: String
    /// The segment's EXT-X-BYTERANGE in the file (a single-file variant), nil for the whole file.
    package var range: SegmentByteRange?
    /// Local path of its EXT-X-MAP initialization section (fMP4), nil otherwise.
    package var initSection: String?
    /// The EXT-X-MAP BYTERANGE in that file, nil for the whole file.
    package var initRange: SegmentByteRange?
    package var container: SegmentContainer
    /// EXT-X-DISCONTINUITY before it: the timeline may jump, the encoder starts afresh.
    package var discontinuity: Bool

    package init(
        path: String, range: SegmentByteRange? = nil, initSection: String?, initRange: SegmentByteRange? = nil,
        container: SegmentContainer, discontinuity: Bool
    ) {
        self.path = path
        self.range = range
        self.initSection = initSection
        self.initRange = initRange
        self.container = container
        self.discontinuity = discontinuity
    }

    /// "audio.ts", or "audio.ts (byte range 26508@0)": where the segment is, for messages.
    var place: String {
        range.map { "\(path) (byte range \($0.length)@\($0.offset))" } ?? path
    }
}

/// The container the new variant is written in: the one the stream already uses.
package enum AudioVariantContainer: String, Sendable, Hashable {
    /// MPEG-TS, muxed by libavformat's mpegts muxer (one muxer for all segments, so continuity
    /// counters run on; design.md §8).
    case mpegTS
    /// Packed audio: ADTS frames (the leading ID3 tag with the timestamp is added by the poster writer).
    case adts
    /// fMP4: an initialization section and one fragment per segment.
    case fragmentedMP4

    package var fileExtension: String {
        switch self {
        case .mpegTS: return "ts"
        case .adts: return "aac"
        case .fragmentedMP4: return "m4s"
        }
    }
}

/// The new audio, cut on the source's segment boundaries, before any poster.
package struct TranscodedAudio: Sendable {
    /// One container segment per source segment, in order.
    package var segments: [[UInt8]]
    /// fMP4 only: the initialization section (ftyp + moov).
    package var initSection: [UInt8]?
    /// 90 kHz PTS of each new segment's first audio frame.
    package var firstPTS: [Int64]
    /// 90 kHz PTS of each source segment's first audio packet.
    package var sourceFirstPTS: [Int64]
    package var sampleRate: Int
    package var channels: Int
    /// AAC frames written, and samples the source decoded to (after resampling).
    package var frameCount: Int
    package var sourceSampleCount: Int
    /// Bytes of the AAC frames alone in each segment (no container).
    package var frameBytes: [Int]
    /// AAC frames in each segment; every frame is written with a duration of `frameSamples`.
    package var frameCounts: [Int]
    /// RFC 6381 string of what was encoded ("mp4a.40.2").
    package var codecString: String
}

extension TranscodedAudio {
    /// Each segment's duration in seconds as its frames' timestamps give it — what a demuxer, and
    /// the checker's `extinf-drift`, measure: its frames × 1024 samples over the sample rate.
    package var durations: [Double] {
        frameCounts.map { Double($0 * AudioTranscoder.frameSamples) / Double(sampleRate) }
    }
}

/// Why the audio could not be made: names the segment and libav's own words.
package struct AudioTranscodingError: Error, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Decodes the audio of a playlist's segments with libavcodec, resamples it with libswresample
/// (planar float, the source's rate, at most two channels) and encodes AAC-LC with FFmpeg's
/// native `aac` encoder, continuously across segments (no gap or priming at each boundary); the
/// encoder starts afresh at each discontinuity. Frames are then cut on the source's boundaries:
/// a frame belongs to the segment whose first source timestamp is nearest below it (within half
/// a frame), so each new segment starts within one frame of the source's.
package enum AudioTranscoder {
    package static let frameSamples = 1024

    /// `timelineStart`: the 90 kHz time of the first segment when it is packed audio without
    /// the RFC 8216 §3.4 PRIV timestamp (its frames carry no time of their own).
    package static func transcode(
        _ sources: [AudioSourceSegment], container: AudioVariantContainer, bitRate: Int, maximumChannels: Int = 2,
        timelineStart: Int64? = nil
    ) throws(AudioTranscodingError) -> TranscodedAudio {
        LibAV.silenceLogging()
        guard !sources.isEmpty else { throw AudioTranscodingError("no segments to take the audio from") }
        var encoded = try encode(
            sources, bitRate: bitRate, maximumChannels: maximumChannels, timelineStart: timelineStart)
        do {
            switch container {
            case .adts:
                encoded.segments = encoded.packets.map { frames in
                    frames.flatMap { ADTSFraming.frame($0, config: encoded.config) }
                }
            case .mpegTS:
                encoded.segments = try LibAVMuxer.mux(encoded, format: "mpegts")
            case .fragmentedMP4:
                let (initSection, fragments) = try LibAVMuxer.muxFragmented(encoded)
                encoded.initSection = initSection
                encoded.segments = fragments
            }
        } catch {
            throw AudioTranscodingError("cannot write the new audio segments: \(error.description)")
        }
        return TranscodedAudio(
            segments: encoded.segments, initSection: encoded.initSection,
            firstPTS: encoded.packets.map { ($0.first?.pts90k(encoded.sampleRate)) ?? 0 },
            sourceFirstPTS: encoded.sourceStarts, sampleRate: encoded.sampleRate, channels: encoded.channels,
            frameCount: encoded.packets.reduce(0) { $0 + $1.count }, sourceSampleCount: encoded.sourceSamples,
            frameBytes: encoded.packets.map { $0.reduce(0) { $0 + $1.data.count } },
            frameCounts: encoded.packets.map(\.count),
            codecString: "mp4a.40.\(encoded.config.objectType)")
    }

    // MARK: - Encoding

    private static func encode(
        _ sources: [AudioSourceSegment], bitRate: Int, maximumChannels: Int, timelineStart: Int64?
    ) throws(AudioTranscodingError) -> EncodedAudio {
        var result = EncodedAudio()
        result.bitRate = bitRate
        var pipeline: Pipeline?
        var runSegments: [Int] = []
        var previousSamples = 0

        func finishRun() throws(AudioTranscodingError) {
            guard let active = pipeline else { return }
            do {
                try active.finish()
            } catch {
                throw AudioTranscodingError(
                    "\(sources[runSegments.last ?? 0].place): cannot finish encoding: \(error.description)")
            }
            result.assign(active.output, runSegments: runSegments, runStart: active.runStartSamples)
            result.sourceSamples += active.decodedSamples
            pipeline = nil
            runSegments = []
        }

        for (index, source) in sources.enumerated() {
            // Regular files only (never a FIFO), read through positioned reads as libavformat asks:
            // a segment is never held whole in memory; a byte range (a single-file variant,
            // RFC 8216 §4.3.2.2) is the region of the file it names, served by seeking.
            let bytes: any RandomAccessBytes
            do throws(RegularFileError) {
                let segment = try RegularFile(path: source.path).region(source.range.map { ($0.offset, $0.length) })
                if let initPath = source.initSection {
                    bytes = ConcatenatedBytes(
                        try RegularFile(path: initPath).region(source.initRange.map { ($0.offset, $0.length) }), segment
                    )
                } else {
                    bytes = segment
                }
            } catch {
                throw AudioTranscodingError("\(error.path): cannot read it: \(error.reason)")
            }
            if source.discontinuity || pipeline == nil { try finishRun() }
            do {
                let demuxer = try Demuxer(source: bytes, container: source.container)
                guard let format = demuxer.format else { throw LibAV.nullResult("avformat_open_input") }
                // Sample rate and channel layout (the resampler is set up from them) need a look
                // at the first frames (design.md §7).
                if pipeline == nil { try demuxer.findStreamInfo() }
                // The first audio track (av_find_best_stream needs the stream info, which only
                // the first segment of a run is probed for).
                let streamIndex =
                    (0..<Int32(format.pointee.nb_streams)).first { index in
                        format.pointee.streams[Int(index)]?.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_AUDIO
                    } ?? -1
                guard streamIndex >= 0, let stream = format.pointee.streams[Int(streamIndex)] else {
                    throw AudioTranscodingError("\(source.place): has no audio track to take the audio from")
                }
                if pipeline == nil {
                    pipeline = try Pipeline(stream: stream, bitRate: bitRate, maximumChannels: maximumChannels)
                }
                guard let active = pipeline else { continue }
                result.sampleRate = active.sampleRate
                result.channels = active.channels
                result.config = active.config
                let samplesBefore = active.decodedSamples
                var start = try active.decode(format: format, streamIndex: streamIndex, stream: stream)
                if source.container.isPackedAudio {
                    // Packed audio's frames start at 0 in every file: its time is the PRIV
                    // timestamp, or follows from the segment before (RFC 8216 §3.4).
                    let previous = result.sourceStarts.last.map {
                        $0 + Int64(previousSamples) * 90_000 / Int64(active.sampleRate)
                    }
                    start = Self.leadingTimestamp(bytes) ?? previous ?? timelineStart ?? 0
                }
                previousSamples = active.decodedSamples - samplesBefore
                guard let start else {
                    throw AudioTranscodingError("\(source.place): its audio track holds no frame")
                }
                if runSegments.isEmpty { active.runStartSamples = (start * Int64(active.sampleRate) + 45_000) / 90_000 }
                result.sourceStarts.append(start)
                runSegments.append(index)
            } catch let error as AudioTranscodingError {
                throw error
            } catch let error as LibAVError {
                throw AudioTranscodingError("\(source.place): \(error.description)")
            } catch {
                throw AudioTranscodingError("\(source.place): \(error)")
            }
        }
        try finishRun()
        return result
    }
}

extension AudioTranscoder {
    /// The RFC 8216 §3.4 PRIV timestamp of the ID3 tag a packed-audio segment starts with, read
    /// from the segment's first bytes (the tag alone, at most 16 MiB); nil without one.
    static func leadingTimestamp(_ source: any RandomAccessBytes) -> Int64? {
        func prefix(_ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            let read = try? bytes.withUnsafeMutableBytes { buffer throws(ByteReadError) in
                try source.read(at: 0, into: buffer)
            }
            return read == count ? bytes : nil
        }
        guard source.count >= 10, let header = prefix(10), header[0] == 0x49, header[1] == 0x44, header[2] == 0x33
        else { return nil }
        let footer = header[5] & 0x10 != 0 ? 10 : 0
        let size = header[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7f) } + 10 + footer
        guard size <= source.count, size <= 16 << 20, let tag = prefix(size) else { return nil }
        return leadingTimestamp(tag)
    }

    static func leadingTimestamp(_ bytes: [UInt8]) -> Int64? {
        guard let tag = try? ID3Tag.parse(bytes[...]).tag else { return nil }
        return TransportStreamTimestamp(tag: tag)?.pts90k
    }
}

/// An encoded AAC frame; `pts` in samples on the source timeline.
struct EncodedFrame: Sendable {
    var data: [UInt8]
    var pts: Int64

    func pts90k(_ sampleRate: Int) -> Int64 { pts * 90_000 / Int64(sampleRate) }
}

/// What the encoder needs to describe its frames (AudioSpecificConfig fields).
struct AACConfig: Sendable {
    var objectType = 2
    var sampleRateIndex = 4
    var channelConfiguration = 2
    var extradata: [UInt8] = []
}

struct EncodedAudio: Sendable {
    var packets: [[EncodedFrame]] = []
    var sourceStarts: [Int64] = []
    var sampleRate = 48_000
    var channels = 2
    var config = AACConfig()
    var sourceSamples = 0
    var segments: [[UInt8]] = []
    var initSection: [UInt8]?
    var bitRate = 0

    /// Cuts one run's frames on its segments' source starts (90 kHz): a frame goes to the last
    /// segment starting at or before its middle-ish point (half a frame of tolerance).
    mutating func assign(_ frames: [EncodedFrame], runSegments: [Int], runStart: Int64) {
        let starts = runSegments.map { sourceStarts[$0] }
        var buckets = [[EncodedFrame]](repeating: [], count: runSegments.count)
        let halfFrame = Int64(AudioTranscoder.frameSamples / 2) * 90_000 / Int64(sampleRate)
        var bucket = 0
        for var frame in frames {
            frame.pts += runStart
            let time = frame.pts90k(sampleRate)
            while bucket + 1 < starts.count, time + halfFrame >= starts[bucket + 1] { bucket += 1 }
            buckets[bucket].append(frame)
        }
        while packets.count < (runSegments.last ?? -1) + 1 { packets.append([]) }
        for (offset, index) in runSegments.enumerated() { packets[index] = buckets[offset] }
    }
}

/// Decoder → resampler → FIFO → encoder for one run of segments without discontinuity. Owns
/// every libav object and frees them in `deinit`; lives inside one synchronous call.
private final class Pipeline {
    private var decoder: UnsafeMutablePointer<AVCodecContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private var fifo: OpaquePointer?
    private var decoded: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let codecParameters: (AVCodecID, Int32, Int32)
    let sampleRate: Int
    let channels: Int
    let config: AACConfig
    /// Samples handed to the encoder so far (its clock), and frames it produced (pts relative).
    private var samplesSent: Int64 = 0
    private(set) var output: [EncodedFrame] = []
    private(set) var decodedSamples = 0
    var runStartSamples: Int64 = 0

    init(stream: UnsafeMutablePointer<AVStream>, bitRate: Int, maximumChannels: Int) throws(LibAVError) {
        guard let parameters = stream.pointee.codecpar else { throw LibAV.nullResult("codecpar") }
        codecParameters = (
            parameters.pointee.codec_id, parameters.pointee.sample_rate, parameters.pointee.ch_layout.nb_channels
        )
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw LibAVError(
                function: "avcodec_find_decoder", code: 0,
                message:
                    "this libavcodec has no \(LibAV.string(avcodec_get_name(parameters.pointee.codec_id)) ?? "such") decoder"
            )
        }
        decoder = avcodec_alloc_context3(codec)
        guard let decoder else { throw LibAV.nullResult("avcodec_alloc_context3") }
        try LibAV.check("avcodec_parameters_to_context", avcodec_parameters_to_context(decoder, parameters))
        decoder.pointee.pkt_timebase = stream.pointee.time_base
        decoder.pointee.thread_count = 1
        try LibAV.check("avcodec_open2", avcodec_open2(decoder, codec, nil))

        // The AAC-LC sampling rates; anything else is resampled to 48 kHz.
        let sourceRate = Int(decoder.pointee.sample_rate)
        let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000]
        sampleRate = rates.contains(sourceRate) && sourceRate <= 48_000 ? sourceRate : 48_000
        channels = max(1, min(maximumChannels, Int(decoder.pointee.ch_layout.nb_channels)))

        guard let aac = avcodec_find_encoder_by_name("aac") else {
            throw LibAVError(
                function: "avcodec_find_encoder_by_name", code: 0, message: "this libavcodec has no native aac encoder")
        }
        encoder = avcodec_alloc_context3(aac)
        guard let encoder else { throw LibAV.nullResult("avcodec_alloc_context3") }
        encoder.pointee.sample_rate = Int32(sampleRate)
        encoder.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        av_channel_layout_default(&encoder.pointee.ch_layout, Int32(channels))
        encoder.pointee.bit_rate = Int64(bitRate)
        encoder.pointee.profile = hls_profile_aac_low()
        encoder.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        encoder.pointee.flags |= hls_codec_flag_global_header()
        encoder.pointee.thread_count = 1
        try LibAV.check("avcodec_open2", avcodec_open2(encoder, aac, nil))
        let extradata =
            encoder.pointee.extradata.map {
                Array(UnsafeBufferPointer(start: $0, count: Int(encoder.pointee.extradata_size)))
            } ?? []
        var config = AACConfig()
        config.extradata = extradata
        if extradata.count >= 2 {
            config.objectType = Int(extradata[0] >> 3)
            config.sampleRateIndex = Int((extradata[0] & 0x07) << 1 | extradata[1] >> 7)
            config.channelConfiguration = Int((extradata[1] >> 3) & 0x0F)
        }
        self.config = config

        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(channels))
        defer { av_channel_layout_uninit(&outLayout) }
        var swr: OpaquePointer?
        try LibAV.check(
            "swr_alloc_set_opts2",
            swr_alloc_set_opts2(
                &swr, &outLayout, AV_SAMPLE_FMT_FLTP, Int32(sampleRate),
                &decoder.pointee.ch_layout, decoder.pointee.sample_fmt, decoder.pointee.sample_rate, 0, nil))
        resampler = swr
        try LibAV.check("swr_init", swr_init(swr))
        fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, Int32(channels), Int32(AudioTranscoder.frameSamples * 4))
        decoded = av_frame_alloc()
        packet = av_packet_alloc()
        guard fifo != nil, decoded != nil, packet != nil else { throw LibAV.nullResult("av_audio_fifo_alloc") }
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&decoded)
        if let fifo { av_audio_fifo_free(fifo) }
        swr_free(&resampler)
        avcodec_free_context(&encoder)
        avcodec_free_context(&decoder)
    }

    /// Decodes every packet of the audio track; returns the first packet's PTS (90 kHz).
    func decode(
        format: UnsafeMutablePointer<AVFormatContext>, streamIndex: Int32, stream: UnsafeMutablePointer<AVStream>
    ) throws(LibAVError) -> Int64? {
        guard let packet, let decoder else { return nil }
        if let parameters = stream.pointee.codecpar, parameters.pointee.codec_id != codecParameters.0 {
            throw LibAVError(
                function: "decode", code: 0,
                message: "the audio codec changes between segments without EXT-X-DISCONTINUITY")
        }
        var first: Int64?
        var sawPacket = false
        while true {
            let status = av_read_frame(format, packet)
            if status == hls_averror_eof() { break }
            try LibAV.check("av_read_frame", status)
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            sawPacket = true
            if first == nil, packet.pointee.pts != hls_av_nopts_value() {
                first = av_rescale_q(packet.pointee.pts, stream.pointee.time_base, AVRational(num: 1, den: 90_000))
            }
            let sent = avcodec_send_packet(decoder, packet)
            // A damaged frame is skipped (the decoder conceals it); anything else is a failure.
            if sent < 0, sent != hls_averror_invaliddata() { try LibAV.check("avcodec_send_packet", sent) }
            try receiveDecoded()
        }
        // Raw ADTS has no timestamps of its own; the caller places it (PRIV, or the segment before).
        return first ?? (sawPacket ? 0 : nil)
    }

    private func receiveDecoded() throws(LibAVError) {
        guard let decoder, let decoded else { return }
        while true {
            let received = avcodec_receive_frame(decoder, decoded)
            if received == hls_averror(EAGAIN) || received == hls_averror_eof() { return }
            if received == hls_averror_invaliddata() { continue }
            try LibAV.check("avcodec_receive_frame", received)
            defer { av_frame_unref(decoded) }
            try resample(decoded)
        }
    }

    /// Converts `frame` (nil: drains the resampler) into the FIFO, then encodes full frames.
    private func resample(_ frame: UnsafeMutablePointer<AVFrame>?) throws(LibAVError) {
        guard let resampler, let fifo else { return }
        let inputSamples = frame.map { Int($0.pointee.nb_samples) } ?? 0
        let capacity = Int(swr_get_out_samples(resampler, Int32(inputSamples))) + 32
        guard capacity > 0 else { return }
        var planes = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: channels)
        try LibAV.check(
            "av_samples_alloc", av_samples_alloc(&planes, nil, Int32(channels), Int32(capacity), AV_SAMPLE_FMT_FLTP, 0))
        defer { av_freep(&planes[0]) }
        let converted = hls_swr_convert_frame(resampler, &planes, Int32(capacity), frame)
        try LibAV.check("swr_convert", converted)
        decodedSamples += Int(converted)
        try LibAV.check("av_audio_fifo_write", hls_audio_fifo_write(fifo, &planes, converted))
        while av_audio_fifo_size(fifo) >= Int32(AudioTranscoder.frameSamples) {
            try encodeFromFIFO(samples: AudioTranscoder.frameSamples)
        }
    }

    private func encodeFromFIFO(samples: Int) throws(LibAVError) {
        guard let fifo, let encoder else { return }
        guard let frame = av_frame_alloc() else { throw LibAV.nullResult("av_frame_alloc") }
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        defer { av_frame_free(&owned) }
        frame.pointee.nb_samples = Int32(samples)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Int32(sampleRate)
        try LibAV.check(
            "av_channel_layout_copy", av_channel_layout_copy(&frame.pointee.ch_layout, &encoder.pointee.ch_layout))
        try LibAV.check("av_frame_get_buffer", av_frame_get_buffer(frame, 0))
        let read = hls_audio_fifo_read_frame(fifo, frame, Int32(samples))
        try LibAV.check("av_audio_fifo_read", read)
        frame.pointee.pts = samplesSent
        samplesSent += Int64(samples)
        try LibAV.check("avcodec_send_frame", avcodec_send_frame(encoder, frame))
        try receiveEncoded()
    }

    private func receiveEncoded() throws(LibAVError) {
        guard let encoder, let packet else { return }
        while true {
            let received = avcodec_receive_packet(encoder, packet)
            if received == hls_averror(EAGAIN) || received == hls_averror_eof() { return }
            try LibAV.check("avcodec_receive_packet", received)
            defer { av_packet_unref(packet) }
            // The encoder's priming frame lies before the run's first sample: players start at
            // the source's first timestamp, so it is left out (docs/embed.md, "Alignment").
            guard packet.pointee.pts >= 0, let data = packet.pointee.data else { continue }
            output.append(
                EncodedFrame(
                    data: Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size))),
                    pts: packet.pointee.pts))
        }
    }

    /// Drains decoder, resampler, FIFO (a last short frame) and encoder.
    func finish() throws(LibAVError) {
        guard let decoder, let encoder, let fifo else { return }
        _ = avcodec_send_packet(decoder, nil)
        try receiveDecoded()
        try resample(nil)
        let rest = Int(av_audio_fifo_size(fifo))
        if rest > 0 { try encodeFromFIFO(samples: rest) }
        try LibAV.check("avcodec_send_frame", avcodec_send_frame(encoder, nil))
        try receiveEncoded()
    }
}

/// ADTS framing of raw AAC frames (ISO/IEC 13818-7 §6.2, 7-byte header without CRC).
enum ADTSFraming {
    static func frame(_ frame: EncodedFrame, config: AACConfig) -> [UInt8] {
        let length = frame.data.count + 7
        let profile = UInt8((config.objectType - 1) & 0x03)
        let channels = UInt8(config.channelConfiguration & 0x07)
        var header: [UInt8] = [0xFF, 0xF1, 0, 0, 0, 0, 0xFC]
        header[2] = profile << 6 | UInt8(config.sampleRateIndex & 0x0F) << 2 | channels >> 2
        header[3] = (channels & 0x03) << 6 | UInt8((length >> 11) & 0x03)
        header[4] = UInt8((length >> 3) & 0xFF)
        header[5] = UInt8(length & 0x07) << 5 | 0x1F
        return header + frame.data
    }
}
